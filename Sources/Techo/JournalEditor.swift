// A journal on disk, edited and rendered from Swift: the library's front door.
import Foundation
import TechoCodecs
import TechoEditing
import TechoExport
import TechoGeometry
import TechoModel
import TechoRaster
import TechoRender

/// A journal folder (`NAME.techo/`) opened for editing and rendering.
///
/// Every change is one step of the journal's history (as one `techo` command is), written
/// atomically under the journal's lock, so the command line and the editor see it at once and
/// `undo()` takes it back. Reads always see the journal as it is on disk.
///
/// ```swift
/// import Techo
///
/// let journal = try JournalEditor.create(at: URL(fileURLWithPath: "trip.techo"), size: "A6")
/// let cat = try journal.addPicture(URL(fileURLWithPath: "cat.webp"), to: "p1")
/// try journal.apply([.pinch(scale: 1.5, around: nil), .rotate(degrees: 15, around: nil)], to: cat, on: "p1")
/// try journal.draw(try Stroke(tool: .pencil, color: try RGBA(parsing: "#e07a5f"), width: 6,
///                             points: [StrokePoint(100, 500), StrokePoint(160, 480)]), on: "p1")
/// let png = try journal.renderPNG(page: "p1", scale: 2)
/// ```
///
/// Every refusal or failure is thrown as an `EditError` whose `kind` says what went wrong and
/// whose message names the page, element, file or field, as the CLI and the editor word it.
///
/// - Thread safety: one instance may be used from one thread at a time; separate instances
///   (or processes) on the same journal are serialised by the journal's lock.
public final class JournalEditor {
    /// The journal folder.
    public let url: URL
    private let store: JournalStore
    private let renderer: PageRenderer

    private init(url: URL, store: JournalStore) {
        self.url = url
        self.store = store
        self.renderer = PageRenderer(assetURL: store.assetURL)
    }

    /// Opens the journal folder at `url`.
    /// - Throws: `EditError` when it is missing, locked beyond the wait, or damaged.
    public static func open(_ url: URL) throws(EditError) -> JournalEditor {
        try EditError.wrapping { JournalEditor(url: url, store: try JournalStore.open(url)) }
    }

    /// Creates a journal folder at `url` (which must not exist) with one empty page, `p1`.
    /// - Parameters:
    ///   - title: the journal's title. Default: the folder name without `.techo`.
    ///   - size: a page size as `techo init --size` takes it (`A5`, `A6`, `TN`, `1748x2480`,
    ///     `100x150mm`, `1748xauto`). Default `A5`.
    ///   - dpi: resolution for millimetre units and print metadata. Default 300.
    ///   - background: the page colour. Default white.
    /// - Throws: `EditError`: `.invalid` for a bad size or title, `.failure` when `url` exists
    ///   or cannot be written (nothing is left behind).
    public static func create(
        at url: URL, title: String? = nil, size: String = PageSize.defaultName,
        dpi: Double = Page.defaultDPI, background: RGBA = .white
    ) throws(EditError) -> JournalEditor {
        try EditError.wrapping { try makeJournal(at: url, title: title, size: size, dpi: dpi, background: background) }
    }

    private static func makeJournal(at url: URL, title: String?, size: String, dpi: Double, background: RGBA) throws -> JournalEditor {
        let page = try Page(id: "p1", size: try PageSize(parsing: size, dpi: dpi), dpi: dpi, background: Background(color: background))
        let journal = try Journal(title: title ?? url.deletingPathExtension().lastPathComponent, pageOrder: ["p1"])
        return JournalEditor(url: url, store: try JournalStore.create(at: url, journal: journal, pages: [page]))
    }

    // MARK: Reading

    /// The ids of the pages, in order.
    public func pageIDs() throws(EditError) -> [String] { try EditError.wrapping { try store.read().journal.pageOrder } }

    /// The page `id` as it is now.
    /// - Throws: `EditError` `.notFound` naming the pages there are.
    public func page(_ id: String) throws(EditError) -> Page {
        let (journal, pages) = try EditError.wrapping { try store.read() }
        return try PageEdits.page(id, in: pages, journal: journal)
    }

    // MARK: Editing

    /// Adds a page after the last one (same size, dpi and background as the last page) and
    /// returns its id (`p2`, `p3`, … unless `id` names one).
    @discardableResult
    public func addPage(id: String? = nil) throws(EditError) -> String {
        try PageEdits.addPage(to: store, id: id)
    }

