import RedlineCore

/// The style ids of `FigureCaptions`' paragraphs in a written package (pandoc's).
enum DOCXFigures {
    static let figureID = "CaptionedFigure", captionID = "ImageCaption"
}
