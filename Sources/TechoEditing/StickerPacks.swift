// Sticker packs (docs/stickers.md): techo's built-in packs (Resources/stickers/PACK/NAME.svg, built
// into the binary) and a user's own packs, folders of pictures in $XDG_DATA_HOME/techo/stickers/.
// A sticker is named `PACK/NAME` everywhere (the CLI, manifests, the editor's tray); adding one
// to a page copies its bytes into the journal like any picture, so the journal never needs the
// pack again.
import Foundation
import TechoCodecs
import TechoExport
import TechoModel
import TechoRender
import TechoResources

/// A sticker's name: `PACK/NAME`, each part 1-40 of `a-z`, `0-9` and `-`, starting with a letter
/// or digit.
public struct StickerRef: Hashable, Sendable, CustomStringConvertible {
    public let pack: String
    public let name: String

    /// Parses `PACK/NAME`; the error names `what` (`PACK/NAME (argument 3)`, `sticker`).
    public init(parsing text: String, what: String = "sticker") throws(EditError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else {
            throw EditError(.invalid, "\(what): expected PACK/NAME such as flowers/daisy, got '\(StickerPacks.shown(text))'")
        }
        for (part, label) in [(parts[0], "pack"), (parts[1], "name")] where !StickerPacks.isValidName(part) {
            throw EditError(.invalid, "\(what): '\(StickerPacks.shown(text))': the \(label) \(StickerPacks.nameRule)")
        }
        pack = parts[0]
        name = parts[1]
    }

    public var description: String { "\(pack)/\(name)" }
}

/// One sticker of a pack.
public struct Sticker: Sendable {
    public let ref: StickerRef
    /// The file's extension (`svg`, `png`, …), as the pack stores it.
    public let ext: String
    /// True for a built-in sticker.
    public let builtin: Bool
}

/// One pack: its name, whether techo ships it, and its stickers sorted by name.
public struct StickerPack: Sendable {
    public let name: String
    public let builtin: Bool
    public let stickers: [Sticker]
}

/// Finding, reading, adding and removing stickers.
public enum StickerPacks {
    /// The rule every pack and sticker name follows, as messages say it.
    public static let nameRule = "must be 1-40 of a-z, 0-9 and -, starting with a letter or digit"
    /// The largest sticker file a pack takes: 32 MiB (a sticker is kilobytes to a few megabytes).
    public static let maxFileBytes = 32 << 20
    /// The most stickers one pack holds.
    public static let maxStickersPerPack = 1000
    /// The most user packs read.
    public static let maxPacks = 200
    /// File extensions a pack's pictures may have (what techo reads).
    static let extensions: Set<String> = ["svg", "png", "jpg", "jpeg", "webp", "heic", "heif", "avif"]

    /// Whether `s` is a valid pack or sticker name.
    public static func isValidName(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard (1...40).contains(u.count) else { return false }
        func ok(_ c: UInt8) -> Bool { (c >= 97 && c <= 122) || (c >= 48 && c <= 57) }
        return ok(u[0]) && u.allSatisfy { ok($0) || $0 == 45 }
    }

    /// The sticker name a file's name gives: its base name without the extension, lowercased,
    /// with spaces and underscores as `-` (`Tea Cup.PNG` → `tea-cup`); nil when that is no valid name.
    public static func name(fromFile file: String) -> String? {
        let base = (file as NSString).lastPathComponent
        let stem = (base as NSString).deletingPathExtension
        let name = String(stem.lowercased().map { $0 == " " || $0 == "_" ? "-" : $0 })
        return isValidName(name) ? name : nil
    }

