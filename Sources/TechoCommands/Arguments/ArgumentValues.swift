// Typed values from argument tokens. Every failure is a UsageError naming the option (or the
// positional argument) and quoting what was typed.
import TechoGeometry
import TechoModel

/// A token together with the name to blame when its value is bad (`--at` or `PAGE`).
struct Arg {
    var token: ArgumentToken
    var name: String

    var text: String { token.text }

    func fail(_ why: String) -> UsageError {
        UsageError("\(name) (argument \(token.index)): \(why), got '\(token.text)'")
    }

    /// A finite number within `range`.
    func number(in range: ClosedRange<Double> = -1e7...1e7) throws -> Double {
        guard let v = Double(text.trimmingCharacters(in: .whitespaces)), v.isFinite else { throw fail("expected a number") }
        guard range.contains(v) else { throw fail("expected a number from \(fmt(range.lowerBound)) to \(fmt(range.upperBound))") }
        return v
    }

    /// A finite number that `rule` allows; refused in the rule's words.
    func number(_ rule: FieldRule) throws -> Double {
        guard let v = Double(text.trimmingCharacters(in: .whitespaces)), v.isFinite else { throw fail("expected a number") }
        guard rule.contains(v) else { throw fail(rule.refusal(v)) }
        return v
    }

    /// A length in pixels at `dpi` that `rule` allows; refused in the rule's words.
    func length(dpi: Double, _ rule: FieldRule) throws -> Double {
        let v = try Arg.length(text, dpi: dpi, range: -1e300...1e300) { self.fail($0) }
        guard rule.contains(v) else { throw fail(rule.refusal(v)) }
        return v
    }

    /// A whole number that `rule` allows; refused in the rule's words.
    func integer(_ rule: IntegerRule) throws -> Int {
        guard let v = Int(text) else { throw fail("expected a whole number") }
        guard rule.range.contains(v) else { throw fail(rule.refusal(v)) }
        return v
    }

    /// A whole number within `range`.
    func integer(in range: ClosedRange<Int>) throws -> Int {
        guard let v = Int(text), range.contains(v) else { throw fail("expected a whole number from \(range.lowerBound) to \(range.upperBound)") }
        return v
    }

    /// A length in pixels: a number, or a number with a unit (mm, cm, in, pt, px) at `dpi`.
    func length(dpi: Double, in range: ClosedRange<Double> = -1e7...1e7) throws -> Double {
        try Arg.length(text, dpi: dpi, range: range) { self.fail($0) }
    }

    static func length(_ s: String, dpi: Double, range: ClosedRange<Double>, fail: (String) -> UsageError) throws -> Double {
        let v: Double
        do { v = try Length(parsing: s).pixels(dpi: dpi) } catch {
            throw fail("expected a length such as 120, 12mm, 1.5cm, 2in or 18pt")
        }
        guard v.isFinite, range.contains(v) else { throw fail("expected a length from \(fmt(range.lowerBound)) to \(fmt(range.upperBound)) px") }
        return v
    }

    /// `X,Y` with lengths.
    func point(dpi: Double) throws -> Point {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw fail("expected X,Y") }
        let x = try Arg.length(String(parts[0]), dpi: dpi, range: -1e7...1e7) { _ in self.fail("expected X,Y with numbers or lengths") }
        let y = try Arg.length(String(parts[1]), dpi: dpi, range: -1e7...1e7) { _ in self.fail("expected X,Y with numbers or lengths") }
        return Point(x, y)
    }

    /// Comma-separated numbers, `count` of them when given.
    func numbers(count: Int? = nil, in range: ClosedRange<Double> = -1e7...1e7) throws -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.allSatisfy({ $0 != nil && $0!.isFinite }), !parts.isEmpty else { throw fail("expected comma-separated numbers") }
        let vs = parts.map { $0! }
        if let count, vs.count != count { throw fail("expected \(count) comma-separated numbers") }
        guard vs.allSatisfy(range.contains) else { throw fail("expected numbers from \(fmt(range.lowerBound)) to \(fmt(range.upperBound))") }
        return vs
    }

    /// A CSS colour.
    func color() throws -> RGBA {
        do { return try RGBA(parsing: text) } catch {
            throw UsageError("\(name) (argument \(token.index)): \(error)")
        }
    }

    /// One of a fixed set of words.
    func choice(_ options: [String]) throws -> String {
        guard options.contains(text) else { throw fail("expected one of \(options.joined(separator: ", "))") }
        return text
    }
}

/// A number as people write it: no trailing ".0", no exponent for everyday values.
func fmt(_ v: Double) -> String {
    if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
    return String(v)
}

extension ParsedArguments {
    /// The value of `--name`, ready to convert.
    func arg(_ name: String) -> Arg? { value(name).map { Arg(token: $0, name: "--\(name)") } }
    /// Every value of a repeatable `--name`.
    func args(_ name: String) -> [Arg] { values(name).map { Arg(token: $0, name: "--\(name)") } }

    /// The positional arguments, checked against their names: exactly `names.count` of them
    /// (or at least `minimum` when some are optional).
    func positionals(_ names: [String], minimum: Int? = nil, command: String) throws -> [Arg] {
        let need = minimum ?? names.count
        if positionals.count < need {
            throw UsageError("\(command): missing \(names[positionals.count]); usage: techo \(command) \(names.prefix(need).joined(separator: " "))")
        }
        if positionals.count > names.count {
            let extra = positionals[names.count]
            throw UsageError("\(command): unexpected argument '\(extra.text)' (argument \(extra.index))")
        }
        return zip(positionals, names).map { Arg(token: $0, name: $1) }
    }

    /// Fails when more than one of `names` is given.
    func exclusive(_ names: [String], command: String) throws {
        let given = names.filter(has)
        if given.count > 1 {
            throw UsageError("\(command): \(given.map { "--\($0)" }.joined(separator: " and ")) cannot be used together")
        }
    }
}
