// RedlineMarkdown: see ARCHITECTURE.md.
