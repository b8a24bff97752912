// techo show | check | fonts: look at a journal, verify it, list fonts.
import Foundation
import TechoCodecs
import TechoEditing
import TechoModel
import TechoRender
import TechoText

enum ShowCommand: TechoCommand {
    static let names = ["show"]
    static let usage = "show JOURNAL [PAGE [ID]] [--json]"
    static let summary = "describe a journal, a page or one element"
    static let options = [OptionSpec("json", help: "machine-readable output (the page file's own JSON format)")]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL", "PAGE", "ID"], minimum: 1, command: "show")
        let store = try JournalAccess.open(pos[0], io: io)
        let (journal, pages) = try store.read()
        let renderer = PageRenderer(assetURL: store.assetURL)
        let json = args.has("json")
        func emit(_ v: JSONValue) { io.out(String(decoding: v.serializedBytes(), as: UTF8.self)) }
        guard pos.count > 1 else {
            if json {
                var j = journal.json
                if case .object(var o) = j {
                    o["pages"] = .array(try journal.pageOrder.compactMap { id in try pages[id].map { try pageSummary($0, renderer) } })
                    j = .object(o)
                }
                return emit(j)
            }
            io.out("\(journal.title.isEmpty ? pos[0].text : journal.title): \(journal.pageOrder.count) page\(journal.pageOrder.count == 1 ? "" : "s")\n")
            for id in journal.pageOrder {
                guard let p = pages[id] else { continue }
                let (w, h) = try renderer.resolvedSize(of: p)
                io.out(
                    "  \(id)\t\(fmt(w))x\(fmt(h)) px @ \(fmt(p.dpi)) dpi\(p.size.width == nil || p.size.height == nil ? " (endless)" : "")\t\(p.elements.count) element\(p.elements.count == 1 ? "" : "s")\n"
                )
            }
            return
        }
        let page = try JournalAccess.page(pos[1], in: pages, journal: journal)
        if pos.count > 2 {
            if try JournalAccess.isStroke(pos[2], on: page), let (i, j) = page.strokeLocation(pos[2].text),
                case .ink(let ink) = page.elements[i].content
            {
                let item = try strokeSummary(ink.strokes[j], layer: page.elements[i].id, renderer)
                if json { return emit(item) }
                return io.out(String(decoding: item.serializedBytes(), as: UTF8.self) + "\n")
            }
            let e = page.elements[try JournalAccess.elementIndex(pos[2], on: page)]
            if json { return emit(e.json) }
            io.out(try describe(e, renderer: renderer) + "\n")
            return
        }
        if json {
            var j = page.json
            if case .object(var o) = j {
                let (w, h) = try renderer.resolvedSize(of: page)
                o["resolvedSize"] = [.number(w), .number(h)]
                var strokes: [JSONValue] = []
                for e in page.elements {
                    guard case .ink(let ink) = e.content else { continue }
                    for s in ink.strokes { strokes.append(try strokeSummary(s, layer: e.id, renderer)) }
                }
                o["strokes"] = .array(strokes)
                j = .object(o)
            }
            return emit(j)
        }
        let (w, h) = try renderer.resolvedSize(of: page)
        io.out(
            "page \(page.id): \(fmt(w))x\(fmt(h)) px @ \(fmt(page.dpi)) dpi (\(fmt((w / page.dpi * 254).rounded() / 10))x\(fmt((h / page.dpi * 254).rounded() / 10)) mm)\n"
        )
        var bg: [String] = []
        if let c = page.background.color { bg.append("colour \(c)") }
        if let i = page.background.image { bg.append("image \(i.asset.path) (\(i.mode.rawValue), opacity \(fmt(i.opacity)))") }
        if let p = page.background.paper { bg.append("\(p.pattern.rawValue) paper every \(fmt(round2(p.spacing))) px in \(p.color)") }
        io.out("background: \(bg.isEmpty ? "transparent" : bg.joined(separator: ", "))\n")
        if !page.slots.isEmpty { io.out("slots: \(page.slots.map { "\($0.name) (\($0.kind.rawValue))" }.joined(separator: ", "))\n") }
        io.out(page.elements.isEmpty ? "no elements\n" : "elements, bottom to top:\n")
        for e in page.elements { io.out("  " + (try describe(e, renderer: renderer)) + "\n") }
    }

    /// One stroke as `show --json` lists it: id, layer, tool, colour, width, opacity and page
    /// bounds `[x, y, w, h]` (pen width included; an eraser's too).
    static func strokeSummary(_ s: Stroke, layer: String, _ r: PageRenderer) throws -> JSONValue {
        var o: [String: JSONValue] = [
            "id": .string(s.id ?? ""), "layer": .string(layer), "tool": .string(s.tool.rawValue), "color": .string(s.color.description),
            "width": .number(s.width), "opacity": .number(s.opacity),
        ]
        let b = try r.strokeBounds(s)
        if !b.isNull { o["bounds"] = [.number(round2(b.minX)), .number(round2(b.minY)), .number(round2(b.width)), .number(round2(b.height))] }
        return .object(o)
    }

    static func pageSummary(_ p: Page, _ r: PageRenderer) throws -> JSONValue {
        let (w, h) = try r.resolvedSize(of: p)
        return .object(["id": .string(p.id), "size": [.number(w), .number(h)], "dpi": .number(p.dpi), "elements": .number(Double(p.elements.count))])
    }

    static func describe(_ e: Element, renderer: PageRenderer) throws -> String {
        var s = "\(e.id)\t\(e.kind.rawValue)"
        if e.kind != .ink {
            let p = e.placement
            s += "\tat \(fmt(round2(p.center.x))),\(fmt(round2(p.center.y)))"
            if p.scale != 1 { s += " scale \(fmt(round4(p.scale)))" }
            if p.rotation != 0 { s += " rotate \(fmt(round2(p.rotation)))°" }
            if p.flipH { s += " flipped h" }
            if p.flipV { s += " flipped v" }
        }
        switch e.content {
        case .image(let i):
            s += "\t\(fmt(i.naturalWidth))x\(fmt(i.naturalHeight)) \(i.asset.path)"
        case .photo(let p):
            s += "\t\(fmt(p.image.naturalWidth))x\(fmt(p.image.naturalHeight)) \(p.image.asset.path)"
            if p.frame != .none { s += " frame \(p.frame.rawValue)" }
        case .text(let t):
            let (w, h) = try renderer.naturalSize(of: t)
            let preview = t.text.count > 40 ? String(t.text.prefix(40)) + "…" : t.text
            s += "\t\(fmt(round2(w)))x\(fmt(round2(h))) \"\(preview.replacingOccurrences(of: "\n", with: "⏎"))\" \(t.font) \(fmt(t.size))px"
        case .ink(let ink):
            let tools = Dictionary(grouping: ink.strokes, by: \.tool.rawValue).map { "\($0.value.count) \($0.key)" }.sorted()
            s += "\t\(ink.strokes.count) stroke\(ink.strokes.count == 1 ? "" : "s"): \(tools.joined(separator: ", "))"
        case .washi(let w):
            s += "\t\(fmt(round2(w.from.distance(to: w.to)))) px of tape, \(w.ends.rawValue) ends"
        }
        if e.opacity != 1 { s += " opacity \(fmt(e.opacity))" }
        if e.hidden { s += " (hidden)" }
        if e.locked { s += " (locked)" }
        return s
    }

    static func round2(_ v: Double) -> Double { (v * 100).rounded() / 100 }
    static func round4(_ v: Double) -> Double { (v * 10000).rounded() / 10000 }
}