    /// Adds a picture file (PNG, JPEG, HEIC/HEIF, AVIF, WebP or SVG, told by its bytes) as an
    /// image sticker, or a photo when `photo` is true, and returns the new element's id.
    ///
    /// The file is checked whole (`ImageProbe`) before anything is written, copied into the
    /// journal content-addressed, and its GPS position removed (JPEG, HEIC, AVIF) unless
    /// `keepGPS`.
    /// - Parameters:
    ///   - at: the centre on the page, pixels. Default: the page centre.
    ///   - width: the width shown on the page, keeping the aspect. Default: the natural width.
    /// - Throws: `EditError` naming the file, page or value.
    @discardableResult
    public func addPicture(
        _ file: URL, to pageID: String, photo: Bool = false, at: Point? = nil,
        width: Double? = nil, keepGPS: Bool = false
    ) throws(EditError) -> String {
        let name = file.lastPathComponent
        let bytes = try EditError.wrapping { try FileBytes.contents(of: file.path, maxBytes: ImageLimits.default.maxFileBytes) }
        let picture = try PageEdits.preparePicture(bytes, name: name, keepGPS: keepGPS)
        // The picture is written inside the same locked change as the page, so a failed edit
        // leaves no file behind.
        return try PageEdits.editPage(pageID, of: store, description: "add \(photo ? "photo" : "image") \(name)", importing: [picture.asset]) { page in
            let image = try ImageContent(asset: picture.asset.ref, naturalWidth: picture.naturalWidth, naturalHeight: picture.naturalHeight)
            var placement: Placement?
            if let width {
                guard FieldRules.maxWidth.contains(width) else { throw EditError(.invalid, field: "width", FieldRules.maxWidth.refusal(width)) }
                placement = try Placement(center: try at ?? pageCenter(page), scale: width / picture.naturalWidth)
            }
            let new = NewElement(content: photo ? .photo(PhotoContent(image: image)) : .image(image), placement: placement, center: at)
            return try PageEdits.add(new, to: &page, renderer: renderer)
        }
    }

    /// Adds a text sticker centred at `at` (default: the page centre) and returns its id. Its
    /// fields obey the same rules as the CLI's and the editor's (`FieldRules`), and its `font`
    /// must be an installed family (or a generic one such as `serif`).
    /// - Throws: `EditError` `.invalid` naming the field, `.notFound` for an unknown page.
    @discardableResult
    public func addText(_ text: TextContent, to pageID: String, at: Point? = nil) throws(EditError) -> String {
        try PageEdits.editPage(pageID, of: store, description: "add text") { page in
            try PageEdits.add(NewElement(content: .text(text), center: at), to: &page, renderer: renderer)
        }
    }

    /// Changes fields of element `elementID` (opacity, placement, text, photo and outline fields;
    /// see `ElementPatch`) as one history step, with the rules `techo set` and the editor apply.
    /// - Throws: `EditError` `.invalid` naming the field (out of range, not a field of the
    ///   element's kind, a placement on ink), `.notFound` for an unknown page or element.
    public func set(_ patch: ElementPatch, on elementID: String, of pageID: String) throws(EditError) {
        try PageEdits.editPage(pageID, of: store, description: "set \(elementID)") { page in try PageEdits.set(patch, on: elementID, of: &page) }
    }

    /// Applies gestures (pan, pinch, rotate, double-tap, flip) to element `elementID` as one
    /// history step, all or nothing.
    /// - Throws: `EditError` `.invalid` when a gesture would make the transform singular or
    ///   non-finite, or the element is an ink layer (nothing changes); `.notFound` for an
    ///   unknown page or element.
    public func apply(_ gestures: [Gesture], to elementID: String, on pageID: String) throws(EditError) {
        try PageEdits.editPage(pageID, of: store, description: "gesture \(elementID)") { page in
            try PageEdits.move(elementID, on: &page, by: gestures)
        }
    }

    /// Draws a stroke on the page's topmost ink layer (made on first use) and returns that
    /// layer's id.
    @discardableResult
    public func draw(_ stroke: Stroke, on pageID: String) throws(EditError) -> String {
        try PageEdits.editPage(pageID, of: store, description: "draw \(stroke.tool.rawValue)") { page in try PageEdits.draw(stroke, on: &page) }
    }

    /// Takes back the last change; false when there is nothing to undo.
    @discardableResult
    public func undo() throws(EditError) -> Bool { try EditError.wrapping { try store.undo() != nil } }

    /// Makes the last undone change again; false when there is nothing to redo.
    @discardableResult
    public func redo() throws(EditError) -> Bool { try EditError.wrapping { try store.redo() != nil } }

    // MARK: Rendering

    /// The page rendered at `scale` (1 = the page's own pixels) as PNG file bytes: 8-bit sRGB,
    /// RGB when opaque, `pHYs` from the page dpi × scale — the bytes `techo export` writes.
    /// - Throws: `EditError`: `.unrenderable` (over the page limits, an asset that cannot be
    ///   read), `.notFound`.
    public func renderPNG(page pageID: String, scale: Double = 1) throws(EditError) -> [UInt8] {
        let page = try page(pageID)
        return try EditError.wrapping { try PageBytes.png(of: page, scale: scale, renderer: renderer) }
    }

    /// The page rendered at `scale` as straight-alpha RGBA, 4 bytes a pixel, rows top down.
    public func renderRGBA(page pageID: String, scale: Double = 1) throws(EditError) -> RGBABuffer {
        let page = try page(pageID)
        let rendered = try EditError.wrapping { try renderer.render(page, scale: scale) }
        return RGBABuffer(width: rendered.pixmap.width, height: rendered.pixmap.height, bytes: rendered.pixmap.straightRGBA())
    }

    // MARK: Private

    private func pageCenter(_ page: Page) throws -> Point {
        let (w, h) = try renderer.resolvedSize(of: page)
        return Point(x: w / 2, y: h / 2)
    }
}

/// Pixels of a rendered page: straight (not premultiplied) RGBA, 8 bits a channel, row-major
/// from the top, no padding.
public struct RGBABuffer: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height × 4` bytes.
    public let bytes: [UInt8]

    /// The pixel at (x, y) as (r, g, b, a).
    /// - Precondition: (x, y) lies inside the buffer.
    public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        let i = (y * width + x) * 4
        return (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3])
    }
}
