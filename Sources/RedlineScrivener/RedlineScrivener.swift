// RedlineScrivener: see ARCHITECTURE.md.
