import Testing

@testable import TechoCommands

@Suite struct ArgumentScannerTests {
    let specs = [
        OptionSpec("at", value: "X,Y", help: "centre"),
        OptionSpec("page", value: "ID", repeatable: true, help: "page"),
        OptionSpec("output", short: "o", value: "PATH", help: "out"),
        OptionSpec("json", help: "json"),
    ]

    func scan(_ words: [String]) throws -> ParsedArguments {
        try ArgumentScanner.parse(ArgumentScanner.tokens(["techo", "cmd"] + words, dropping: 2), options: specs, command: "cmd")
    }

    @Test func splitsOptionsAndPositionalsKeepingIndices() throws {
        let p = try scan(["j.techo", "--at", "10,20", "p1", "-o", "x.png", "--json"])
        #expect(p.positionals.map(\.text) == ["j.techo", "p1"])
        #expect(p.positionals.map(\.index) == [2, 5])
        #expect(p.value("at")?.text == "10,20")
        #expect(p.value("at")?.index == 4)
        #expect(p.value("output")?.text == "x.png")
        #expect(p.has("json"))
        #expect(!p.has("page"))
    }

    @Test func acceptsInlineValuesNegativeNumbersAndDoubleDash() throws {
        let p = try scan(["--at=-5,3", "--page", "a", "--page=b", "--", "--json", "-12"])
        #expect(p.value("at")?.text == "-5,3")
        #expect(p.values("page").map(\.text) == ["a", "b"])
        #expect(p.positionals.map(\.text) == ["--json", "-12"])
        let q = try scan(["-3.5"])
        #expect(q.positionals.map(\.text) == ["-3.5"])
    }

    @Test func errorsNameTheArgument() {
        #expect(throws: UsageError("cmd: unknown option '--att' (argument 3); did you mean '--at'?")) {
            try scan(["x", "--att", "1,2"])
        }
        #expect(throws: UsageError("cmd: option '--at' needs a value X,Y (argument 2)")) { try scan(["--at"]) }
        #expect(throws: UsageError("cmd: option '--at' given twice (argument 4)")) { try scan(["--at", "1,2", "--at", "3,4"]) }
        #expect(throws: UsageError("cmd: option '--json' takes no value (argument 2)")) { try scan(["--json=yes"]) }
        #expect(throws: UsageError("cmd: unknown option '-x' (argument 2)")) { try scan(["-x"]) }
    }

    @Test func versionAndUnknownCommand() {
        var out = "", err = ""
        let io = CommandIO(out: { out += $0 }, err: { err += $0 })
        #expect(Techo.main(["techo", "--version"], io: io) == 0)
        #expect(out == "techo \(Techo.version)\n")
        #expect(Techo.main(["techo", "frobnicate"], io: io) == ExitCode.usage.rawValue)
        #expect(err == "techo: error: unknown command 'frobnicate' (argument 1); run 'techo --help' for the list\n")
    }
}
