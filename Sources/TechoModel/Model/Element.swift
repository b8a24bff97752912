// Page elements (docs/contract.md §1): common fields plus one of five kinds of content.

import Foundation

/// A content-addressed asset inside a journal: `assets/<sha256>.<ext>`.
///
/// ## Guarantees
/// `sha256` is 64 lowercase hex digits; `ext` is 1–8 lowercase letters or digits.
public struct AssetRef: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// SHA-256 of the bytes, lowercase hex.
    public let sha256: String
    /// File extension, lowercase, without the dot (`png`, `jpg`).
    public let ext: String

    public init(sha256: String, ext: String) throws {
        let hexOK = sha256.utf8.count == 64 && sha256.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
        let e = ext.lowercased()
        let extOK = (1...8).contains(e.utf8.count) && e.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) }
        guard hexOK, extOK else { throw ValueError("invalid asset \"\(sha256).\(ext)\": expected a SHA-256 hex name and a short extension") }
        self.sha256 = sha256; self.ext = e
    }

    /// Parses `assets/<sha256>.<ext>`.
    public init(path: String) throws {
        let bad = ValueError("invalid asset path \"\(path)\": expected assets/<sha256>.<ext>")
        guard path.hasPrefix("assets/") else { throw bad }
        let name = path.dropFirst("assets/".count)
        guard let dot = name.firstIndex(of: ".") else { throw bad }
        do { try self.init(sha256: String(name[..<dot]), ext: String(name[name.index(after: dot)...])) } catch { throw bad }
    }

    /// The path inside the bundle.
    public var path: String { "assets/\(sha256).\(ext)" }
    public var description: String { path }
    public static func < (a: AssetRef, b: AssetRef) -> Bool { a.path < b.path }
}

/// A die-cut sticker outline (a border following the alpha edge), or a text outline.
public struct Outline: Hashable, Sendable {
    /// Width, pixels, within `FieldRules.outlineWidth`. Default 8.
    public var width: Double
    /// Colour. Default white.
    public var color: RGBA
    public init(width: Double = 8, color: RGBA = .white) throws {
        guard FieldRules.outlineWidth.contains(width) else { throw ValueError(FieldRules.outlineWidth, width) }
        self.width = width; self.color = color
    }
}

/// An image sticker: an image asset (PNG, JPEG, HEIF, AVIF, WebP; SVG drawn as a vector) drawn at its natural size (after EXIF orientation).
public struct ImageContent: Hashable, Sendable {
    /// The image bytes in the journal.
    public var asset: AssetRef
    /// Natural width, pixels, after EXIF orientation.
    public var naturalWidth: Double
    /// Natural height, pixels, after EXIF orientation.
    public var naturalHeight: Double
    /// Die-cut outline. Default nil.
    public var outline: Outline?

    public init(asset: AssetRef, naturalWidth: Double, naturalHeight: Double, outline: Outline? = nil, limits: ModelLimits = .default) throws {
        for v in [naturalWidth, naturalHeight] where !(v >= 1 && v <= limits.maxImageSide) {
            throw ValueError("natural size \(naturalWidth)x\(naturalHeight) must be 1…\(Int(limits.maxImageSide)) px a side")
        }
        guard naturalWidth * naturalHeight <= limits.maxImagePixels else {
            throw ValueError("natural size \(naturalWidth)x\(naturalHeight) is over \(Int(limits.maxImagePixels)) pixels")
        }
        self.asset = asset; self.naturalWidth = naturalWidth; self.naturalHeight = naturalHeight; self.outline = outline
    }
}

/// A photo: an image plus frame, crop, corners, shadow and film-style adjustments.
public struct PhotoContent: Hashable, Sendable {
    /// Frame styles.
    public enum Frame: String, Hashable, Sendable, CaseIterable { case none, border, polaroid }

    /// The picture.
    public var image: ImageContent
    /// Crop rectangle in natural pixels, or nil for the whole picture. Default nil.
    public var crop: Rect?
    /// Frame. Default none.
    public var frame: Frame = .none
    /// Corner radius, pixels, ≥ 0. Default 0.
    public var radius: Double = 0
    /// Drop shadow. Default false.
    public var shadow: Bool = false
    /// Brightness −1…1. Default 0.
    public var brightness: Double = 0
    /// Contrast −1…1. Default 0.
    public var contrast: Double = 0
    /// Saturation −1…1 (−1 is grey). Default 0.
    public var saturation: Double = 0
    /// Warmth −1 (cool) … 1 (warm). Default 0.
    public var warmth: Double = 0
    /// Greyscale amount 0…1. Default 0.
    public var grayscale: Double = 0
    /// Sepia amount 0…1. Default 0.
    public var sepia: Double = 0
    /// Fade (lifted blacks, a film look) 0…1. Default 0.
    public var fade: Double = 0

