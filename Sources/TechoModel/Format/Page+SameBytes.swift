// Whether two model values are written as the same bytes. `==` is not quite that: Swift
// compares strings by canonical equivalence, so "é" and "e\u{301}" are equal strings with
// different UTF-8 (and the Kelvin sign K equals the letter K). Every string a page holds is
// therefore also compared by its UTF-8; the other fields are numbers, enums and asset names,
// where equal values are written alike (0 and -0 are both written "0").

extension Element {
    /// True when `self` and `other` are written as the same bytes in a page file.
    /// - Complexity: O(1) for an ink layer whose strokes array is shared; otherwise linear in
    ///   the strokes (their points are compared by `==`, which is O(1) for shared arrays).
    func encodesIdentically(_ other: Element) -> Bool {
        guard self == other, id.utf8.elementsEqual(other.id.utf8) else { return false }
        switch (content, other.content) {
        case (.text(let a), .text(let b)):
            return a.text.utf8.elementsEqual(b.text.utf8) && a.font.utf8.elementsEqual(b.font.utf8)
        case (.ink(let a), .ink(let b)):
            for (s, t) in zip(a.strokes, b.strokes) where s.d != nil || t.d != nil {
                guard let x = s.d, let y = t.d, x.utf8.elementsEqual(y.utf8) else { return false }
            }
            return true
        default:
            return true
        }
    }
}

extension Page {
    /// True when the page's own fields (everything but its elements) are written as `other`'s.
    func encodesHeaderIdentically(_ other: Page) -> Bool {
        id == other.id && id.utf8.elementsEqual(other.id.utf8) && size == other.size && dpi == other.dpi && background == other.background
            && margin == other.margin && slots == other.slots
            && zip(slots, other.slots).allSatisfy { $0.name.utf8.elementsEqual($1.name.utf8) }
    }

    /// True when `self` and `other` are written as the same page file.
    func encodesIdentically(_ other: Page) -> Bool {
        encodesHeaderIdentically(other) && elements.count == other.elements.count
            && zip(elements, other.elements).allSatisfy { $0.encodesIdentically($1) }
    }
}
