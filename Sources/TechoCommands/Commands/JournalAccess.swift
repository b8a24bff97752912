// Opening journals, finding pages and elements, and importing image files: the steps most
// commands share, with errors that name the argument at fault.
import Foundation
import TechoCodecs
import TechoModel

enum JournalAccess {
    /// The journal named by a JOURNAL argument.
    static func open(_ arg: Arg, io: CommandIO) throws -> JournalStore {
        let url = URL(fileURLWithPath: io.resolve(arg.text))
        do {
            return try JournalStore.open(url)
        } catch let e as StorageError {
            let missing = !FileManager.default.fileExists(atPath: url.path)
            // Name the file inside the bundle at fault (`pages/p1.json`), not only the bundle.
            let inside = e.path.hasPrefix("/") || e.path.isEmpty ? "" : "\(e.path): "
            throw CommandError(missing ? .noInput : .dataError, "\(arg.text): \(missing ? "no such journal" : inside + e.message)")
        }
    }

    /// The page `id` of the journal, or an error listing the pages there are.
    static func page(_ arg: Arg, in pages: PageSet, journal: Journal) throws -> Page {
        guard let page = pages[arg.text] else {
            throw CommandError(
                .noInput, "\(arg.name) (argument \(arg.token.index)): no page '\(arg.text)'; pages: \(journal.pageOrder.joined(separator: ", "))")
        }
        return page
    }

    /// The index of element `id` on `page`, or an error listing the ids there are.
    static func elementIndex(_ arg: Arg, on page: Page) throws -> Int {
        guard let i = page.index(of: arg.text) else {
            let ids = page.elements.map(\.id)
            throw CommandError(
                .noInput,
                "\(arg.name) (argument \(arg.token.index)): no element '\(arg.text)' on page \(page.id)"
                    + (ids.isEmpty ? " (the page is empty)" : "; elements: \(ids.joined(separator: ", "))"))
        }
        return i
    }

    /// The header of an image, after probing all of it (`ImageProbe`: no full decode), so a
    /// file that is corrupt past its header (a bad CRC, a truncated or damaged stream) is refused
    /// when it is imported instead of when a page using it is exported.
    static func verifiedInfo(_ bytes: [UInt8], name: String) throws -> ImageInfo {
        try ImageProbe.check(bytes, name: name)
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
            throw CommandError(.noInput, "\(arg.text): no such file")
        }
        guard !isDir.boolValue else { throw CommandError(.noInput, "\(arg.text): is a folder, not an image file") }
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
            let result = try body(&page)
            pages[page.id] = page
            return result
        }
    }
}
