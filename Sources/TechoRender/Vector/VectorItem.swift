// A page as drawing commands instead of pixels: what a vector backend (the PDF writer) draws.
// The renderer walks the same model with the same geometry (the same stroke outlines, photo
// geometry, paper rulings, text layout) as for pixels, and only what has no vector form (soft
// shadows, tape textures, die-cut outlines) arrives as pixels, rendered at the export
// resolution by the raster renderer and placed over exactly its extent.

import TechoGeometry
import TechoRaster
import TechoText

/// A picture a vector page shows: its pixels, and where they came from.
public struct VectorPicture: Sendable {
    /// Names the pixels: equal keys are the same pixels, so a backend embeds them once per
    /// document. nil for pixels made for one place only (a rasterised effect).
    public let key: String?
    /// Premultiplied RGBA.
    public let pixmap: Pixmap
    /// The file's own JPEG bytes when they decode to exactly `pixmap` once turned by `stored`
    /// (no crop of the pixels, no adjustment, full resolution), so a backend can embed them as
    /// they are. Default nil.
    public let jpeg: [UInt8]?
    /// Maps the grid of the pixels as `jpeg` stores them onto `pixmap`'s grid: the file's EXIF
    /// orientation, which a PDF reader does not apply, so a backend embedding `jpeg` draws it
    /// through this transform. Identity when there are no such bytes or they are upright.
    /// Default `.identity`.
    public let stored: Transform

    public init(key: String?, pixmap: Pixmap, jpeg: [UInt8]? = nil, stored: Transform = .identity) {
        self.key = key
        self.pixmap = pixmap
        self.jpeg = jpeg
        self.stored = jpeg == nil ? .identity : stored
    }
}

/// A run of glyphs of one face at one size and slant, with the text they draw.
public struct GlyphRun: Sendable {
    /// One glyph: its id in the face and its origin (pen position) in page space.
    public struct Glyph: Sendable {
        public let id: UInt32
        public let origin: Point
    }

    /// One cluster: the UTF-8 bytes of its text and the number of glyphs that draw it, in
    /// the order of `glyphs`.
    public struct Cluster: Sendable {
        public let bytes: Int
        public let glyphs: Int
    }

    /// The face's font file, collection index and synthetic bold (the synthetic italic is in
    /// `fontMatrix`).
    public let face: FaceKey
    /// Font units (y up) to page space, the linear part only: every glyph of the run shares it.
    public let fontMatrix: Transform
    public let glyphs: [Glyph]
    /// What the glyphs draw, in glyph order, as a PDF's text extraction gives it back.
    public let text: String
    public let clusters: [Cluster]
    /// Straight alpha.
    public let color: Color
}

/// One drawing command of a vector page, in page space (page pixels, y down).
public indirect enum VectorItem: Sendable {
    /// A path filled with a straight-alpha colour.
    case fill(Path, color: Color, rule: FillRule)
    /// Discs of one radius and colour at `centres` (page space): dotted paper. A backend can
    /// write each as a round-capped stroke of no length, a few bytes where a circle's path
    /// takes ten times as many.
    case dots([Point], radius: Double, color: Color)
    /// A picture: `transform` maps its pixel grid to page space.
    case picture(VectorPicture, transform: Transform, opacity: Double)
    /// A picture repeated over the whole page from `transform`'s origin (a tiled background).
    case tiles(VectorPicture, transform: Transform, opacity: Double)
    /// An SVG document drawn as vectors into the unit-less box 0…width × 0…height, which
    /// `transform` maps to page space.
    case svg(bytes: [UInt8], name: String, width: Double, height: Double, transform: Transform, opacity: Double)
    /// Text as glyphs of an embedded font.
    case glyphs(GlyphRun)
    /// Items drawn on their own and composited once, through an optional clip.
    case group([VectorItem], opacity: Double, blendMode: BlendMode, clip: Path?)
    /// Items drawn on their own, then kept only as far as `mask`'s alpha says: an ink layer's
    /// strokes with what the erasers took away. `transform` places the mask's pixel grid on the
    /// page; outside it nothing is kept.
    case masked([VectorItem], mask: VectorPicture, transform: Transform)
}

/// A page ready for a vector backend.
public struct VectorPage: Sendable {
    /// The page's size in page pixels.
    public let width: Double, height: Double
    /// Page pixels per inch.
    public let dpi: Double
    /// Page pixels the background reaches past each edge (print bleed). Default 0.
    public let bleed: Double
    /// Bottom to top.
    public let items: [VectorItem]
    /// As `RenderedPage.warnings`.
    public let warnings: [String]
}
