// Dashing: cutting a path into the pieces under the "on" intervals of a repeating pattern, with
// the semantics of SVG's stroke-dasharray / stroke-dashoffset (as Skia's SkDashPath applies
// them): the pattern restarts on every subpath, runs on across its vertices, and on a closed
// subpath a dash that runs over the start is joined into one piece. Written from scratch over
// flattened polylines.

extension Path {
    /// The most dashes one `dashed` call produces; the rest of the path is left undrawn, so a
    /// pattern of 1e-9 on a path of length 1e9 ends quickly with bounded memory.
    public static let maxDashCount = 100_000

    /// The pieces of this path under the "on" intervals of `pattern`, as open subpaths made of
    /// lines (flattened to within `tolerance`); stroke the result to draw a dashed line.
    ///
    /// `pattern` alternates on and off lengths in path units; an odd count is repeated once, as
    /// in SVG. `phase` is how far into the pattern each subpath starts (negative values count
    /// back from the end). A pattern that is empty, has a negative or non-finite entry, or sums
    /// to zero means a solid line: the path is returned unchanged. A zero-length "on" interval
    /// becomes a one-point subpath (a dot under round or square caps). On a closed subpath the
    /// dash that covers the start is one piece; a closed subpath that is all "on" stays closed.
    ///
    /// - Complexity: O(flattened points + dashes), at most `maxDashCount` dashes.
    public func dashed(pattern: [Double], phase: Double = 0, tolerance: Double = Path.defaultTolerance) -> Path {
        guard let dasher = Dasher(pattern: pattern, phase: phase) else { return self }
        return dasher.dash(flattened(tolerance: tolerance))
    }
}

/// The state of one dashing pass. See `Path.dashed(pattern:phase:tolerance:)`.
struct Dasher {
    let pattern: [Double]
    let startIndex: Int
    let startRemaining: Double

    /// Nil when the pattern means "solid".
    init?(pattern raw: [Double], phase: Double) {
        guard !raw.isEmpty else { return nil }
        var total = 0.0
        for v in raw {
            guard v.isFinite, v >= 0 else { return nil }
            total += v
        }
        guard total > 0, total.isFinite else { return nil }
        pattern = raw.count % 2 == 1 ? raw + raw : raw
        total = raw.count % 2 == 1 ? total * 2 : total
        var offset = phase.isFinite ? phase.truncatingRemainder(dividingBy: total) : 0
        if offset < 0 { offset += total }
        var i = 0
        // Skip whole intervals; a phase landing exactly on the end of a non-empty interval
        // starts the next one (a zero-length "on" interval there is still a dot).
        while i < pattern.count - 1, offset >= pattern[i], pattern[i] > 0 {
            offset -= pattern[i]
            i += 1
        }
        startIndex = i
        startRemaining = Swift.max(0, pattern[i] - offset)
    }

    func dash(_ contours: [Contour]) -> Path {
        var out = Path()
        var dashes = 0
        var advances = 0
        let maxAdvances = 2 * Path.maxDashCount + 2 * pattern.count
        var pts: [Point] = []
        var cur: [Point] = []  // the dash being built
        var head: [Point] = []  // a closed contour's first dash, held back to join the last
        func emit(_ d: [Point]) {
            guard let f = d.first else { return }
            out.move(to: f)
            if d.count == 1 { out.line(to: f) }
            for p in d.dropFirst() { out.line(to: p) }
        }
        contourLoop: for contour in contours {
            pts.removeAll(keepingCapacity: true)
            for p in contour.points where p.isFinite {
                if let l = pts.last, l == p { continue }
                pts.append(p)
            }
            guard let first = pts.first else { continue }
            let closed = contour.isClosed && pts.count > 1
            if closed { pts.append(first) }
            var idx = startIndex
            var remaining = startRemaining
            var on = idx % 2 == 0
            let startsOn = on && remaining > 0
            var holdingHead = closed && startsOn
            var endedOnce = false
            cur.removeAll(keepingCapacity: true)
            head.removeAll(keepingCapacity: true)
            if on { cur.append(first) }

            func finishDash() {
                if holdingHead && !endedOnce {
                    head = cur
                } else {
                    emit(cur)
                }
                endedOnce = true
                dashes += 1
                cur.removeAll(keepingCapacity: true)
            }

            for i in 1..<Swift.max(pts.count, 1) {
                let a = pts[i - 1], b = pts[i]
                let len = a.distance(to: b)
                guard len.isFinite else { continue }
                var pos = 0.0
                while true {
                    if remaining > len - pos {
                        // The interval runs past this segment's end.
                        remaining -= len - pos
                        if on { cur.append(b) }
                        break
                    }
                    pos += remaining
                    let p = len > 0 ? a.lerp(b, pos / len) : b
                    if on {
                        cur.append(p)
                        finishDash()
                        if dashes >= Path.maxDashCount { break contourLoop }
                    } else {
                        cur.append(p)
                    }
                    idx = (idx + 1) % pattern.count
                    remaining = pattern[idx]
                    on = !on
                    advances += 1
                    if advances >= maxAdvances { break contourLoop }
                }
            }
            if pts.count == 1 {
                // A lone point: a dot when the pattern starts on.
                if on { emit([first]) }
                continue
            }
            // An "on" interval that begins exactly at the end of an open contour draws nothing.
            let emptyTail = on && pattern[idx] > 0 && remaining == pattern[idx]
            if on && !cur.isEmpty && !(emptyTail && !(holdingHead && endedOnce)) {
                if holdingHead && !endedOnce {
                    // Never switched off: the whole closed contour is one dash.
                    pts.removeLast()
                    out.append(Path.polyline(pts, closed: true))
                } else if holdingHead {
                    cur.append(contentsOf: head.dropFirst())
                    emit(cur)
                } else {
                    emit(cur)
                }
                dashes += 1
            } else if holdingHead && endedOnce {
                emit(head)
            }
            holdingHead = false
            if dashes >= Path.maxDashCount { break }
        }
        // A dash cut short by the limits.
        if !cur.isEmpty && dashes >= Path.maxDashCount { cur.removeAll() }
        return out
    }
}
