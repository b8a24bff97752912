// Splits argv into tokens that remember their position, then matches them against a command's
// option table, so every error can point at the exact argument (after swift-argument-parser's
// split-then-decode design, written for techo's small grammar).

/// One command-line argument and its position in argv (1 = the first after `techo`).
public struct ArgumentToken: Hashable, Sendable {
    public var index: Int
    public var text: String
}

/// How an option of a command is written and whether it takes a value.
public struct OptionSpec: Sendable {
    /// The long name without dashes, e.g. `"at"` for `--at`.
    public var name: String
    /// An optional one-letter alias, e.g. `"o"` for `-o`. Default nil.
    public var short: Character?
    /// The placeholder of the value (`"X,Y"`), or nil for a flag. Default nil.
    public var value: String?
    /// May be given more than once (`--page A --page B`). Default false.
    public var repeatable: Bool
    /// One line of help.
    public var help: String

    public init(_ name: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false, help: String) {
        self.name = name
        self.short = short
        self.value = value
        self.repeatable = repeatable
        self.help = help
    }
}

/// A usage error: the message names the argument, and the exit code is 64.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The options and positional arguments of one command line, after matching.
public struct ParsedArguments: Sendable {
    /// Positional arguments in order.
    public var positionals: [ArgumentToken] = []
    /// Option name → every occurrence: the option's own token and its value token, if any.
    public var options: [String: [(option: ArgumentToken, value: ArgumentToken?)]] = [:]

    public func has(_ name: String) -> Bool { options[name] != nil }

    /// The value of a single-valued option, with its token for error messages.
    public func value(_ name: String) -> ArgumentToken? { options[name]?.last?.value }

    /// Every value of a repeatable option, in order.
    public func values(_ name: String) -> [ArgumentToken] { options[name]?.compactMap { $0.value } ?? [] }
}

/// Matches tokens against a table of options.
public enum ArgumentScanner {
    /// Tokens for `argv` minus the program name and the words already consumed (the command).
    public static func tokens(_ argv: [String], dropping count: Int) -> [ArgumentToken] {
        argv.enumerated().dropFirst(count).map { ArgumentToken(index: $0.offset, text: $0.element) }
    }

    /// Splits tokens into options and positionals. `--name value`, `--name=value`, `-o value`
    /// and `--` (everything after it is positional) are understood. A value may start with `-`
    /// (`--pan -10,5`), since options that take values always take the next token.
    public static func parse(_ tokens: [ArgumentToken], options specs: [OptionSpec], command: String) throws -> ParsedArguments {
        var out = ParsedArguments()
        var i = 0
        var onlyPositionals = false
        while i < tokens.count {
            let tok = tokens[i]
            i += 1
            if onlyPositionals || !tok.text.hasPrefix("-") || tok.text == "-" || isNumber(tok.text) {
                out.positionals.append(tok)
                continue
            }
            if tok.text == "--" { onlyPositionals = true; continue }
            var name: String
            var inlineValue: String?
            if tok.text.hasPrefix("--") {
                name = String(tok.text.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
            } else {
                let letter = tok.text.dropFirst()
                guard letter.count == 1, let spec = specs.first(where: { $0.short == letter.first }) else {
                    throw UsageError("\(command): unknown option '\(tok.text)' (argument \(tok.index))\(suggestion(for: String(letter), in: specs))")
                }
                name = spec.name
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                throw UsageError("\(command): unknown option '--\(name)' (argument \(tok.index))\(suggestion(for: name, in: specs))")
            }
            if !spec.repeatable, out.options[name] != nil {
                throw UsageError("\(command): option '--\(name)' given twice (argument \(tok.index))")
            }
            var valueToken: ArgumentToken?
            if let placeholder = spec.value {
                if let inlineValue {
                    valueToken = ArgumentToken(index: tok.index, text: inlineValue)
                } else {
                    guard i < tokens.count else {
                        throw UsageError("\(command): option '--\(name)' needs a value \(placeholder) (argument \(tok.index))")
                    }
                    valueToken = tokens[i]
                    i += 1
                }
            } else if inlineValue != nil {
                throw UsageError("\(command): option '--\(name)' takes no value (argument \(tok.index))")
            }
            out.options[name, default: []].append((tok, valueToken))
        }
        return out
    }

    /// A negative number such as `-12` or `-1.5,3` is a value, not an option.
    static func isNumber(_ s: String) -> Bool {
        guard s.count > 1, let c = s.dropFirst().first else { return false }
        return c.isNumber || c == "."
    }

    static func suggestion(for name: String, in specs: [OptionSpec]) -> String {
        let best = specs.map { ($0.name, editDistance($0.name, name)) }.min { $0.1 < $1.1 }
        if let best, best.1 <= (name.count >= 4 ? 2 : 1) { return "; did you mean '--\(best.0)'?" }
        return ""
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev = Array(0...b.count)
        var prev2 = prev
        for i in 1...a.count {
            var cur = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                // A swap of two neighbours counts as one edit (Damerau).
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { cur[j] = min(cur[j], prev2[j - 2] + 1) }
            }
            prev2 = prev
            prev = cur
        }
        return prev[b.count]
    }
}
