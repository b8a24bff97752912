// Reversing a path's direction: each subpath traced from its end back to its start, curves with
// their control points swapped, so the shape is the same and every signed area flips.

extension Path {
    /// The same subpaths traced backwards: a closed subpath stays closed, and its signed area
    /// (and winding) changes sign.
    ///
    /// - Complexity: O(elements).
    public func reversed() -> Path {
        var out = Path()
        out.reserveCapacity(elements.count)
        var start = 0
        while start < elements.count {
            // A subpath: a move, drawing commands, and maybe a close.
            var end = start + 1
            while end < elements.count, !Path.isMove(elements[end]) { end += 1 }
            appendReversed(elements[start..<end], to: &out)
            start = end
        }
        return out
    }

    private static func isMove(_ e: PathElement) -> Bool {
        if case .move = e { return true }
        return false
    }

    private static func endPoint(_ e: PathElement) -> Point? {
        switch e {
        case .move(let p), .line(let p), .quad(_, let p), .cubic(_, _, let p): return p
        case .close: return nil
        }
    }

    private func appendReversed(_ sub: ArraySlice<PathElement>, to out: inout Path) {
        var closed = false
        var body = sub
        if let last = body.last, case .close = last {
            closed = true
            body = body.dropLast()
        }
        guard let lastElement = body.last, let tail = Path.endPoint(lastElement) else { return }
        out.move(to: tail)
        var i = body.endIndex - 1
        while i > body.startIndex {
            guard let prev = Path.endPoint(body[i - 1]) else { break }
            switch body[i] {
            case .line: out.line(to: prev)
            case .quad(let c, _): out.quad(to: prev, control: c)
            case .cubic(let c1, let c2, _): out.cubic(to: prev, control1: c2, control2: c1)
            case .move, .close: break
            }
            i -= 1
        }
        if closed { out.close() }
    }
}