    /// Text from the user, shortened and without control characters, for a message.
    static func shown(_ s: String) -> String {
        let clean = String(s.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7f }.map(Character.init))
        return clean.count > 80 ? String(clean.prefix(80)) + "…" : clean
    }

    // MARK: Where packs are

    /// The user's packs: `$XDG_DATA_HOME/techo/stickers` (an absolute `XDG_DATA_HOME` only, as
    /// the XDG base directory rules say), else `~/.local/share/techo/stickers`.
    public static func userFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("techo/stickers", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/techo/stickers", isDirectory: true)
    }

    /// The built-in packs' folder on disk when `$TECHO_RESOURCES/stickers` exists (for working on
    /// them), else nil: the copy built into techo.
    static func builtinOverride(_ environment: [String: String]) -> URL? {
        BuiltinResources.overrideFolder("stickers", environment: environment)
    }

    /// The built-in packs, sorted by name.
    public static func builtinPacks(environment: [String: String] = ProcessInfo.processInfo.environment) -> [StickerPack] {
        var files: [String]
        if let dir = builtinOverride(environment) {
            files = []
            for pack in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] where isValidName(pack) {
                for f in (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent(pack).path)) ?? [] {
                    files.append(pack + "/" + f)
                }
            }
        } else {
            files = BuiltinResources.names(in: "stickers")
        }
        var byPack: [String: [Sticker]] = [:]
        for path in files {
            let parts = path.split(separator: "/").map(String.init)
            guard parts.count == 2, isValidName(parts[0]) else { continue }
            let ext = (parts[1] as NSString).pathExtension.lowercased()
            let stem = (parts[1] as NSString).deletingPathExtension
            guard extensions.contains(ext), isValidName(stem), let ref = try? StickerRef(parsing: parts[0] + "/" + stem) else { continue }
            byPack[parts[0], default: []].append(Sticker(ref: ref, ext: ext, builtin: true))
        }
        return byPack.sorted { $0.key < $1.key }.map { StickerPack(name: $0.key, builtin: true, stickers: $0.value.sorted { $0.ref.name < $1.ref.name }) }
    }

    /// The user's pack at `folder`: its pictures with valid names, sorted (a second file of the same
    /// name is left out).
    static func userPack(_ name: String, folder: URL) -> StickerPack {
        var seen = Set<String>()
        var stickers: [Sticker] = []
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        for f in files {
            let ext = (f as NSString).pathExtension.lowercased()
            let stem = (f as NSString).deletingPathExtension
            guard extensions.contains(ext), isValidName(stem), !seen.contains(stem) else { continue }
            var st = stat()
            guard stat(folder.appendingPathComponent(f).path, &st) == 0, st.st_mode & S_IFMT == S_IFREG,
                let ref = try? StickerRef(parsing: name + "/" + stem)
            else { continue }
            seen.insert(stem)
            stickers.append(Sticker(ref: ref, ext: ext, builtin: false))
            if stickers.count == maxStickersPerPack { break }
        }
        return StickerPack(name: name, builtin: false, stickers: stickers)
    }

    /// Every pack: the built-in ones, then the user's (a user folder with a built-in pack's name
    /// is not read; `ignored` lists such folders).
    public static func all(environment: [String: String] = ProcessInfo.processInfo.environment) -> (packs: [StickerPack], ignored: [String]) {
        let builtin = builtinPacks(environment: environment)
        let taken = Set(builtin.map(\.name))
        let root = userFolder(environment: environment)
        var user: [StickerPack] = []
        var ignored: [String] = []
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        for name in names where isValidName(name) {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &isDir), isDir.boolValue else { continue }
            if taken.contains(name) { ignored.append(name); continue }
            user.append(userPack(name, folder: root.appendingPathComponent(name)))
            if user.count == maxPacks { break }
        }
        return (builtin + user, ignored)
    }

    /// The pack named `name`, or an error listing the packs there are.
    public static func pack(_ name: String, what: String = "PACK", environment: [String: String] = ProcessInfo.processInfo.environment) throws(EditError)
        -> StickerPack
    {
        guard isValidName(name) else { throw EditError(.invalid, "\(what): '\(shown(name))': a pack name \(nameRule)") }
        let packs = all(environment: environment).packs
        guard let p = packs.first(where: { $0.name == name }) else {
            throw EditError(.notFound, "\(what): no sticker pack '\(name)'; packs: \(packs.map(\.name).joined(separator: ", "))")
        }
        return p
    }

    // MARK: Reading a sticker

    /// The bytes of sticker `ref`, read from the built-in copy or the user's pack.
    /// The error names `what` and lists the pack's stickers when the name is unknown.
    public static func bytes(of ref: StickerRef, what: String = "sticker", environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(EditError) -> (bytes: [UInt8], ext: String)
    {
        let pack = try pack(ref.pack, what: what, environment: environment)
        guard let sticker = pack.stickers.first(where: { $0.ref.name == ref.name }) else {
            let names = pack.stickers.map(\.ref.name)
            let listed = names.prefix(40).joined(separator: ", ") + (names.count > 40 ? ", …" : "")
            throw EditError(.notFound, "\(what): pack '\(ref.pack)' has no sticker '\(ref.name)'; it has: \(names.isEmpty ? "(none)" : listed)")
        }
        let file = "\(ref.name).\(sticker.ext)"
        if pack.builtin {
            if let dir = builtinOverride(environment) {
                let url = dir.appendingPathComponent(ref.pack).appendingPathComponent(file)
                return (try InputFile.read("\(ref)", path: url.path, limit: maxFileBytes), sticker.ext)
            }
            guard let bytes = BuiltinResources.file("stickers/\(ref.pack)/\(file)") else {
                throw EditError(.notFound, "\(what): built-in sticker '\(ref)' is missing from this techo")
            }
            return (bytes, sticker.ext)
        }
        let url = userFolder(environment: environment).appendingPathComponent(ref.pack).appendingPathComponent(file)
        do { return (try InputFile.read(url.path, path: url.path, limit: maxFileBytes), sticker.ext) } catch {
            throw EditError(error.kind, "\(what): sticker '\(ref)': \(error.message)")
        }
    }

    /// Sticker `ref` ready to import into a journal: probed like any picture (GPS data removed).
    public static func prepare(_ ref: StickerRef, what: String = "sticker", environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(EditError) -> PreparedPicture
    {
        let (bytes, _) = try bytes(of: ref, what: what, environment: environment)
        do { return try PageEdits.preparePicture(bytes, name: "\(ref)") } catch {
            throw EditError(error.kind, "\(what): sticker '\(ref)': \(error.message)")
        }
    }

    // MARK: Changing the user's packs

    /// Copies picture files into the user's pack `pack` (made when missing), each named after its
    /// file and stored under the extension its bytes say. Every file is read and probed before
    /// any is copied; each copy appears whole (a temp file renamed into place). A name the pack
    /// has already is refused unless `replace`. Returns the names added, in order.
    /// `files` are (the name the user gave, its absolute path).
    public static func add(
        _ files: [(given: String, path: String)], to pack: String, replace: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(EditError) -> [String] {
        guard isValidName(pack) else { throw EditError(.invalid, "PACK: '\(shown(pack))': a pack name \(nameRule)") }
        if builtinPacks(environment: environment).contains(where: { $0.name == pack }) {
            throw EditError(.conflict, "PACK: '\(pack)' is a built-in pack; put your stickers in a pack of another name (such as my-\(pack))")
        }
        let folder = userFolder(environment: environment).appendingPathComponent(pack, isDirectory: true)
        let existing = userPack(pack, folder: folder)
        var names = Set<String>()
        var ready: [(name: String, ext: String, bytes: [UInt8])] = []
        for f in files {
            guard let name = name(fromFile: f.given) else {
                throw EditError(.invalid, "\(shown(f.given)): no sticker name can be made of this file's name: a name \(nameRule); rename the file")
            }
            guard names.insert(name).inserted else { throw EditError(.invalid, "\(shown(f.given)): two files would both be named '\(name)'") }
            if !replace, existing.stickers.contains(where: { $0.ref.name == name }) {
                throw EditError(.conflict, "\(shown(f.given)): pack '\(pack)' already has a sticker '\(name)' (give --replace to replace it)")
            }
            let bytes = try InputFile.read(shown(f.given), path: f.path, limit: maxFileBytes)
            let info: ImageInfo
            do { info = try ImageProbe.check(bytes, name: shown(f.given)) } catch { throw EditError(from: error) }
            ready.append((name, info.format.fileExtension, bytes))
        }
        guard existing.stickers.count - ready.filter({ r in existing.stickers.contains { $0.ref.name == r.name } }).count + ready.count <= maxStickersPerPack
        else {
            throw EditError(.tooLarge, "PACK: pack '\(pack)' would hold more than \(maxStickersPerPack) stickers")
        }
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw EditError(.cannotCreate, "\(folder.path): cannot create the pack's folder: \(error.localizedDescription)")
        }
        var staged: [StagedFile] = []
        do {
            for r in ready { staged.append(try StagedFile.stage(r.bytes, as: folder.appendingPathComponent("\(r.name).\(r.ext)"))) }
            try StagedFile.commit(staged)
        } catch {
            StagedFile.discard(staged)
            throw EditError(.cannotCreate, "\(folder.path): \(error)")
        }
        // A replaced sticker stored under another extension leaves no older file to shadow it.
        for r in ready {
            for old in existing.stickers where old.ref.name == r.name && old.ext != r.ext {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent("\(r.name).\(old.ext)"))
            }
        }
        return ready.map(\.name)
    }

    /// Removes sticker `name` from the user's pack `pack`, or, without a name, every sticker of
    /// the pack and then its folder (a folder still holding other files is kept and said so).
    /// Returns what was removed, as `PACK/NAME`.
    public static func remove(pack: String, name: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws(EditError)
        -> (removed: [String], keptFolder: Bool)
    {
        let p = try self.pack(pack, environment: environment)
        if p.builtin { throw EditError(.conflict, "PACK: '\(pack)' is a built-in pack; built-in stickers cannot be removed") }
        let folder = userFolder(environment: environment).appendingPathComponent(pack, isDirectory: true)
        var doomed = p.stickers
        if let name {
            guard isValidName(name) else { throw EditError(.invalid, "NAME: '\(shown(name))': a sticker name \(nameRule)") }
            doomed = p.stickers.filter { $0.ref.name == name }
            guard !doomed.isEmpty else {
                throw EditError(.notFound, "NAME: pack '\(pack)' has no sticker '\(name)'; it has: \(p.stickers.map(\.ref.name).joined(separator: ", "))")
            }
        }
        for s in doomed {
            let url = folder.appendingPathComponent("\(s.ref.name).\(s.ext)")
            guard unlink(url.path) == 0 || errno == ENOENT else {
                throw EditError(.failure, "\(url.path): cannot remove: \(String(cString: strerror(errno)))")
            }
        }
        var kept = false
        if name == nil { kept = rmdir(folder.path) != 0 }
        return (doomed.map { "\($0.ref)" }, kept)
    }
}

extension StickerPacks {
    /// Adds sticker `ref` to page `pageID` as one history step (`add sticker PACK/NAME`), the one
    /// operation `techo add sticker` and the editor's tray both call: the sticker is read and
    /// probed like any picture, its bytes are copied into the journal, and `element` makes the
    /// new element of its image content on the page. Returns the new element's id.
    public static func addSticker(
        _ ref: StickerRef, to pageID: String, of store: JournalStore, renderer: PageRenderer, what: String = "sticker",
        environment: [String: String] = ProcessInfo.processInfo.environment,
        element: (ImageContent, Page) throws -> NewElement
    ) throws -> String {
        let picture = try prepare(ref, what: what, environment: environment)
        // `element`'s own errors (a front end's refusals of its options) pass through as they are.
        return try store.transaction(description: "add sticker \(ref)", importing: [picture.asset]) { journal, pages in
            var page = try PageEdits.page(pageID, in: pages, journal: journal)
            let before = page
            let image = try ImageContent(asset: picture.asset.ref, naturalWidth: picture.naturalWidth, naturalHeight: picture.naturalHeight)
            let id = try PageEdits.add(try element(image, page), to: &page, renderer: renderer)
            try PageEdits.check(page, was: before)
            pages[page.id] = page
            return id
        }
    }
}
