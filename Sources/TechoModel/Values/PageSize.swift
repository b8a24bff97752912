// Named paper sizes and "WxH" page sizes (docs/contract.md §2), resolved to pixels at a dpi.

import Foundation

/// A page size in pixels; a nil side is `auto` (an endless page that grows with its content).
public struct PageSize: Hashable, Sendable, CustomStringConvertible {
    /// Width, pixels, or nil for `auto`. Default: A5 at 300 dpi, 1748.
    public var width: Double?
    /// Height, pixels, or nil for `auto`. Default: A5 at 300 dpi, 2480.
    public var height: Double?

    /// Whether a side is `auto` in the journal though fixed here (`fixing`): its paper
    /// rulings keep an endless side's rule (from the margin, not centred). Not stored in a
    /// journal; false for every size read or parsed.
    public private(set) var endlessWidth = false, endlessHeight = false

    public init(width: Double?, height: Double?) { self.width = width; self.height = height }

    /// `size` with both sides fixed at `width` and `height` (pixels): the page drawn at a size it
    /// has or will have (the editor's renders of an endless page grown, or without what a
    /// gesture moves), its `auto` sides still ruled as endless ones.
    public init(fixing size: PageSize, width: Double, height: Double) {
        self.width = width; self.height = height
        endlessWidth = size.width == nil || size.endlessWidth
        endlessHeight = size.height == nil || size.endlessHeight
    }

    /// Named sizes in millimetres, portrait. `Hobonichi` is A6, `Weeks` 94×188 mm, `TN` the
    /// Traveler's notebook 110×210 mm.
    public static let named: [(name: String, mm: (Double, Double))] = [
        ("A4", (210, 297)), ("A5", (148, 210)), ("A6", (105, 148)), ("B5", (176, 250)), ("B6", (125, 176)),
        ("Letter", (215.9, 279.4)), ("Hobonichi", (105, 148)), ("Weeks", (94, 188)), ("TN", (110, 210)),
    ]

    /// The default page size: A5.
    public static let defaultName = "A5"

    /// Parses `A4`, `A5`, `A6`, `B5`, `B6`, `Letter`, `Hobonichi`, `Weeks`, `TN` (any case),
    /// `WxH` (pixels), `WxHmm`, with either side `auto`, at `dpi`; `landscape` swaps the sides.
    /// Millimetre sizes round to whole pixels.
    /// - Throws: `ValueError` quoting the text.
    public init(parsing text: String, dpi: Double, landscape: Bool = false, limits: ModelLimits = .default) throws {
        let s = text.trimmingCharacters(in: .whitespaces)
        let mmToPx = { (mm: Double) in (mm * dpi / 25.4).rounded() }
        var w: Double?, h: Double?
        if let n = PageSize.named.first(where: { $0.name.lowercased() == s.lowercased() }) {
            w = mmToPx(n.mm.0); h = mmToPx(n.mm.1)
        } else {
            var body = s.lowercased()
            var unit = Length.Unit.px
            if body.hasSuffix("mm") { unit = .mm; body.removeLast(2) } else if body.hasSuffix("px") { body.removeLast(2) }
            let parts = body.split(separator: "x", omittingEmptySubsequences: false)
            let names = PageSize.named.map(\.name).joined(separator: ", ")
            guard parts.count == 2 else {
                throw ValueError("invalid page size \"\(text)\": expected \(names), WxH (pixels) or WxHmm, a side may be auto")
            }
            func side(_ p: Substring) throws -> Double? {
                let t = p.trimmingCharacters(in: .whitespaces)
                if t == "auto" { return nil }
                guard let v = Double(t), v.isFinite, v > 0 else {
                    throw ValueError("invalid page size \"\(text)\": \"\(t)\" is not a positive number or auto")
                }
                return unit == .mm ? mmToPx(v) : v.rounded()
            }
            w = try side(parts[0]); h = try side(parts[1])
            if w == nil && h == nil { throw ValueError("invalid page size \"\(text)\": at most one side may be auto") }
        }
        if landscape { swap(&w, &h) }
        self.init(width: w, height: h)
        if let problem = validationProblem(limits: limits) { throw ValueError("invalid page size \"\(text)\": \(problem)") }
    }

    /// Why this size is not allowed, or nil when it is.
    public func validationProblem(limits: ModelLimits = .default) -> String? {
        for side in [width, height] {
            if let v = side, !(v >= 1 && v <= limits.maxPageSide) {
                return "a side of \(JSONWriter.formatNumber(v)) px is outside 1…\(JSONWriter.formatNumber(limits.maxPageSide)) px"
            }
        }
        if width == nil && height == nil { return "at most one side may be auto" }
        if let w = width, let h = height, w * h > limits.maxPagePixels {
            return "\(JSONWriter.formatNumber(w))x\(JSONWriter.formatNumber(h)) is over \(JSONWriter.formatNumber(limits.maxPagePixels)) pixels"
        }
        return nil
    }

    /// `WxH` in pixels, `auto` for an open side.
    public var description: String {
        (width.map(JSONWriter.formatNumber) ?? "auto") + "x" + (height.map(JSONWriter.formatNumber) ?? "auto")
    }
}
