// Tests for Redline: see ARCHITECTURE.md.
