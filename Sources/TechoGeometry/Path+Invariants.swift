// The structural guarantee of `Path`, checkable by tests.

extension Path {
    /// Traps unless every subpath starts with a `move`: the first element, and every element
    /// after a `close`, is a move (see `Path`'s Guarantees).
    public func checkInvariants() {
        var needMove = true
        for (i, e) in elements.enumerated() {
            if case .move = e {
                needMove = false
                continue
            }
            precondition(!needMove, "path element \(i) (\(e)) does not follow a move")
            if case .close = e { needMove = true }
        }
    }
}
