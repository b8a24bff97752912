// Operations on a journal that take typed values instead of command-line arguments, shared by
// the CLI commands and `techo serve` (TechoServer), so both change a journal the same way.
// Errors are `CommandError`s whose code says what kind of failure it is (`.noInput` for an id
// that does not exist, `.dataError` for a value that breaks a rule) and whose message names
// the id or value at fault without pointing at an argv position.
import Foundation
import TechoCodecs
import TechoModel
import TechoRender

/// An image file's bytes checked and made ready to import.
public struct PreparedPicture: Sendable {
    /// What to store (GPS data removed from a JPEG, HEIF or AVIF unless it was kept), hashed
    /// once, under the extension of what the bytes are, never the name. Pass it to
    /// `JournalStore.transaction(importing:)`, so a failed change leaves no file behind.
    public var asset: AssetImport
    /// The header: format and size.
    public var info: ImageInfo
    /// The picture's size after its orientation is applied, pixels.
    public var naturalWidth: Double { Double(info.naturalWidth) }
    public var naturalHeight: Double { Double(info.naturalHeight) }
}

/// Where `restack` moves an element.
public enum StackTarget: Sendable, Equatable {
    /// Up (positive) or down (negative) by this many places, clamped to the stack.
    case by(Int)
    case top
    case bottom
}

public enum PageEdits {
    /// The names of the built-in templates (`Resources/templates/`), sorted.
    public static func templateNames() -> [String] { Templates.builtinNames() }

    /// Checks that `bytes` are an image techo reads (by its bytes) within the image limits and
    /// usable end to end (`ImageProbe`, so a file corrupt past its header is refused now, not at
    /// export), and removes GPS data from a JPEG, HEIF or AVIF unless `keepGPS`. `name` is what
    /// errors call the file.
    public static func preparePicture(_ bytes: [UInt8], name: String, keepGPS: Bool = false) throws -> PreparedPicture {
        guard bytes.count <= ImageLimits.default.maxFileBytes else {
            throw CommandError(.dataError, "\(name): \(bytes.count) bytes is over the \(ImageLimits.default.maxFileBytes)-byte limit for an image file")
        }
        let info = try JournalAccess.verifiedInfo(bytes, name: name)
        var stored = bytes
        if !keepGPS { stored = try ImageMetadata.removingGPS(stored, format: info.format, file: name) }
        return PreparedPicture(asset: try AssetImport(bytes: stored, ext: info.format.fileExtension), info: info)
    }

    /// Moves element `index` within the page's stack (bottom to top).
    public static func restack(_ index: Int, on page: inout Page, to target: StackTarget) {
        precondition(page.elements.indices.contains(index), "restack: no element \(index)")
        var to: Int
        switch target {
        case .by(let n): to = index + n
        case .top: to = page.elements.count - 1
        case .bottom: to = 0
        }
        to = max(0, min(page.elements.count - 1, to))
        let e = page.elements.remove(at: index)
        page.elements.insert(e, at: to)
    }

    /// Adds a page `id` (default the next `p<n>`) after `after` (default at the end), from the
    /// built-in template `template` when given, else with the size, dpi and background of the
    /// journal's last page, as `techo page add` does. One history step. Returns the page's id.
    @discardableResult
    public static func addPage(to store: JournalStore, id wanted: String? = nil, after: String? = nil, template: String? = nil) throws -> String {
        if let wanted, !Identifier.isValid(wanted) { throw CommandError(.dataError, "id: expected 1-64 letters, digits, - or _, got '\(wanted)'") }
        var loaded: (template: Template, assets: [AssetImport])?
        if let template {
            guard Identifier.isValid(template), Templates.builtinNames().contains(template) else {
                let names = Templates.builtinNames()
                throw CommandError(
                    .noInput, "template: no built-in template '\(template)'; templates: " + (names.isEmpty ? "(none found)" : names.joined(separator: ", ")))
            }
            let quiet = CommandIO(out: { _ in }, err: { _ in })
            loaded = try PageAddCommand.loadTemplate(Arg(token: ArgumentToken(index: 0, text: template), name: "template"), io: quiet)
        }
        return try store.transaction(description: "page add", importing: loaded?.assets ?? []) { journal, pages in
            let id = wanted ?? journal.nextPageID()
            if pages[id] != nil { throw CommandError(.dataError, "id: page '\(id)' already exists") }
            var position = journal.pageOrder.count
            if let after {
                guard let i = journal.pageOrder.firstIndex(of: after) else {
                    throw CommandError(.noInput, "after: no page '\(after)'; pages: \(journal.pageOrder.joined(separator: ", "))")
                }
                position = i + 1
            }
            let last = journal.pageOrder.last.flatMap { pages[$0] }
            var page: Page
            do {
                if let t = loaded?.template {
                    page = try Page(
                        id: id, size: t.size ?? last?.size, dpi: t.dpi ?? last?.dpi ?? Page.defaultDPI,
                        background: t.background ?? last?.background ?? Background(), margin: last?.margin ?? 0,
                        slots: t.slots, elements: t.elements)
                } else {
                    page = try Page(
                        id: id, size: last?.size, dpi: last?.dpi ?? Page.defaultDPI,
                        background: last?.background ?? Background(), margin: last?.margin ?? 0)
                }
            } catch {
                throw CommandError(.dataError, "template: \(error)")
            }
            journal.pageOrder.insert(id, at: position)
            pages[id] = page
            return id
        }
    }

