// What a page render hands back: the pixels, the resolution they were drawn at, and warnings.

import TechoRaster

/// A rendered page.
public struct RenderedPage: Sendable {
    /// The page's pixels, premultiplied RGBA, `scale` × the page's pixel size.
    public var pixmap: Pixmap
    /// The resolution of `pixmap`: the page's dpi × the render scale.
    public var dpi: Double
    /// Things the user should know that did not stop the render (missing glyphs, substituted
    /// fonts, decoder notes), each prefixed with the element id. Default empty.
    public var warnings: [String]

    public init(pixmap: Pixmap, dpi: Double, warnings: [String] = []) {
        self.pixmap = pixmap
        self.dpi = dpi
        self.warnings = warnings
    }
}
