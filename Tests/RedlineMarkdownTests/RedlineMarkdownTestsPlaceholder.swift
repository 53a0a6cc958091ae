// Tests for RedlineMarkdown: see ARCHITECTURE.md.