    /// Removes page `id`; a journal keeps at least one page. One history step.
    public static func removePage(_ id: String, from store: JournalStore) throws {
        try store.transaction(description: "page rm \(id)") { journal, pages in
            try removePage(id, journal: &journal, pages: &pages)
        }
    }

    static func removePage(_ id: String, journal: inout Journal, pages: inout PageSet) throws {
        guard pages[id] != nil else { throw noPage(id, journal) }
        guard journal.pageOrder.count > 1 else {
            throw CommandError(.dataError, "'\(id)' is the journal's only page; a journal keeps at least one")
        }
        journal.pageOrder.removeAll { $0 == id }
        pages[id] = nil
    }

    /// Moves page `id` to 0-based position `index` of the page order. One history step.
    public static func movePage(_ id: String, to index: Int, in store: JournalStore) throws {
        try store.transaction(description: "page move \(id)") { journal, pages in
            guard pages[id] != nil else { throw noPage(id, journal) }
            guard (0..<journal.pageOrder.count).contains(index) else {
                throw CommandError(.dataError, "to: expected a position from 0 to \(journal.pageOrder.count - 1), got \(index)")
            }
            journal.pageOrder.removeAll { $0 == id }
            journal.pageOrder.insert(id, at: index)
        }
    }

    static func noPage(_ id: String, _ journal: Journal) -> CommandError {
        CommandError(.noInput, "no page '\(id)'; pages: \(journal.pageOrder.joined(separator: ", "))")
    }

    /// The page as `techo export --scale S` writes it: the same renderer call and PNG settings.
    public static func pngBytes(of page: Page, scale: Double, renderer: PageRenderer) throws -> [UInt8] {
        var seconds = (render: 0.0, encode: 0.0)
        return try pngBytes(of: page, scale: scale, renderer: renderer, seconds: &seconds)
    }

    /// The same, adding the seconds spent rendering and encoding to `seconds`.
    public static func pngBytes(of page: Page, scale: Double, renderer: PageRenderer, seconds: inout (render: Double, encode: Double)) throws -> [UInt8] {
        let t0 = ContinuousClock.now
        let rendered = try renderer.render(page, scale: scale)
        let t1 = ContinuousClock.now
        let bytes = try PNGEncoder.encode(rendered.pixmap, dpi: rendered.dpi, level: ExportSettings().level, name: "page \(page.id)")
        let t2 = ContinuousClock.now
        func s(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
        seconds.render += s(t1 - t0)
        seconds.encode += s(t2 - t1)
        return bytes
    }

    /// The pages as one PDF, as `techo export --format pdf` writes it (each page at its own size).
    public static func pdfBytes(of pages: [Page], title: String, renderer: PageRenderer) throws -> [UInt8] {
        var images: [PDFWriter.PageImage] = []
        for page in pages {
            let rendered = try renderer.render(page, scale: 1)
            images.append(try PDFWriter.pageImage(rendered.pixmap, dpi: rendered.dpi, name: "page \(page.id)"))
        }
        return PDFWriter.document(images, title: title)
    }
}
