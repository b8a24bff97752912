// Errors of the JSON layer: syntax errors with line and column, decoding problems with a JSON path.

/// A JSON text that could not be parsed, with the 1-based line and column of the fault.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file the text came from, when known. Default nil.
    public var file: String?
    /// 1-based line of the fault.
    public var line: Int
    /// 1-based column (in bytes) of the fault.
    public var column: Int
    /// What is wrong.
    public var message: String

    public init(file: String? = nil, line: Int, column: Int, message: String) {
        self.file = file; self.line = line; self.column = column; self.message = message
    }

    public var description: String {
        "\(file.map { "\($0):" } ?? "")\(line):\(column): \(message)"
    }
}

/// One thing wrong with a decoded document, at a JSON path such as `pages[2].elements[5].scale`.
public struct JSONProblem: Equatable, CustomStringConvertible, Sendable {
    /// The JSON path of the faulty value; empty for the document itself.
    public var path: String
    /// What is wrong, quoting the bad value where it helps.
    public var message: String

    public init(path: String, message: String) { self.path = path; self.message = message }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// A document that decoded with problems: every problem found, not just the first.
public struct JSONDecodingError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file the document came from, when known. Default nil.
    public var file: String?
    /// Every problem, in document order.
    public var problems: [JSONProblem]

    public init(file: String? = nil, problems: [JSONProblem]) { self.file = file; self.problems = problems }

    public var description: String {
        let prefix = file.map { "\($0): " } ?? ""
        return problems.map { prefix + $0.description }.joined(separator: "\n")
    }
}
