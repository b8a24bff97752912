// techo undo | redo | history: the journal's linear history, kept between commands.
import Foundation
import TechoEditing
import TechoModel

enum UndoCommand: TechoCommand {
    static let names = ["undo"]
    static let usage = "undo JOURNAL"
    static let summary = "undo the journal's last change (prints what was undone)"
    static let options: [OptionSpec] = []

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL"], command: "undo")
        guard let step = try JournalAccess.open(pos[0], io: io).undo() else {
            throw EditError(.failure, "\(pos[0].text): nothing to undo")
        }
        io.out("undid \(step.number): \(step.description)\n")
    }
}

enum RedoCommand: TechoCommand {
    static let names = ["redo"]
    static let usage = "redo JOURNAL"
    static let summary = "redo the last undone change (prints what was redone)"
    static let options: [OptionSpec] = []

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL"], command: "redo")
        guard let step = try JournalAccess.open(pos[0], io: io).redo() else {
            throw EditError(.failure, "\(pos[0].text): nothing to redo")
        }
        io.out("redid \(step.number): \(step.description)\n")
    }
}

enum HistoryCommand: TechoCommand {
    static let names = ["history"]
    static let usage = "history JOURNAL [--json]"
    static let summary = "list the steps that undo and redo move through"
    static let discussion = "Applied steps are marked '*'; the others can be redone. A new change after undo drops them."
    static let options = [OptionSpec("json", help: "machine-readable output")]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL"], command: "history")
        let steps = try JournalAccess.open(pos[0], io: io).history()
        if args.has("json") {
            let list = JSONValue.array(
                steps.map { .object(["step": .number(Double($0.number)), "description": .string($0.description), "applied": .bool($0.isApplied)]) })
            io.out(String(decoding: list.serializedBytes(), as: UTF8.self))
            return
        }
        if steps.isEmpty { io.out("no history yet\n") }
        for s in steps { io.out("\(s.isApplied ? "*" : " ") \(s.number)\t\(s.description)\n") }
    }
}
