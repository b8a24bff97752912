// The `techo` command: finds the subcommand, parses its options, runs it, and turns every
// error into a message and an exit code in one place.
import Foundation
import TechoEditing

/// Where a command writes. Tests capture both streams; the binary writes to the terminal.
public final class CommandIO {
    public var out: (String) -> Void
    public var err: (String) -> Void
    /// Standard error is a terminal, so long work may show progress. Default false.
    public var stderrIsTerminal: Bool
    /// The folder relative paths are resolved against. Default: the process's working directory.
    public var currentDirectory: String
    /// The process ends when the command does (the `techo` executable), so the journals a
    /// command opens are kept until then instead of freed: freeing a decoded page of thousands
    /// of strokes costs a sixth of a sticker move's instructions, for memory the exit returns
    /// anyway. Default false (a caller that runs many commands in one process frees them).
    public var endsWithTheProcess = false

    public init(
        out: @escaping (String) -> Void, err: @escaping (String) -> Void,
        stderrIsTerminal: Bool = false, currentDirectory: String = FileManager.default.currentDirectoryPath
    ) {
        self.out = out
        self.err = err
        self.stderrIsTerminal = stderrIsTerminal
        self.currentDirectory = currentDirectory
    }

    /// The process's own stdout and stderr.
    public static func standard() -> CommandIO {
        let io = CommandIO(
            out: { s in FileHandle.standardOutput.write(Data(s.utf8)) },
            err: { s in FileHandle.standardError.write(Data(s.utf8)) },
            stderrIsTerminal: isatty(2) == 1)
        io.endsWithTheProcess = true
        return io
    }

    /// Keeps `object` until the process exits when `endsWithTheProcess`.
    func keepUntilExit(_ object: AnyObject) {
        if endsWithTheProcess { KeptUntilExit.shared.keep(object) }
    }

    /// An absolute path for a user-given one.
    public func resolve(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return (currentDirectory as NSString).appendingPathComponent(path)
    }
}

/// One subcommand: its help and what it does.
public protocol TechoCommand {
    /// The words that name it, e.g. `["page", "add"]` or `["export"]`.
    static var names: [String] { get }
    /// The usage line(s) after `techo`.
    static var usage: String { get }
    /// One-line summary for `techo --help`.
    static var summary: String { get }
    /// A paragraph or two for `techo CMD --help`. Default empty.
    static var discussion: String { get }
    static var options: [OptionSpec] { get }
    /// Runs the command; returns normally on success, throws on failure.
    static func run(_ args: ParsedArguments, io: CommandIO) throws
}

extension TechoCommand {
    public static var discussion: String { "" }
    public static var displayName: String { names.joined(separator: " ") }
}

public enum Techo {
    /// techo's version; `techo --version` prints it.
    public static let version = "0.1.0"

    /// Runs one command line (`argv[0]` is the program name) and returns the exit code.
    /// `extraCommands` are commands from modules that depend on this one (`techo serve`).
    public static func main(_ argv: [String], io: CommandIO = .standard(), extraCommands: [TechoCommand.Type] = []) -> Int32 {
        let allCommands = allCommands + extraCommands
        let words = Array(argv.dropFirst())
        if words.isEmpty || words == ["--help"] || words == ["-h"] || words == ["help"] {
            io.out(Help.overview(commands: allCommands))
            return words.isEmpty ? ExitCode.usage.rawValue : ExitCode.success.rawValue
        }
        if words == ["--version"] || words == ["version"] {
            io.out("techo \(version)\n")
            return 0
        }
        // Longest match of command words first: "page add" before "page".
        let candidates = allCommands.sorted { $0.names.count > $1.names.count }
        guard let command = candidates.first(where: { Array(words.prefix($0.names.count)) == $0.names }) else {
            let known = Set(allCommands.map { $0.names[0] })
            if known.contains(words[0]) {
                let group = allCommands.filter { $0.names[0] == words[0] }
                if words.count > 1 && (words[1] == "--help" || words[1] == "-h") {
                    io.out(Help.group(words[0], commands: group))
                    return ExitCode.success.rawValue
                }
                let subs = allCommands.filter { $0.names[0] == words[0] }.map { $0.names.dropFirst().joined(separator: " ") }
                let what = words.count > 1 ? "unknown subcommand '\(words[1])' (argument 2)" : "missing subcommand"
                return fail(io, .usage, "\(words[0]): \(what); expected one of: \(subs.joined(separator: ", "))")
            }
            return fail(io, .usage, "unknown command '\(words[0])' (argument 1); run 'techo --help' for the list")
        }
        let tokens = ArgumentScanner.tokens(argv, dropping: 1 + command.names.count)
        if tokens.contains(where: { $0.text == "--help" || $0.text == "-h" }) {
            io.out(Help.command(command))
            return 0
        }
        do {
            let parsed = try ArgumentScanner.parse(tokens, options: command.options, command: command.displayName)
            try command.run(parsed, io: io)
            return 0
        } catch {
            let (code, message) = ErrorReport.describe(error)
            return fail(io, code, message)
        }
    }

    static func fail(_ io: CommandIO, _ code: ExitCode, _ message: String) -> Int32 {
        for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
            io.err("techo: error: \(line)\n")
        }
        return code.rawValue
    }
}

/// What `CommandIO.keepUntilExit` keeps.
private final class KeptUntilExit: @unchecked Sendable {
    static let shared = KeptUntilExit()
    private let lock = NSLock()
    private var objects: [AnyObject] = []
    func keep(_ object: AnyObject) {
        lock.lock()
        objects.append(object)
        lock.unlock()
    }
}
