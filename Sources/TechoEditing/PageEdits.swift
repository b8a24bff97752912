// The operations on a journal that every front end (the CLI, the manifest builder, the editor's
// server, the library) calls with typed values it decoded from its own input: each rule of a
// change (an ink layer has no transform, a journal keeps one page, a page id is unique, a
// picture is probed before it is stored) is written here once. Errors are `EditError`s whose
// message names the id or value at fault; the front end adds where it came from.
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
    /// The picture's width after its orientation is applied, pixels.
    public var naturalWidth: Double { Double(info.naturalWidth) }
    /// The picture's height after its orientation is applied, pixels.
    public var naturalHeight: Double { Double(info.naturalHeight) }
}

/// Where `restack` moves an element.
public enum StackTarget: Sendable, Equatable {
    /// Up (positive) or down (negative) by this many places, clamped to the stack.
    case by(Int)
    case top
    case bottom
}

/// What `clear` removes.
public enum ClearScope: String, Sendable, CaseIterable {
    /// Every ink layer.
    case ink
    /// Every element.
    case all
}

public enum PageEdits {
    // MARK: Finding things

    /// Page `id` of a journal being changed, or `.notFound` listing the pages there are.
    public static func page(_ id: String, in pages: PageSet, journal: Journal) throws(EditError) -> Page {
        guard let p = pages[id] else { throw noPage(id, journal) }
        return p
    }

    /// The index of element `id` on `page`, or `.notFound` listing the ids there are.
    public static func elementIndex(_ id: String, on page: Page) throws(EditError) -> Int {
        guard let i = page.index(of: id) else {
            let ids = page.elements.map(\.id)
            throw EditError(
                .notFound, "no element '\(id)' on page \(page.id)" + (ids.isEmpty ? " (the page is empty)" : "; elements: \(ids.joined(separator: ", "))"))
        }
        return i
    }

    static func noPage(_ id: String, _ journal: Journal) -> EditError {
        EditError(.notFound, "no page '\(id)'; pages: \(journal.pageOrder.joined(separator: ", "))")
    }

    /// Runs `body` on page `id` as one history step named `description`, with the assets in
    /// `importing`. Nothing is written when `body` throws or changes nothing. Every error comes
    /// out as an `EditError`.
    @discardableResult
    public static func editPage<R>(
        _ id: String, of store: JournalStore, description: String, importing: [AssetImport] = [],
        _ body: (inout Page) throws -> R
    ) throws(EditError) -> R {
        try EditError.wrapping {
            try store.transaction(description: description, importing: importing) { journal, pages in
                var page = try PageEdits.page(id, in: pages, journal: journal)
                let before = page
                let result = try body(&page)
                try PageEdits.check(page, was: before)
                pages[page.id] = page
                return result
            }
        }
    }

    /// The rules every page that is written passes, whoever changed it (a command, the
    /// editor, the library, a manifest): no more elements than the limit, each text whose
    /// font changed names an installed family or an imported font file, and each text laid out
    /// anew fits the page limit (`TextRules`). `before` is the page as
    /// it was (nil for a new one), so an unchanged text is not looked up again.
    public static func check(_ page: Page, was before: Page?) throws(EditError) {
        try EditError.wrapping { try page.checkElementCount(file: "pages/\(page.id).json", limits: .default) }
        try FontRules.checkChangedTexts(page, was: before)
        try TextRules.checkChangedTexts(page, was: before)
    }

    // MARK: Pictures

    /// Checks that `bytes` are an image techo reads (by its bytes) within the image limits and
    /// usable end to end (`ImageProbe`, so a file corrupt past its header is refused now, not at
    /// export), and removes GPS data from a JPEG, HEIF or AVIF unless `keepGPS`. `name` is what
    /// errors call the file.
    public static func preparePicture(_ bytes: [UInt8], name: String, keepGPS: Bool = false) throws(EditError) -> PreparedPicture {
        guard bytes.count <= ImageLimits.default.maxFileBytes else {
            throw EditError(.tooLarge, "\(name): \(bytes.count) bytes is over the \(ImageLimits.default.maxFileBytes)-byte limit for an image file")
        }
        return try EditError.wrapping {
            let info = try ImageProbe.check(bytes, name: name)
            var stored = bytes
            if !keepGPS { stored = try ImageMetadata.removingGPS(stored, format: info.format, file: name) }
            return PreparedPicture(asset: try AssetImport(bytes: stored, ext: info.format.fileExtension), info: info)
        }
    }

    // MARK: Elements

    /// Applies `gestures` to element `id` as one change (all or nothing). An ink layer has no
    /// transform: this is the one place that says so. `label` names gesture `n` in an error
    /// (`--pinch`, `events[3]`); by default `gesture n+1`.
    public static func move(
        _ id: String, on page: inout Page, by gestures: [Gesture], label: (Int, Gesture) -> String = { n, _ in "gesture \(n + 1)" }
    ) throws(EditError) {
        let i = try elementIndex(id, on: page)
        guard page.elements[i].kind != .ink else { throw inkHasNoTransform(id) }
        guard !page.elements[i].locked else { throw isLocked(id) }
        var placement = page.elements[i].placement
        for (n, g) in gestures.enumerated() {
            do { try placement.apply(g) } catch { throw EditError(.invalid, "\(label(n, g)): refused, nothing changed: \(error)") }
        }
        page.elements[i].placement = placement
    }

    /// The refusal of a gesture on a locked element (`.conflict`: it fits once unlocked).
    public static func isLocked(_ id: String) -> EditError {
        EditError(.conflict, "'\(id)' is locked; no gesture moves it (unlock it first: techo set --unlock, or the layers list)")
    }

