// RedlineDOCX: see ARCHITECTURE.md.
