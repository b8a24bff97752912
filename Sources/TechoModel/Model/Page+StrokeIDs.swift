// Stroke ids (docs/format.md, "Stroke ids"): every stroke on a page has an id, unique on the
// page and never an element's id, so that one stroke can be picked, changed and removed.
//
// Ids techo gives are `s<n>`. A stroke without one (every page written before strokes had
// ids, a stroke just drawn) gets the next free number when the page is made or the stroke is
// appended: one more than the largest `s<n>` on the page, counting up in stacking order and
// skipping any `s<n>` an element is called. That is a function of the page alone, so a page
// read twice without a save between gets the same ids both times, and the next save writes
// them. Removing the page's newest stroke frees its number for the next drawn stroke; every
// other number stays taken while its stroke is on the page (docs/decisions/stroke-ids.md).

extension Page {
    /// Where the stroke with id `id` is: its ink layer's index in `elements` and its index in
    /// that layer's strokes; nil when no stroke has that id.
    /// - Complexity: linear in the page's strokes.
    public func strokeLocation(_ id: String) -> (element: Int, stroke: Int)? {
        for (i, e) in elements.enumerated() {
            guard case .ink(let ink) = e.content else { continue }
            if let j = ink.strokes.firstIndex(where: { $0.id == id }) { return (i, j) }
        }
        return nil
    }

    /// The stroke with id `id`, or nil.
    public func stroke(_ id: String) -> Stroke? {
        guard let (i, j) = strokeLocation(id), case .ink(let ink) = elements[i].content else { return nil }
        return ink.strokes[j]
    }

    /// Every stroke id on the page, in stacking order (strokes without one are left out).
    public var strokeIDs: [String] {
        var out: [String] = []
        for e in elements {
            if case .ink(let ink) = e.content { out.append(contentsOf: ink.strokes.compactMap(\.id)) }
        }
        return out
    }

    /// `n` of an id `s<n>` (n ≥ 1, written without leading zeros), else nil.
    static func strokeNumber(_ id: String) -> Int? {
        let u = id.utf8
        guard u.count >= 2, u.count <= 19, u.first == UInt8(ascii: "s") else { return nil }
        let digits = u.dropFirst()
        guard digits.first != UInt8(ascii: "0"), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(id.dropFirst())
    }

    /// Gives every stroke without an id the next free `s<n>` (see the file's comment). Pages
    /// whose strokes all have ids are left as they are.
    /// - Complexity: linear in the page's strokes.
    public mutating func assignStrokeIDs() {
        var missing = false
        var top = 0
        for e in elements {
            guard case .ink(let ink) = e.content else { continue }
            for s in ink.strokes {
                if let id = s.id {
                    if let n = Page.strokeNumber(id), n > top { top = n }
                } else {
                    missing = true
                }
            }
        }
        guard missing else { return }
        let elementIDs = Set(elements.map(\.id))
        for i in elements.indices {
            guard case .ink(var ink) = elements[i].content, ink.strokes.contains(where: { $0.id == nil }) else { continue }
            for j in ink.strokes.indices where ink.strokes[j].id == nil {
                repeat { top += 1 } while elementIDs.contains("s\(top)")
                ink.strokes[j].id = "s\(top)"
            }
            elements[i].content = .ink(ink)
        }
    }

    /// The first broken rule of the page's stroke ids: two strokes with one id, or a stroke
    /// with an element's id; nil when there is none.
    public var strokeIDProblem: String? {
        var seen = Set<String>()
        var any = false
        for e in elements {
            guard case .ink(let ink) = e.content else { continue }
            for s in ink.strokes {
                guard let id = s.id else { continue }
                any = true
                if !seen.insert(id).inserted { return "duplicate stroke id \"\(id)\"" }
            }
        }
        guard any else { return nil }
        for e in elements where seen.contains(e.id) { return "element id \"\(e.id)\" is also a stroke's id" }
        return nil
    }
}