    /// The refusal of anything that would move, scale, turn or flip an ink layer.
    public static func inkHasNoTransform(_ id: String) -> EditError {
        EditError(.invalid, "'\(id)' is an ink layer; ink has no transform to move, scale, turn or flip")
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

    /// Whether a restack moves the element up (a `raise`) or down (a `lower`).
    public static func isRaise(_ target: StackTarget) -> Bool {
        switch target {
        case .by(let n): return n > 0
        case .top: return true
        case .bottom: return false
        }
    }

    /// Removes the elements `ids` from the page; each must be there.
    public static func remove(_ ids: [String], from page: inout Page) throws(EditError) {
        for id in ids { page.elements.remove(at: try elementIndex(id, on: page)) }
    }

    /// Removes the page's ink layers, or every element.
    public static func clear(_ scope: ClearScope, on page: inout Page) {
        switch scope {
        case .all: page.elements.removeAll()
        case .ink: page.elements.removeAll { $0.kind == .ink }
        }
    }

    /// The history step's name for `clear`.
    public static func description(of scope: ClearScope) -> String { "clear \(scope.rawValue)" }

    // MARK: Pages

    /// Adds a page `id` (default the next `p<n>`) after page `after` (default at the end), as one
    /// history step, and returns its id. It takes the size, dpi and background of `template` when
    /// given, else of the journal's last page; `adjust` then changes those (the CLI's --size,
    /// --dpi, --background); then the template's slots and decorations are put on it.
    @discardableResult
    public static func addPage(
        to store: JournalStore, id wanted: String? = nil, after: String? = nil,
        template loaded: (template: Template, assets: [AssetImport])? = nil,
        adjust: ((Page) throws -> Page)? = nil
    ) throws(EditError) -> String {
        if let wanted, !Identifier.isValid(wanted) { throw EditError(.invalid, "id: expected 1-64 letters, digits, - or _, got '\(wanted)'") }
        return try EditError.wrapping {
            try store.transaction(description: "page add", importing: loaded?.assets ?? []) { journal, pages in
                let id = wanted ?? journal.nextPageID()
                if pages[id] != nil { throw EditError(.invalid, "id: page '\(id)' already exists") }
                var position = journal.pageOrder.count
                if let after {
                    guard let i = journal.pageOrder.firstIndex(of: after) else {
                        throw EditError(.notFound, "after: no page '\(after)'; pages: \(journal.pageOrder.joined(separator: ", "))")
                    }
                    position = i + 1
                }
                let last = journal.pageOrder.last.flatMap { pages[$0] }
                let t = loaded?.template
                var page: Page
                do {
                    page = try Page(
                        id: id, size: t?.size ?? last?.size, dpi: t?.dpi ?? last?.dpi ?? Page.defaultDPI,
                        background: t?.background ?? last?.background ?? Background(), margin: last?.margin ?? 0)
                } catch {
                    throw EditError(.invalid, "template: \(error)")
                }
                if let adjust { page = try adjust(page) }
                if let t {
                    do {
                        page = try Page(
                            id: page.id, size: page.size, dpi: page.dpi, background: page.background, margin: page.margin,
                            slots: t.slots, elements: t.elements)
                    } catch {
                        throw EditError(.invalid, "template: \(error)")
                    }
                }
                journal.pageOrder.insert(id, at: position)
                pages[id] = page
                return id
            }
        }
    }

    /// `addPage` from the built-in template `template` (a name, never a path: the editor and
    /// the library offer only the built-in ones).
    @discardableResult
    public static func addPage(to store: JournalStore, id: String? = nil, after: String? = nil, builtinTemplate template: String?) throws(EditError) -> String {
        var loaded: (template: Template, assets: [AssetImport])?
        if let template {
            guard Identifier.isValid(template), Templates.builtinNames().contains(template) else {
                let names = Templates.builtinNames()
                throw EditError(
                    .notFound, "template: no built-in template '\(template)'; templates: " + (names.isEmpty ? "(none found)" : names.joined(separator: ", ")))
            }
            loaded = try Templates.load(template, relativeTo: URL(fileURLWithPath: "/"))
        }
        return try addPage(to: store, id: id, after: after, template: loaded)
    }

    /// Removes page `id`; a journal keeps at least one page. One history step.
    public static func removePage(_ id: String, from store: JournalStore) throws(EditError) {
        try EditError.wrapping {
            try store.transaction(description: "page rm \(id)") { journal, pages in
                guard pages[id] != nil else { throw noPage(id, journal) }
                guard journal.pageOrder.count > 1 else {
                    throw EditError(.invalid, "'\(id)' is the journal's only page; a journal keeps at least one")
                }
                journal.pageOrder.removeAll { $0 == id }
                pages[id] = nil
            }
        }
    }

    /// Moves page `id` to 0-based position `index` of the page order. One history step.
    public static func movePage(_ id: String, to index: Int, in store: JournalStore) throws(EditError) {
        try EditError.wrapping {
            try store.transaction(description: "page move \(id)") { journal, pages in
                guard pages[id] != nil else { throw noPage(id, journal) }
                guard (0..<journal.pageOrder.count).contains(index) else {
                    throw EditError(.invalid, "to: expected a position from 0 to \(journal.pageOrder.count - 1), got \(index)")
                }
                journal.pageOrder.removeAll { $0 == id }
                journal.pageOrder.insert(id, at: index)
            }
        }
    }

    // MARK: History

    /// Undoes (or redoes) the last step; `.conflict` when there is none.
    public static func undo(_ store: JournalStore, redo: Bool = false) throws(EditError) -> HistoryEntry {
        let step = try EditError.wrapping { try redo ? store.redo() : store.undo() }
        guard let step else { throw EditError(.conflict, redo ? "nothing to redo" : "nothing to undo") }
        return step
    }
}
