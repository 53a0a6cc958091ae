// RedlineRTF: see ARCHITECTURE.md.
