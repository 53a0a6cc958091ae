// RedlineZip: see ARCHITECTURE.md.
