// Tests for RedlineScrivener: see ARCHITECTURE.md.
