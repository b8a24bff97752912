// Opening journals, finding pages and elements, and importing image files: the steps most
// commands share, with errors that name the argument at fault.
import Foundation
import TechoCodecs
import TechoEditing
import TechoModel

enum JournalAccess {
    /// The journal named by a JOURNAL argument.
    static func open(_ arg: Arg, io: CommandIO) throws -> JournalStore {
        let url = URL(fileURLWithPath: io.resolve(arg.text))
        do {
            let store = try JournalStore.open(url)
            io.keepUntilExit(store)
            return store
        } catch let e as StorageError {
            throw blame(e, arg: arg, url: url)
        }
    }

    /// The journal named by a JOURNAL argument and a consistent snapshot of it, read without
    /// writing into it (no lock file either: `JournalStore.readSnapshot`), for commands that
    /// only read, so a journal on a read-only volume or folder reads as any other.
    static func snapshot(_ arg: Arg, io: CommandIO) throws -> (store: JournalStore, journal: Journal, pages: PageSet) {
        let url = URL(fileURLWithPath: io.resolve(arg.text))
        do {
            let store = try JournalStore.openForReading(url)
            let (journal, pages) = try store.readSnapshot()
            // Read once: the files' bytes the store holds to compare later reads are not needed.
            store.forgetHeldFiles()
            io.keepUntilExit(store)
            return (store, journal, pages)
        } catch let e as StorageError {
            throw blame(e, arg: arg, url: url)
        }
    }

    /// A storage error as the error of the JOURNAL argument.
    private static func blame(_ e: StorageError, arg: Arg, url: URL) -> EditError {
        let missing = !FileManager.default.fileExists(atPath: url.path)
        // Name the file inside the bundle at fault (`pages/p1.json`), not only the bundle.
        let inside = e.path.hasPrefix("/") || e.path.isEmpty ? "" : "\(e.path): "
        return EditError(missing ? .notFound : .invalid, "\(arg.text): \(missing ? "no such journal" : inside + e.message)")
    }

    /// The page `id` of the journal, or an error listing the pages there are.
    static func page(_ arg: Arg, in pages: PageSet, journal: Journal) throws -> Page {
        do { return try PageEdits.page(arg.text, in: pages, journal: journal) } catch { throw arg.blame(error) }
    }

    /// The index of element `id` on `page`, or an error listing the ids there are.
    static func elementIndex(_ arg: Arg, on page: Page) throws -> Int {
        do { return try PageEdits.elementIndex(arg.text, on: page) } catch { throw arg.blame(error) }
    }

    /// Whether `arg` names a stroke (true) or an element (false) of `page`; an error naming
    /// `arg` when it is neither.
    static func isStroke(_ arg: Arg, on page: Page) throws -> Bool {
        if page.index(of: arg.text) != nil { return false }
        do { _ = try PageEdits.strokeLocation(arg.text, on: page) } catch { throw arg.blame(error) }
        return true
    }

    /// Reads an image file given on the command line, checks it is an image techo reads (PNG,
    /// JPEG, HEIF, AVIF, WebP or SVG, told by its bytes, not its name) within the limits,
    /// removes GPS data from JPEG, HEIF and AVIF files unless `keepGPS`, and returns the asset
    /// to import (hashed once, stored under the extension of what the bytes are) with the
    /// image's natural size.
    static func readImage(_ arg: Arg, io: CommandIO, keepGPS: Bool) throws -> (asset: AssetImport, info: ImageInfo) {
        let path = io.resolve(arg.text)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw EditError(.notFound, "\(arg.text): no such file")
        }
        guard !isDir.boolValue else { throw EditError(.notFound, "\(arg.text): is a folder, not an image file") }
        let bytes = try FileBytes.contents(of: path, name: arg.text, maxBytes: ImageLimits.default.maxFileBytes)
        let picture = try PageEdits.preparePicture(bytes, name: arg.text, keepGPS: keepGPS)
        return (picture.asset, picture.info)
    }
}

extension JournalAccess {
    /// Runs `body` on the page named by `pageArg` as one history step named `description`, and
    /// saves the page it leaves behind, with the assets in `importing`. Nothing is written when
    /// `body` throws or changes nothing.
    static func editPage<R>(
        _ pageArg: Arg, of store: JournalStore, description: String, importing: [AssetImport] = [],
        _ body: (inout Page) throws -> R
    ) throws -> R {
        try store.transaction(description: description, importing: importing) { journal, pages in
            var page = try JournalAccess.page(pageArg, in: pages, journal: journal)
            let before = page
            let result = try body(&page)
            try PageEdits.check(page, was: before)
            pages[page.id] = page
            return result
        }
    }
}

extension Arg {
    /// `error` with this argument named in front of its message (`PAGE (argument 2): …`).
    func blame(_ error: EditError) -> EditError { EditError(error.kind, "\(name) (argument \(token.index)): \(error.message)") }
}

extension InputFile {
    /// The bytes of the file `arg` names, relative to the command's folder.
    static func read(_ arg: Arg, io: CommandIO, limit: Int) throws -> [UInt8] {
        try read(arg.text, path: io.resolve(arg.text), limit: limit)
    }
}
