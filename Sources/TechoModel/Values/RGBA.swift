// CSS colour syntax (hex, rgb/rgba, hsl/hsla, named colours) parsed into straight-alpha RGBA8.
// hsl → rgb after the CSS Color 4 reference algorithm.

import Foundation
import TechoRules

/// A colour with straight (not premultiplied) alpha, 8 bits per channel, sRGB.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0…255. Default 0.
    public var r: UInt8
    /// Green, 0…255. Default 0.
    public var g: UInt8
    /// Blue, 0…255. Default 0.
    public var b: UInt8
    /// Alpha, 0 (transparent) … 255 (opaque). Default 255.
    public var a: UInt8

    public init(r: UInt8 = 0, g: UInt8 = 0, b: UInt8 = 0, a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    public static let black = RGBA()
    public static let white = RGBA(r: 255, g: 255, b: 255)
    public static let transparent = RGBA(a: 0)

    /// `#rrggbb`, or `#rrggbbaa` when not opaque: the form the formats write.
    public var description: String {
        let hex = { (v: UInt8) -> String in
            let s = String(v, radix: 16); return s.count == 1 ? "0" + s : s
        }
        return "#" + hex(r) + hex(g) + hex(b) + (a == 255 ? "" : hex(a))
    }

    /// Parses a CSS colour: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb(r,g,b)`,
    /// `rgba(r,g,b,a)`, `hsl(h,s%,l%)`, `hsla(h,s%,l%,a)`, a CSS named colour or `transparent`.
    /// Channels of `rgb()` may be 0…255 or percentages; alpha 0…1 or a percentage.
    /// - Throws: `ValueError` quoting the value.
    public init(parsing text: String) throws {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        let bad = { (why: String) in ValueError("invalid colour \"\(text)\": \(why)") }
        if s.hasPrefix("#") {
            let digits = Array(s.utf8.dropFirst())
            var nibbles: [UInt8] = []
            for d in digits {
                switch d {
                case 0x30...0x39: nibbles.append(d - 0x30)
                case 0x61...0x66: nibbles.append(d - 0x61 + 10)
                default: throw bad("'#' must be followed by hex digits")
                }
            }
            switch nibbles.count {
            case 3, 4:
                let v = nibbles.map { $0 * 17 }
                self.init(r: v[0], g: v[1], b: v[2], a: v.count == 4 ? v[3] : 255)
            case 6, 8:
                let v = stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
                self.init(r: v[0], g: v[1], b: v[2], a: v.count == 4 ? v[3] : 255)
            default:
                throw bad("expected 3, 4, 6 or 8 hex digits")
            }
            return
        }
        if s == "transparent" { self = .transparent; return }
        if let rgb = cssNamedColors[s] {
            self.init(r: UInt8(rgb >> 16), g: UInt8(rgb >> 8 & 0xFF), b: UInt8(rgb & 0xFF))
            return
        }
        guard let open = s.firstIndex(of: "("), s.hasSuffix(")") else {
            throw bad("expected #hex, rgb(), rgba(), hsl(), hsla() or a CSS colour name")
        }
        let fn = String(s[..<open]).trimmingCharacters(in: .whitespaces)
        let inner = s[s.index(after: open)..<s.index(before: s.endIndex)]
        let args = inner.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        func number(_ a: String, percentScale: Double?) throws -> Double {
            var t = a
            var percent: Double?
            if t.hasSuffix("%") {
                guard let p = percentScale else { throw bad("unexpected percentage \"\(a)\"") }
                t.removeLast(); percent = p
            }
            guard let v = Double(t), v.isFinite else { throw bad("\"\(a)\" is not a number") }
            return percent.map { v * $0 / 100 } ?? v
        }
        func alpha(_ a: String) throws -> UInt8 {
            let v = try number(a, percentScale: 1)
            return UInt8((min(max(v, 0), 1) * 255).rounded())
        }
        func channel(_ v: Double) -> UInt8 { UInt8(min(max(v, 0), 255).rounded()) }
        switch fn {
        case "rgb", "rgba":
            guard args.count == 3 || args.count == 4 else { throw bad("\(fn)() takes 3 or 4 values") }
            let c = try args[0..<3].map { try number($0, percentScale: 255) }
            self.init(r: channel(c[0]), g: channel(c[1]), b: channel(c[2]), a: args.count == 4 ? try alpha(args[3]) : 255)
        case "hsl", "hsla":
            guard args.count == 3 || args.count == 4 else { throw bad("\(fn)() takes 3 or 4 values") }
            var hText = args[0]
            if hText.hasSuffix("deg") { hText.removeLast(3) }
            guard let h0 = Double(hText), h0.isFinite else { throw bad("hue \"\(args[0])\" is not a number") }
            guard args[1].hasSuffix("%"), args[2].hasSuffix("%") else { throw bad("saturation and lightness must be percentages") }
            let sat = min(max(try number(args[1], percentScale: 1), 0), 1)
            let light = min(max(try number(args[2], percentScale: 1), 0), 1)
            let h = (h0.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
            func f(_ n: Double) -> Double {
                let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
                let amp = sat * min(light, 1 - light)
                return light - amp * max(-1, min(k - 3, 9 - k, 1))
            }
            self.init(
                r: channel(f(0) * 255), g: channel(f(8) * 255), b: channel(f(4) * 255),
                a: args.count == 4 ? try alpha(args[3]) : 255)
        default:
            throw bad("unknown colour function \"\(fn)()\"")
        }
    }
}

/// A user-supplied value (colour, length, size, id) that does not parse; the message quotes it.
public struct ValueError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What is wrong, quoting the value.
    public var message: String
    /// The field at fault by its JSON name, when the error is about one; `message` then begins
    /// with it.
    public var field: String?
    public init(_ message: String) { self.message = message }
    /// An error about `field`: the message reads "`field`: `detail`".
    public init(field: String, _ detail: String) {
        self.field = field
        self.message = "\(field): \(detail)"
    }
    /// The refusal of `value` by `rule`, about the field the rule is named after.
    public init(_ rule: FieldRule, _ value: Double) {
        if rule.name.allSatisfy({ $0.isLetter }) { self.init(field: rule.name, rule.refusal(value)) } else { self.init(rule.refusalNamingField(value)) }
    }
    /// The message without the field's name in front.
    public var detail: String {
        guard let field, message.hasPrefix(field + ": ") else { return message }
        return String(message.dropFirst(field.count + 2))
    }
    public var description: String { message }
}

extension JSONNode {
    /// The value as a colour string, or nil after reporting.
    public func color() -> RGBA? {
        guard let s = string() else { return nil }
        do { return try RGBA(parsing: s) } catch { report("\(error)"); return nil }
    }
}
