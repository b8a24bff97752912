// The result of text layout: positioned glyphs in element space (origin at the box centre,
// y down), plus the lines and clusters they came from.
import TechoGeometry

/// A glyph placed in element space.
public struct PlacedGlyph: Sendable {
    /// What to draw.
    public enum Kind: Sendable {
        /// A vector outline in font units (y up); `transform` maps it to element space.
        case outline(GlyphOutline)
        /// A colour bitmap (premultiplied RGBA); `transform` maps its pixel grid to element space.
        case image(ColorGlyph)
    }

    /// The face the glyph comes from.
    public let face: FaceKey
    /// The glyph id in that face.
    public let glyphID: UInt32
    public let kind: Kind
    /// Font units (outline) or bitmap pixels (image) → element space.
    public let transform: Transform
    /// The index in `LaidOutText.clusters` of the cluster the glyph draws: what a PDF maps the
    /// glyph back to when its text is extracted.
    public let cluster: Int

    /// The outline in element space, or nil for an image glyph.
    public var path: Path? {
        if case .outline(let o) = kind { return o.path.applying(transform) }
        return nil
    }

    /// The glyph's bounds in element space (control-point bounds for outlines).
    public var bounds: Rect {
        switch kind {
        case .outline(let o): return o.bounds.applying(transform)
        case .image(let g): return Rect(x: 0, y: 0, width: Double(g.image.width), height: Double(g.image.height)).applying(transform)
        }
    }

    /// A colour bitmap glyph.
    public var isImage: Bool { if case .image = kind { return true } else { return false } }
}

/// One grapheme cluster as laid out: for hit-testing, tests and diagnostics.
public struct LaidOutCluster: Sendable {
    /// The cluster's text (one extended grapheme cluster).
    public let text: String
    /// Offset of the cluster, in Characters, in the laid-out string.
    public let sourceIndex: Int
    /// Its line, from 0.
    public let line: Int
    /// The face that draws it; nil when no installed font can.
    public let face: FaceKey?
    /// Its advance box in element space: pen to pen + advance, line top to line bottom.
    public let rect: Rect
}

/// One line of laid-out text.
public struct LaidOutLine: Sendable {
    /// The line box in element space (width = the line's advance, without trailing spaces).
    public let rect: Rect
    /// The baseline's y in element space.
    public let baseline: Double
    /// Character range of the line in the laid-out string (trailing spaces included).
    public let sourceRange: Range<Int>
}

/// Text laid out in element space: origin at the centre of the box, y down.
///
/// ## Guarantees
/// `bounds` is centred on the origin; every line box lies inside it horizontally; glyphs of
/// clusters with no font are absent (they are listed in `warnings`).
public struct LaidOutText: Sendable {
    /// The style it was laid out with.
    public let style: TextStyle
    /// Natural width: the widest line. 0 for empty text.
    public let width: Double
    /// Natural height: number of lines × line height.
    public let height: Double
    /// The glyphs, in visual order line by line.
    public let glyphs: [PlacedGlyph]
    public let lines: [LaidOutLine]
    /// Clusters in visual order, line by line; blank clusters at line ends are left out.
    public let clusters: [LaidOutCluster]
    /// Missing characters (each named once, in order of appearance) and font substitutions.
    public let warnings: [TextWarning]

    /// The layout box, centred on the origin.
    public var bounds: Rect { Rect(x: -width / 2, y: -height / 2, width: width, height: height) }

    /// The union of the glyphs' bounds (ink may overhang the layout box: italics, accents).
    public var inkBounds: Rect { glyphs.reduce(Rect.null) { $0.union($1.bounds) } }

    /// Every outline glyph as one path in element space (colour bitmaps excluded).
    public var outlinePath: Path {
        var p = Path()
        for g in glyphs { if let gp = g.path { p.append(gp) } }
        return p
    }

    /// Traps if a guarantee does not hold.
    public func checkInvariants() {
        precondition(abs(bounds.midX) < 1e-9 && abs(bounds.midY) < 1e-9, "box not centred")
        for l in lines {
            precondition(l.rect.minX >= bounds.minX - 1e-6 && l.rect.maxX <= bounds.maxX + 1e-6, "line outside box")
        }
        for g in glyphs { precondition(g.transform.isFinite, "non-finite glyph transform") }
    }
}
