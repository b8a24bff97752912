// SVG path data (the `d` attribute): a byte-level scanner over the grammar of SVG 1.1 §8.3.9
// (commands M L H V C S Q T A Z in absolute and relative forms, implicit repeated commands,
// numbers such as `.5.5`, `-1-2`, `1e-3`, arc flags without separators), building a `Path` as
// it goes. Errors name the byte offset and what was expected, as swift-argument-parser's
// tokens remember their position.

/// Why SVG path data could not be read.
///
/// The message reads like "expected a number at offset 14"; `offset` counts UTF-8 bytes from
/// the start of the string.
public struct SVGPathError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the parser needed at `offset`.
    public enum Expected: String, Hashable, Sendable {
        /// A path must begin with M or m.
        case moveTo = "a moveto command (M or m)"
        case command = "a command letter"
        case number = "a number"
        case finiteNumber = "a finite number"
        /// An arc flag: 0 or 1.
        case flag = "an arc flag (0 or 1)"
    }

    /// What was expected.
    public var expected: Expected
    /// Byte offset into the path data where it was expected.
    public var offset: Int

    public init(expected: Expected, offset: Int) {
        self.expected = expected
        self.offset = offset
    }

    public var description: String { "expected \(expected.rawValue) at offset \(offset)" }
}

extension Path {
    /// The most bytes of path data `init(svgPathData:)` reads; longer data is refused.
    public static let maxSVGPathDataBytes = 8 << 20

    /// Parses SVG path data (the `d` attribute).
    ///
    /// Empty or all-whitespace data is an empty path. Unlike a browser, which draws up to the
    /// first error, this throws so the caller can name the mistake.
    ///
    /// - Throws: `SVGPathError` with the byte offset and what was expected there.
    /// - Complexity: O(bytes).
    public init(svgPathData d: String) throws {
        var parser = SVGPathParser(Array(d.utf8))
        self = try parser.parse()
    }
}

/// The scanner behind `Path(svgPathData:)`.
struct SVGPathParser {
    let bytes: [UInt8]
    var i = 0
    var path = Path()

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C }
    private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    private mutating func skipSpace() {
        while i < bytes.count, SVGPathParser.isSpace(bytes[i]) { i += 1 }
    }
    /// Whitespace with at most one comma.
    private mutating func skipCommaSpace() {
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: ",") {
            i += 1
            skipSpace()
        }
    }
    /// Whether the next byte can start a number (so a command repeats implicitly).
    private func atNumberStart() -> Bool {
        guard i < bytes.count else { return false }
        let c = bytes[i]
        return SVGPathParser.isDigit(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
    }

    mutating func number() throws -> Double {
        skipCommaSpace()
        let start = i
        var j = i
        if j < bytes.count, bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "+") { j += 1 }
        var digits = 0
        while j < bytes.count, SVGPathParser.isDigit(bytes[j]) { j += 1; digits += 1 }
        if j < bytes.count, bytes[j] == UInt8(ascii: ".") {
            var k = j + 1
            var frac = 0
            while k < bytes.count, SVGPathParser.isDigit(bytes[k]) { k += 1; frac += 1 }
            if frac > 0 || digits > 0 {
                j = k
                digits += frac
            }
        }
        guard digits > 0 else { throw SVGPathError(expected: .number, offset: start) }
        if j < bytes.count, bytes[j] == UInt8(ascii: "e") || bytes[j] == UInt8(ascii: "E") {
            var k = j + 1
            if k < bytes.count, bytes[k] == UInt8(ascii: "-") || bytes[k] == UInt8(ascii: "+") { k += 1 }
            if k < bytes.count, SVGPathParser.isDigit(bytes[k]) {
                while k < bytes.count, SVGPathParser.isDigit(bytes[k]) { k += 1 }
                j = k
            }
        }
        i = j
        guard let v = Double(String(decoding: bytes[start..<j], as: UTF8.self)), v.isFinite else {
            throw SVGPathError(expected: .finiteNumber, offset: start)
        }
        return v
    }

    mutating func flag() throws -> Bool {
        skipCommaSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "0") || bytes[i] == UInt8(ascii: "1") else {
            throw SVGPathError(expected: .flag, offset: i)
        }
        defer { i += 1 }
        return bytes[i] == UInt8(ascii: "1")
    }

    mutating func point(relativeTo base: Point?) throws -> Point {
        let x = try number(), y = try number()
        guard let base else { return Point(x, y) }
        return Point(base.x + x, base.y + y)
    }

    mutating func parse() throws -> Path {
        skipSpace()
        guard i < bytes.count else { return path }
        guard bytes.count <= Path.maxSVGPathDataBytes else { throw SVGPathError(expected: .command, offset: Path.maxSVGPathDataBytes) }
        guard bytes[i] == UInt8(ascii: "M") || bytes[i] == UInt8(ascii: "m") else {
            throw SVGPathError(expected: .moveTo, offset: i)
        }
        // The control point to reflect for S (after C/S) and T (after Q/T).
        var lastCubicControl: Point? = nil
        var lastQuadControl: Point? = nil
        while true {
            skipSpace()
            guard i < bytes.count else { break }
            let cmd = bytes[i]
            let cmdOffset = i
            i += 1
            let upper = cmd & ~0x20  // ASCII upper case
            let relative = cmd != upper
            var first = true
            repeat {
                let cur = path.currentPoint
                let base: Point? = relative ? cur : nil
                var cubicControl: Point? = nil
                var quadControl: Point? = nil
                switch upper {
                case UInt8(ascii: "M"):
                    let p = try point(relativeTo: base)
                    if first { path.move(to: p) } else { path.line(to: p) }
                case UInt8(ascii: "L"):
                    path.line(to: try point(relativeTo: base))
                case UInt8(ascii: "H"):
                    let x = try number()
                    path.line(to: Point(relative ? cur.x + x : x, cur.y))
                case UInt8(ascii: "V"):
                    let y = try number()
                    path.line(to: Point(cur.x, relative ? cur.y + y : y))
                case UInt8(ascii: "C"):
                    let c1 = try point(relativeTo: base), c2 = try point(relativeTo: base), p = try point(relativeTo: base)
                    path.cubic(to: p, control1: c1, control2: c2)
                    cubicControl = c2
                case UInt8(ascii: "S"):
                    let c1 = lastCubicControl.map { cur * 2 - $0 } ?? cur
                    let c2 = try point(relativeTo: base), p = try point(relativeTo: base)
                    path.cubic(to: p, control1: c1, control2: c2)
                    cubicControl = c2
                case UInt8(ascii: "Q"):
                    let c = try point(relativeTo: base), p = try point(relativeTo: base)
                    path.quad(to: p, control: c)
                    quadControl = c
                case UInt8(ascii: "T"):
                    let c = lastQuadControl.map { cur * 2 - $0 } ?? cur
                    let p = try point(relativeTo: base)
                    path.quad(to: p, control: c)
                    quadControl = c
                case UInt8(ascii: "A"):
                    let rx = try number(), ry = try number(), rot = try number()
                    let large = try flag(), sweep = try flag()
                    let p = try point(relativeTo: base)
                    path.arc(to: p, radii: Point(rx, ry), rotation: rot, largeArc: large, sweep: sweep)
                case UInt8(ascii: "Z"):
                    path.close()
                default:
                    throw SVGPathError(expected: .command, offset: cmdOffset)
                }
                lastCubicControl = cubicControl
                lastQuadControl = quadControl
                first = false
                if upper == UInt8(ascii: "Z") { break }
                skipCommaSpace()
            } while atNumberStart()
        }
        return path
    }
}
