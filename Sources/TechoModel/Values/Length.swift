// Lengths with units, converted to pixels through a page's dpi (docs/contract.md §2).

import Foundation

/// A length as written by a person: a number and a unit.
public struct Length: Hashable, Sendable, CustomStringConvertible {
    /// Units a length may carry; a bare number is pixels.
    public enum Unit: String, Sendable, CaseIterable {
        case px, mm, cm, `in`, pt

        /// How many of this unit make an inch (px: per the dpi).
        func pixels(_ v: Double, dpi: Double) -> Double {
            switch self {
            case .px: return v
            case .mm: return v * dpi / 25.4
            case .cm: return v * dpi / 2.54
            case .in: return v * dpi
            case .pt: return v * dpi / 72
            }
        }
    }

    /// The number. Default 0.
    public var value: Double
    /// The unit. Default `.px`.
    public var unit: Unit

    public init(_ value: Double, _ unit: Unit = .px) { self.value = value; self.unit = unit }

    /// Parses `"12mm"`, `"1.5cm"`, `"2in"`, `"18pt"`, `"40px"` or a bare number (pixels).
    /// - Throws: `ValueError` quoting the text.
    public init(parsing text: String) throws {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        var unit = Unit.px
        var number = Substring(s)
        for u in Unit.allCases where s.hasSuffix(u.rawValue) {
            unit = u
            number = s.dropLast(u.rawValue.count)
            break
        }
        guard let v = Double(number.trimmingCharacters(in: .whitespaces)), v.isFinite else {
            throw ValueError("invalid length \"\(text)\": expected a number with an optional unit (px, mm, cm, in, pt)")
        }
        self.init(v, unit)
    }

    /// The length in pixels at `dpi`.
    public func pixels(dpi: Double) -> Double { unit.pixels(value, dpi: dpi) }

    public var description: String { JSONWriter.formatNumber(value) + unit.rawValue }
}

extension JSONNode {
    /// A length (number = pixels, or a string with a unit) in pixels at `dpi`, checked against
    /// `range`, or nil after reporting.
    public func length(dpi: Double, in range: ClosedRange<Double> = -1e7...1e7) -> Double? {
        switch value {
        case .number: return number(in: range)
        case .string(let s):
            do { return checked(try Length(parsing: s).pixels(dpi: dpi), in: range) } catch {
                report("\(error)")
                return nil
            }
        default:
            report("expected a length (a number of pixels or a string such as \"12mm\"), found \(value.kindName)")
            return nil
        }
    }

    /// A length in pixels at `dpi` that `rule` allows, or nil after reporting in the rule's words.
    public func length(dpi: Double, _ rule: FieldRule) -> Double? {
        switch value {
        case .number: return number(rule)
        case .string(let s):
            do { return checked(try Length(parsing: s).pixels(dpi: dpi), rule) } catch {
                report("\(error)")
                return nil
            }
        default:
            report("expected a length (a number of pixels or a string such as \"12mm\"), found \(value.kindName)")
            return nil
        }
    }

    /// A point `[x, y]` of lengths in pixels at `dpi`, or nil after reporting.
    public func lengthPoint(dpi: Double, in range: ClosedRange<Double> = -1e7...1e7) -> Point? {
        guard let items = array() else { return nil }
        guard items.count == 2 else { report("expected [x, y], found \(items.count) values"); return nil }
        let x = items[0].length(dpi: dpi, in: range), y = items[1].length(dpi: dpi, in: range)
        guard let x, let y else { return nil }
        return Point(x, y)
    }
}