    public init(image: ImageContent) { self.image = image }

    /// The adjustment fields: name, range (from `FieldRules.adjustments`) and property.
    public static let adjustmentRanges: [(String, ClosedRange<Double>, WritableKeyPath<PhotoContent, Double>)] = {
        let properties: [WritableKeyPath<PhotoContent, Double>] = [\.brightness, \.contrast, \.saturation, \.warmth, \.grayscale, \.sepia, \.fade]
        return zip(FieldRules.adjustments, properties).map { ($0.name, $0.range, $1) }
    }()

    /// Throws when a field is out of range or the crop leaves the picture.
    public func validate() throws {
        for ((_, _, kp), rule) in zip(PhotoContent.adjustmentRanges, FieldRules.adjustments) where !rule.contains(self[keyPath: kp]) {
            throw ValueError(rule, self[keyPath: kp])
        }
        guard FieldRules.radius.contains(radius) else { throw ValueError(FieldRules.radius, radius) }
        if let c = crop {
            guard c.isFinite, c.width >= 1, c.height >= 1, c.minX >= 0, c.minY >= 0,
                c.maxX <= image.naturalWidth, c.maxY <= image.naturalHeight
            else {
                throw ValueError("crop \(c) must be inside the \(image.naturalWidth)x\(image.naturalHeight) picture and at least 1 px")
            }
        }
    }
}

/// A text sticker: requested properties; its laid-out box is the text engine's business.
public struct TextContent: Hashable, Sendable {
    /// Alignment of lines.
    public enum Align: String, Hashable, Sendable, CaseIterable { case left, center, right }

    /// The text, ≤ 100 000 characters.
    public var text: String
    /// Font family: an installed family name or a generic one (`serif`); never a path. Default
    /// "sans-serif". Checked against the installed families when it is written (TechoEditing).
    public var font: String = "sans-serif"
    /// A font file imported into the journal, used before `font` (which then only names the
    /// fallback). Default nil.
    public var fontFile: AssetRef?
    /// Weight 100…900 (`bold` is 700). Default 400.
    public var weight: Int = 400
    /// Italic. Default false.
    public var italic: Bool = false
    /// Size, pixels, 1…2000. Default 48.
    public var size: Double = 48
    /// Colour. Default black.
    public var color: RGBA = .black
    /// Alignment. Default left.
    public var align: Align = .left
    /// Line height as a multiple of the size. Default 1.2.
    public var lineHeight: Double = 1.2
    /// Wrap width, pixels, or nil for no wrapping. Default nil.
    public var maxWidth: Double?
    /// Extra space between characters, pixels. Default 0.
    public var letterSpacing: Double = 0
    /// Outline. Default nil.
    public var outline: Outline?

    public init(text: String) { self.text = text }

    /// Throws when a field breaks its rule (`FieldRules`), which are the text engine's own
    /// limits: a text that validates can be laid out.
    public func validate(limits: ModelLimits = .default) throws {
        // Counted as the text engine counts (Unicode scalars), stopping at the limit.
        var n = 0
        for _ in text.unicodeScalars {
            n += 1
            if n > limits.maxTextCharacters {
                throw ValueError(field: "text", "\(text.unicodeScalars.count) characters is over the limit of \(limits.maxTextCharacters)")
            }
        }
        guard font.utf8.count <= FieldRules.maxFontNameBytes, !font.contains("\0") else {
            throw ValueError(field: "font", "a name of \(font.utf8.count) bytes is over the limit of \(FieldRules.maxFontNameBytes), or holds NUL")
        }
        guard !FontNames.looksLikeFilePath(font) else {
            throw ValueError(
                field: "font",
                "'\(font)' is a file path, not a family; give an installed family (see 'techo fonts') or import the file (--font-file, \"fontFile\")")
        }
        guard FieldRules.weight.range.contains(weight) else { throw ValueError(field: "weight", "\(FieldRules.weight.refusal(weight)) (or bold)") }
        guard limits.fontSizes.contains(size), FieldRules.fontSize.contains(size) else { throw ValueError(FieldRules.fontSize, size) }
        guard FieldRules.lineHeight.contains(lineHeight) else { throw ValueError(FieldRules.lineHeight, lineHeight) }
        if let w = maxWidth, !FieldRules.maxWidth.contains(w) { throw ValueError(FieldRules.maxWidth, w) }
        guard FieldRules.letterSpacing.contains(letterSpacing) else { throw ValueError(FieldRules.letterSpacing, letterSpacing) }
    }
}

/// A freehand brush layer; its strokes are in page coordinates.
public struct InkContent: Hashable, Sendable {
    /// Strokes, bottom to top. Default empty.
    public var strokes: [Stroke]
    public init(strokes: [Stroke] = []) { self.strokes = strokes }
}

