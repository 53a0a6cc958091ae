// RedlineXML: see ARCHITECTURE.md.
