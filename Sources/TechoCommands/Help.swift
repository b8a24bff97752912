// Help text, generated from each command's option table so it never drifts from the parser.

enum Help {
    static func overview(commands: [TechoCommand.Type]) -> String {
        var s = "techo \(Techo.version): a journaling page compositor\n\nUsage: techo COMMAND [ARGS...]\n\nCommands:\n"
        let width = commands.map { $0.displayName.count }.max() ?? 0
        for c in commands {
            s += "  " + c.displayName.padding(toLength: width + 2, withPad: " ", startingAt: 0) + c.summary + "\n"
        }
        s += "\nRun 'techo COMMAND --help' for a command's options.\n\nExit codes:\n"
        for code in ExitCode.allCases {
            s += "  " + String(code.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0) + code.meaning + "\n"
        }
        return s
    }

    /// `techo add --help`: the subcommands of one command word, one line each.
    static func group(_ word: String, commands: [TechoCommand.Type]) -> String {
        var s = "Usage: techo \(word) SUBCOMMAND [ARGS...]\n\nSubcommands:\n"
        let width = commands.map { $0.displayName.count }.max() ?? 0
        for c in commands {
            s += "  " + c.displayName.padding(toLength: width + 2, withPad: " ", startingAt: 0) + c.summary + "\n"
        }
        s += "\nRun 'techo \(word) SUBCOMMAND --help' for a subcommand's options.\n"
        return s
    }

    static func command(_ c: TechoCommand.Type) -> String {
        var s = "Usage: techo \(c.usage)\n\n\(c.summary)\n"
        if !c.discussion.isEmpty { s += "\n\(c.discussion)\n" }
        if !c.options.isEmpty {
            s += "\nOptions:\n"
            let labels = c.options.map { o -> String in
                var l = o.short.map { "-\($0), " } ?? "    "
                l += "--\(o.name)"
                if let v = o.value { l += " \(v)" }
                return l
            }
            let width = labels.map(\.count).max() ?? 0
            for (o, l) in zip(c.options, labels) {
                s += "  " + l.padding(toLength: width + 2, withPad: " ", startingAt: 0) + o.help
                if o.repeatable { s += " (repeatable)" }
                s += "\n"
            }
        }
        if c.options.isEmpty { s += "\nOptions:\n" }
        s += "  -h, --help  show this help\n"
        return s
    }
}