/// A strip of washi tape, in the element's own frame (the element's centre is the origin).
public struct WashiContent: Hashable, Sendable {
    /// End styles.
    public enum Ends: String, Hashable, Sendable, CaseIterable { case torn, zigzag }
    /// What the tape is printed with.
    public enum Fill: Hashable, Sendable {
        case color(RGBA)
        case pattern(AssetRef)
    }
    /// Start of the strip's centre line, element space.
    public var from: Point
    /// End of the strip's centre line, element space.
    public var to: Point
    /// Width across the strip, pixels, > 0. Default 15 mm.
    public var width: Double
    /// Colour or pattern. Default a translucent rose `#e8a0a0cc`.
    public var fill: Fill
    /// End style. Default torn.
    public var ends: Ends

    /// The default tape colour.
    public static let defaultColor = RGBA(r: 0xE8, g: 0xA0, b: 0xA0, a: 0xCC)

    public init(from: Point, to: Point, width: Double, fill: Fill = .color(WashiContent.defaultColor), ends: Ends = .torn) throws {
        guard from.isFinite, to.isFinite, from != to else { throw ValueError("washi tape needs distinct finite from and to points") }
        guard FieldRules.washiWidth.contains(width) else { throw ValueError(FieldRules.washiWidth, width) }
        self.from = from; self.to = to; self.width = width; self.fill = fill; self.ends = ends
    }
}

/// One element of a page.
///
/// ## Guarantees
/// `id` matches `[A-Za-z0-9_-]{1,64}`; `opacity` is in 0…1; an `ink` element's placement is
/// the identity (ink has no transform); the content's own guarantees hold.
public struct Element: Hashable, Sendable {
    /// Element kinds, as the formats name them.
    public enum Kind: String, Hashable, Sendable, CaseIterable { case image, photo, text, ink, washi }
    /// What the element shows.
    public enum Content: Hashable, Sendable {
        case image(ImageContent)
        case photo(PhotoContent)
        case text(TextContent)
        case ink(InkContent)
        case washi(WashiContent)
    }

    /// Page-unique id.
    public var id: String
    /// Opacity 0…1. Default 1.
    public var opacity: Double = 1
    /// Hidden elements are kept but not drawn. Default false.
    public var hidden: Bool = false
    /// Locked elements are drawn but not picked in the editor, and no gesture moves them. Default false.
    public var locked: Bool = false
    /// Placement on the page (identity for ink).
    public var placement: Placement
    /// A page-space clip (a template slot) for images and photos. Default nil.
    public var clip: SlotFrame?
    /// The content.
    public var content: Content

    public init(
        id: String, content: Content, placement: Placement = .identity, opacity: Double = 1, hidden: Bool = false,
        clip: SlotFrame? = nil, locked: Bool = false
    ) throws {
        try Identifier.validate(id, what: "element id")
        guard FieldRules.opacity.contains(opacity) else { throw ValueError(FieldRules.opacity, opacity) }
        if case .ink = content, placement != .identity { throw ValueError("ink elements have no transform") }
        self.id = id; self.content = content; self.placement = placement; self.opacity = opacity; self.hidden = hidden
        self.clip = clip; self.locked = locked
    }

    /// The element's kind.
    public var kind: Kind { content.kind }

    /// The assets the element refers to: its picture, its tape's pattern, its font file.
    public var assets: Set<AssetRef> {
        switch content {
        case .image(let i): return [i.asset]
        case .photo(let p): return [p.image.asset]
        case .washi(let w): if case .pattern(let a) = w.fill { return [a] } else { return [] }
        case .text(let t): return t.fontFile.map { [$0] } ?? []
        case .ink: return []
        }
    }

    /// The element-to-page transform (identity for ink).
    public var transform: Transform { placement.transform }

    /// Traps when a guarantee is broken.
    public func checkInvariants() {
        precondition(Identifier.isValid(id), "bad id \(id)")
        precondition(opacity >= 0 && opacity <= 1, "opacity \(opacity)")
        placement.checkInvariants()
        switch content {
        case .ink(let ink):
            precondition(placement == .identity, "ink with a transform")
            ink.strokes.forEach { $0.checkInvariants() }
        case .photo(let p): precondition((try? p.validate()) != nil, "photo out of range")
        case .text(let t): precondition((try? t.validate()) != nil, "text out of range")
        default: break
        }
    }
}

extension Element.Content {
    /// The kind of element this content makes.
    public var kind: Element.Kind {
        switch self {
        case .image: return .image
        case .photo: return .photo
        case .text: return .text
        case .ink: return .ink
        case .washi: return .washi
        }
    }
}
