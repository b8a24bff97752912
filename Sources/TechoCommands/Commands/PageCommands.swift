// techo page add | list | rm | move
import Foundation
import TechoCodecs
import TechoEditing
import TechoModel

enum PageAddCommand: TechoCommand {
    static let names = ["page", "add"]
    static let usage = "page add JOURNAL [--id ID] [--after PAGE] [--template NAME|FILE.json] [--size S] [--dpi D] [--landscape] [--background C] [--paper P]"
    static let summary = "append a page (p2, p3, … unless --id names it); prints its id"
    static var discussion: String {
        let names = Templates.builtinNames()
        return """
            A new page takes the size, dpi and background of the journal's last page unless options say otherwise.
            --template starts the page from a template: its size, dpi, background, decorations and named slots
            (fill them with 'techo add photo|image|text … --slot NAME'); the options above override the
            template's size, dpi and background. Built-in templates: \(names.isEmpty ? "(none found)" : names.joined(separator: ", ")).
            A name with a slash or ending in .json is a template file of your own (see docs/templates.md).
            """
    }
    static let options =
        [
            OptionSpec("id", value: "ID", help: "the new page's id ([A-Za-z0-9_-], at most 64)"),
            OptionSpec("after", value: "PAGE", help: "insert after this page instead of at the end"),
            OptionSpec(
                "template", value: "NAME",
                help: "start from a template: a template file, or a built-in one ("
                    + (Templates.builtinNames().isEmpty ? "none installed" : Templates.builtinNames().joined(separator: ", ")) + ")"),
        ] + PageOptions.specs

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let journalArg = try args.positionals(["JOURNAL"], command: "page add")[0]
        if let a = args.arg("id"), !Identifier.isValid(a.text) { throw a.fail("expected an id of 1-64 letters, digits, - or _") }
        let store = try JournalAccess.open(journalArg, io: io)
        let template = try args.arg("template").map { t in
            try Templates.load(t.text, relativeTo: URL(fileURLWithPath: io.resolve(".")), what: "--template")
        }
        let id: String
        do {
            id = try PageEdits.addPage(
                to: store, id: args.value("id")?.text, after: args.value("after")?.text, template: template,
                adjust: { base in try PageOptions.page(id: base.id, args: args, inheriting: base) })
        } catch let e as EditError {
            // The shared operation names its fields; here they are options.
            for field in ["id", "after", "template"] where e.message.hasPrefix("\(field): ") {
                throw EditError(e.kind, "--\(field): " + e.message.dropFirst(field.count + 2))
            }
            throw e
        }
        io.out("\(id)\n")
    }
}

enum PageListCommand: TechoCommand {
    static let names = ["page", "list"]
    static let usage = "page list JOURNAL [--json]"
    static let summary = "list the pages in order with their size and element count"
    static let options = [OptionSpec("json", help: "machine-readable output")]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let journalArg = try args.positionals(["JOURNAL"], command: "page list")[0]
        let (journal, pages) = try JournalAccess.open(journalArg, io: io).read()
        if args.has("json") {
            let list: [JSONValue] = journal.pageOrder.compactMap { id in
                guard let p = pages[id] else { return nil }
                return .object([
                    "id": .string(id), "size": .string(p.size.description), "dpi": .number(p.dpi),
                    "elements": .number(Double(p.elements.count)),
                ])
            }
            io.out(String(decoding: JSONValue.array(list).serializedBytes(), as: UTF8.self))
            return
        }
        for id in journal.pageOrder {
            guard let p = pages[id] else { continue }
            io.out("\(id)\t\(p.size) px @ \(fmt(p.dpi)) dpi\t\(p.elements.count) element\(p.elements.count == 1 ? "" : "s")\n")
        }
    }
}

enum PageRemoveCommand: TechoCommand {
    static let names = ["page", "rm"]
    static let usage = "page rm JOURNAL PAGE"
    static let summary = "remove a page (undo brings it back)"
    static let options: [OptionSpec] = []

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL", "PAGE"], command: "page rm")
        let store = try JournalAccess.open(pos[0], io: io)
        try store.transaction(description: "page rm \(pos[1].text)") { journal, pages in
            _ = try JournalAccess.page(pos[1], in: pages, journal: journal)
            guard journal.pageOrder.count > 1 else {
                throw EditError(.invalid, "PAGE: '\(pos[1].text)' is the journal's only page; a journal keeps at least one")
            }
            journal.pageOrder.removeAll { $0 == pos[1].text }
            pages[pos[1].text] = nil
        }
    }
}

enum PageMoveCommand: TechoCommand {
    static let names = ["page", "move"]
    static let usage = "page move JOURNAL PAGE (--to N | --before PAGE | --after PAGE)"
    static let summary = "change a page's position in the journal"
    static let options = [
        OptionSpec("to", value: "N", help: "new position, 1 = first"),
        OptionSpec("before", value: "PAGE", help: "put it just before this page"),
        OptionSpec("after", value: "PAGE", help: "put it just after this page"),
    ]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL", "PAGE"], command: "page move")
        try args.exclusive(["to", "before", "after"], command: "page move")
        guard args.has("to") || args.has("before") || args.has("after") else {
            throw UsageError("page move: say where with --to N, --before PAGE or --after PAGE")
        }
        let store = try JournalAccess.open(pos[0], io: io)
        try store.transaction(description: "page move \(pos[1].text)") { journal, pages in
            _ = try JournalAccess.page(pos[1], in: pages, journal: journal)
            var order = journal.pageOrder
            order.removeAll { $0 == pos[1].text }
            var index: Int
            if let to = args.arg("to") {
                index = try to.integer(in: 1...journal.pageOrder.count) - 1
            } else {
                let ref = (args.arg("before") ?? args.arg("after"))!
                guard ref.text != pos[1].text, let i = order.firstIndex(of: ref.text) else {
                    throw EditError(.notFound, "\(ref.name): no other page '\(ref.text)'; pages: \(journal.pageOrder.joined(separator: ", "))")
                }
                index = args.has("after") ? i + 1 : i
            }
            order.insert(pos[1].text, at: index)
            journal.pageOrder = order
        }
    }
}
