// techo stickers list | add | rm, and techo add sticker: sticker packs (docs/stickers.md). The
// packs themselves are TechoEditing's `StickerPacks`; these commands name the arguments at fault.
import Foundation
import TechoEditing
import TechoModel
import TechoRender

/// The environment sticker packs are found with: the process's own.
private var environment: [String: String] { ProcessInfo.processInfo.environment }

extension Arg {
    /// `error` with this argument named in front, unless the message already starts with it.
    func blameUnlessNamed(_ error: EditError) -> EditError {
        error.message.hasPrefix(name) ? EditError(error.kind, "\(name) (argument \(token.index))" + error.message.dropFirst(name.count)) : blame(error)
    }
}

enum StickersListCommand: TechoCommand {
    static let names = ["stickers", "list"]
    static let usage = "stickers list [PACK]"
    static let summary = "list the sticker packs, or the stickers of one pack as PACK/NAME"
    static let discussion = """
        Built-in packs come with techo; your own packs are folders of pictures in
        $XDG_DATA_HOME/techo/stickers/PACK/ (default ~/.local/share/techo/stickers/).
        A sticker is named PACK/NAME in 'techo add sticker', in manifests and in the editor.
        """
    static let options: [OptionSpec] = []

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["PACK"], minimum: 0, command: "stickers list")
        if let packArg = pos.first {
            let pack: StickerPack
            do { pack = try StickerPacks.pack(packArg.text, environment: environment) } catch { throw packArg.blameUnlessNamed(error) }
            for s in pack.stickers { io.out("\(s.ref)\t\(s.ext)\n") }
            return
        }
        let (packs, ignored) = StickerPacks.all(environment: environment)
        for p in packs {
            io.out("\(p.name)\t\(p.stickers.count) sticker\(p.stickers.count == 1 ? "" : "s")\t\(p.builtin ? "built-in" : "yours")\n")
        }
        for name in ignored {
            io.err(
                "techo: warning: \(StickerPacks.userFolder(environment: environment).appendingPathComponent(name).path) is not read: '\(name)' is a built-in pack's name\n"
            )
        }
    }
}

enum StickersAddCommand: TechoCommand {
    static let names = ["stickers", "add"]
    static let usage = "stickers add PACK FILE... [--replace]"
    static let summary = "copy pictures into your sticker pack PACK (made when missing), each named after its file"
    static let discussion = """
        Each file is checked like any picture techo adds (PNG, JPEG, HEIC, AVIF, WebP or SVG, told
        by its bytes) before any is copied. A sticker's name is the file's name without its
        extension, lowercased, spaces and underscores as '-': 'Tea Cup.png' becomes tea-cup.
        Names are 1-40 of a-z, 0-9 and '-'. A built-in pack's name cannot be used.
        """
    static let options = [OptionSpec("replace", help: "replace stickers of the same name")]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = args.positionals
        guard let pack = pos.first else { throw UsageError("stickers add: missing PACK; usage: techo stickers add PACK FILE...") }
        guard pos.count > 1 else { throw UsageError("stickers add: missing FILE; usage: techo stickers add PACK FILE...") }
        let packArg = Arg(token: pack, name: "PACK")
        if !StickerPacks.isValidName(pack.text) {
            throw UsageError("PACK (argument \(pack.index)): '\(pack.text)': a pack name \(StickerPacks.nameRule)")
        }
        if StickerPacks.builtinPacks(environment: environment).contains(where: { $0.name == pack.text }) {
            throw UsageError(
                "PACK (argument \(pack.index)): '\(pack.text)' is a built-in pack; put your stickers in a pack of another name (such as my-\(pack.text))")
        }
        let files = pos.dropFirst().map { (given: $0.text, path: io.resolve($0.text)) }
        let added: [String]
        do { added = try StickerPacks.add(files, to: pack.text, replace: args.has("replace"), environment: environment) } catch {
            throw error.message.hasPrefix("PACK") ? packArg.blameUnlessNamed(error) : error
        }
        for name in added { io.out("\(pack.text)/\(name)\n") }
    }
}

enum StickersRemoveCommand: TechoCommand {
    static let names = ["stickers", "rm"]
    static let usage = "stickers rm PACK [NAME]"
    static let summary = "remove one sticker from your pack, or the whole pack"
    static let options: [OptionSpec] = []

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["PACK", "NAME"], minimum: 1, command: "stickers rm")
        let result: (removed: [String], keptFolder: Bool)
        do { result = try StickerPacks.remove(pack: pos[0].text, name: pos.count > 1 ? pos[1].text : nil, environment: environment) } catch {
            throw error.message.hasPrefix("NAME") && pos.count > 1 ? pos[1].blameUnlessNamed(error) : pos[0].blameUnlessNamed(error)
        }
        for r in result.removed { io.out("removed \(r)\n") }
        if result.keptFolder {
            io.err(
                "techo: warning: the pack's folder holds other files and was kept: \(StickerPacks.userFolder(environment: environment).appendingPathComponent(pos[0].text).path)\n"
            )
        }
    }
}

enum AddStickerCommand: TechoCommand {
    static let names = ["add", "sticker"]
    static let usage =
        "add sticker JOURNAL PAGE PACK/NAME [--id ID] [--at X,Y] [--width W|--height H|--scale S] [--rotate DEG] [--flip h|v] [--opacity A] [--outline C,W] [--slot NAME]"
    static let summary = "add a sticker from a sticker pack (see 'techo stickers list'); prints its id"
    static let discussion = """
        The sticker's picture is copied into the journal, so the page renders the same without
        the pack. Placement options are those of 'techo add image'.
        """
    static let options = PlacementOptions.specs + PlacementOptions.sizing.filter { $0.name != "keep-gps" }

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL", "PAGE", "PACK/NAME"], command: "add sticker")
        let ref: StickerRef
        do { ref = try StickerRef(parsing: pos[2].text, what: "PACK/NAME (argument \(pos[2].token.index))") } catch { throw UsageError(error.message) }
        let store = try JournalAccess.open(pos[0], io: io)
        // The page is looked up first, so a wrong PAGE is named as the argument it is.
        let (journal, pages) = try store.read()
        _ = try JournalAccess.page(pos[1], in: pages, journal: journal)
        let id: String
        do {
            id = try StickerPacks.addSticker(
                ref, to: pos[1].text, of: store, renderer: PageRenderer(assetURL: store.assetURL),
                what: "PACK/NAME (argument \(pos[2].token.index))", environment: environment
            ) { image, page in
                var image = image
                image.outline = try PlacementOptions.outline(args.arg("outline"), dpi: page.dpi)
                return try AddPicture.element(args, image: image, page: page, photo: false, command: "add sticker")
            }
        } catch let e as EditError where e.field != nil {
            throw optionRefusal(e)
        }
        io.out("\(id)\n")
    }
}