enum CheckCommand: TechoCommand {
    static let names = ["check"]
    static let usage = "check JOURNAL"
    static let summary = "verify a journal: every page decodes, every asset exists, matches its hash and is a usable image"
    static let discussion = """
        Each asset a page uses is read, its SHA-256 compared with its name, and then probed as
        import probes a file: the format from its bytes, the header within the limits, and every row
        of compressed data checked without decoding the image into memory. Each problem is listed
        with the file at fault.
        """
    static let options: [OptionSpec] = []

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL"], command: "check")
        let url = URL(fileURLWithPath: io.resolve(pos[0].text))
        guard FileManager.default.fileExists(atPath: url.path) else { throw EditError(.notFound, "\(pos[0].text): no such journal") }
        let store: JournalStore
        do { store = try JournalStore.open(url) } catch {
            throw EditError(.failure, "\(pos[0].text): \(error)")
        }
        // An asset is a font when its bytes were one on import (its extension says so), else a picture.
        let problems = store.check(assetProbe: { bytes, name in
            if ["ttf", "otf", "ttc"].contains((name as NSString).pathExtension) {
                _ = try FontFileProbe.check(bytes, name: name)
            } else {
                _ = try ImageProbe.check(bytes, name: name)
            }
        })
        guard problems.isEmpty else {
            for p in problems { io.out("\(p)\n") }
            throw EditError(.failure, "\(pos[0].text): \(problems.count) problem\(problems.count == 1 ? "" : "s") found")
        }
        io.out("\(pos[0].text): ok\n")
    }
}

enum GCCommand: TechoCommand {
    static let names = ["gc"]
    static let usage = "gc JOURNAL [--dry-run]"
    static let summary = "remove assets that no page and no undo or redo step uses; prints what it removed"
    static let discussion = """
        Undoing "add image" keeps the image file, because redo needs it, so assets stay until the
        history that mentions them is trimmed (settings.historyLimit) or the pages stop using them.
        gc removes an asset only when neither the current pages nor any kept history step
        references it, so every undo and redo still works afterwards.
        """
    static let options = [OptionSpec("dry-run", help: "list what would be removed, remove nothing")]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL"], command: "gc")
        let store = try JournalAccess.open(pos[0], io: io)
        let dry = args.has("dry-run")
        let result: JournalStore.Collected
        do { result = try store.collectGarbage(dryRun: dry) } catch let e as StorageError {
            throw EditError(.failure, "\(pos[0].text): \(e)")
        }
        for path in result.removed { io.out("\(path)\n") }
        let n = result.removed.count
        io.err("techo: \(dry ? "would remove" : "removed") \(n) unused asset\(n == 1 ? "" : "s") (\(result.bytes) bytes)\n")
    }
}

enum FontsCommand: TechoCommand {
    static let names = ["fonts"]
    static let usage = "fonts [PATTERN]"
    static let summary = "list the installed font families (containing PATTERN)"
    static let options: [OptionSpec] = []

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["PATTERN"], minimum: 0, command: "fonts")
        let families = FontCatalog.shared.families(matching: pos.first?.text)
        if families.isEmpty, let p = pos.first { throw EditError(.failure, "no installed font family contains '\(p.text)'") }
        for f in families { io.out("\(f)\n") }
    }
}
