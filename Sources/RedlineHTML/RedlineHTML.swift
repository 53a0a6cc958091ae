// RedlineHTML: see ARCHITECTURE.md.
