// Strict, path-carrying decoding from JSONValue: every problem is collected with its JSON path,
// unknown keys are refused, numbers are checked for range.

/// Collects the problems found while decoding one document.
///
/// Decoders report into the context and carry on, so one run finds every problem; callers end
/// with `throwIfProblems()`.
public final class DecodingContext {
    /// The file being decoded, when known; it prefixes error messages. Default nil.
    public let file: String?
    /// Every problem reported so far, in report order.
    public private(set) var problems: [JSONProblem] = []
    /// Product limits for the values decoded in this context. Default `.default`.
    public let limits: ModelLimits

    public init(file: String? = nil, limits: ModelLimits = .default) { self.file = file; self.limits = limits }

    /// Records a problem at `path`.
    public func report(_ path: String, _ message: String) {
        problems.append(JSONProblem(path: path, message: message))
    }

    /// True when nothing has been reported.
    public var isClean: Bool { problems.isEmpty }

    /// Throws a `JSONDecodingError` holding every problem, when there is any.
    public func throwIfProblems() throws {
        if !problems.isEmpty { throw JSONDecodingError(file: file, problems: problems) }
    }

    /// The root node of `value`.
    public func root(_ value: JSONValue) -> JSONNode { JSONNode(value: value, path: "", context: self) }
}

/// A value in a document together with its JSON path and the context problems go to.
public struct JSONNode {
    /// The value.
    public let value: JSONValue
    /// Its JSON path (`pages[2].elements[5].scale`); empty for the root.
    public let path: String
    /// Where problems are reported.
    public let context: DecodingContext

    /// The path of a key below this node.
    public func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Reports a problem at this node.
    public func report(_ message: String) { context.report(path, message) }

    /// The value as a string, or nil after reporting.
    public func string() -> String? {
        if case .string(let s) = value { return s }
        report("expected a string, found \(value.kindName)")
        return nil
    }

    /// The value as a boolean, or nil after reporting.
    public func bool() -> Bool? {
        if case .bool(let b) = value { return b }
        report("expected true or false, found \(value.kindName)")
        return nil
    }

    /// The value as a finite number in `range`, or nil after reporting. The default range refuses
    /// absurd magnitudes (beyond ±1e9) that would overflow later arithmetic.
    public func number(in range: ClosedRange<Double> = -1e9...1e9, _ what: String = "") -> Double? {
        guard case .number(let d) = value else {
            report("expected a number\(what), found \(value.kindName)")
            return nil
        }
        return checked(d, in: range)
    }

    /// Checks a decoded number against a range, reporting with this node's path.
    public func checked(_ d: Double, in range: ClosedRange<Double>) -> Double? {
        guard d.isFinite else { report("must be a finite number (got \(d))"); return nil }
        guard range.contains(d) else {
            report(
                "must be between \(JSONWriter.formatNumber(range.lowerBound)) and \(JSONWriter.formatNumber(range.upperBound)) (got \(JSONWriter.formatNumber(d)))"
            )
            return nil
        }
        return d
    }

    /// The value as a number `rule` allows, or nil after reporting in the rule's words.
    public func number(_ rule: FieldRule) -> Double? {
        guard case .number(let d) = value else {
            report("expected a number, found \(value.kindName)")
            return nil
        }
        return checked(d, rule)
    }

    /// Checks a decoded number against `rule`, reporting with this node's path.
    public func checked(_ d: Double, _ rule: FieldRule) -> Double? {
        guard rule.contains(d) else { report(rule.refusal(d)); return nil }
        return d
    }

    /// The value as a whole number `rule` allows, or nil after reporting in the rule's words.
    public func integer(_ rule: IntegerRule) -> Int? {
        guard case .number(let d) = value else { report("expected an integer, found \(value.kindName)"); return nil }
        guard d == d.rounded(), let i = Int(exactly: d), rule.range.contains(i) else {
            report(d.isFinite && d == d.rounded() && abs(d) < 1e18 ? rule.refusal(Int(d)) : "\(JSONWriter.formatNumber(d)) is not \(rule.expected)")
            return nil
        }
        return i
    }

    /// The value as an integer in `range`, or nil after reporting.
    public func integer(in range: ClosedRange<Int>) -> Int? {
        guard case .number(let d) = value else { report("expected an integer, found \(value.kindName)"); return nil }
        guard d == d.rounded(), let i = Int(exactly: d), range.contains(i) else {
            report("must be an integer between \(range.lowerBound) and \(range.upperBound) (got \(JSONWriter.formatNumber(d)))")
            return nil
        }
        return i
    }

    /// The items of an array, each with its path, or nil after reporting.
    public func array() -> [JSONNode]? {
        guard case .array(let items) = value else { report("expected an array, found \(value.kindName)"); return nil }
        return items.enumerated().map { JSONNode(value: $1, path: "\(path)[\($0)]", context: context) }
    }

    /// A reader of this object's keys, or nil after reporting.
    public func object() -> ObjectReader? {
        guard case .object(let dict) = value else { report("expected an object, found \(value.kindName)"); return nil }
        return ObjectReader(dict: dict, node: self)
    }

    /// The value as one of an enum's raw values, or nil after reporting the choices.
    public func choice<E: RawRepresentable & CaseIterable>(_ type: E.Type) -> E? where E.RawValue == String {
        guard let s = string() else { return nil }
        if let e = E(rawValue: s) { return e }
        report("unknown value \"\(s)\"; expected one of \(E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
        return nil
    }

    /// A point `[x, y]` of numbers within `range`, or nil after reporting.
    public func point(in range: ClosedRange<Double> = -1e7...1e7) -> (Double, Double)? {
        guard let items = array() else { return nil }
        guard items.count == 2 else { report("expected [x, y], found \(items.count) numbers"); return nil }
        guard let x = items[0].number(in: range), let y = items[1].number(in: range) else { return nil }
        return (x, y)
    }
}

/// Reads the keys of one object; `finish()` reports every key nobody asked for.
public final class ObjectReader {
    let dict: [String: JSONValue]
    /// The object's node.
    public let node: JSONNode
    private var used: Set<String> = []

    init(dict: [String: JSONValue], node: JSONNode) { self.dict = dict; self.node = node }

    /// True when the object has `key`.
    public func has(_ key: String) -> Bool { dict[key] != nil }

    /// The value of an optional key, or nil when absent.
    public func optional(_ key: String) -> JSONNode? {
        used.insert(key)
        guard let v = dict[key] else { return nil }
        return JSONNode(value: v, path: node.path(key), context: node.context)
    }

    /// The value of a required key, or nil after reporting it missing.
    public func required(_ key: String) -> JSONNode? {
        used.insert(key)
        guard let v = dict[key] else {
            node.context.report(node.path(key), "missing required field \"\(key)\"")
            return nil
        }
        return JSONNode(value: v, path: node.path(key), context: node.context)
    }

    /// Marks every key as known: for an object whose kind is already reported as wrong.
    public func acceptAll() { used.formUnion(dict.keys) }

    /// Marks keys as known without reading them.
    public func accept(_ keys: String...) { used.formUnion(keys) }

    /// Reports each key that was never asked for, in sorted order.
    public func finish() {
        for key in dict.keys.sorted() where !used.contains(key) {
            node.context.report(node.path(key), "unknown field \"\(key)\"")
        }
    }
}
