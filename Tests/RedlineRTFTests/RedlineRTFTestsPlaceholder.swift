// Tests for RedlineRTF: see ARCHITECTURE.md.
