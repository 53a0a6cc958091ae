// Tests for RedlineDOCX: see ARCHITECTURE.md.
