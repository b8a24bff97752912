// Exact-area coverage by signed-area accumulation, after font-rs (Raph Levien) and libart: every
// line segment adds, to each cell it crosses, the signed area it sweeps to the cell's right
// edge; a running sum along each row then gives each pixel's covered area. No supersampling.
//
// Robustness: edges are clipped to the device box before they touch memory. Parts above or
// below are dropped; parts left or right become vertical edges on the box's side, which keeps
// the winding of every pixel inside. Work is sized to the shape's clipped bounding box, so a
// path with 1e300 coordinates costs no more than one that covers the box, and non-finite paths
// draw nothing. The float buffer covers one band of rows at a time (about a megabyte), with
// edges bucketed by band, so even a page-sized shape needs little memory.

import Foundation
import TechoGeometry

/// An integer pixel rectangle `[x0, x1) × [y0, y1)`: device pixels, y down. Empty when
/// `x1 <= x0` or `y1 <= y0`.
public struct IntRect: Hashable, Sendable {
    /// Left column (inclusive). Default: set by the initialiser.
    public var x0: Int
    /// Top row (inclusive).
    public var y0: Int
    /// Right column (exclusive).
    public var x1: Int
    /// Bottom row (exclusive).
    public var y1: Int
    @inlinable public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
    }
    @inlinable public var width: Int { x1 - x0 }
    @inlinable public var height: Int { y1 - y0 }
    @inlinable public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    /// The overlap (possibly empty).
    @inlinable public func intersection(_ o: IntRect) -> IntRect {
        IntRect(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }
}

/// Turns closed polylines into per-row 8-bit coverage.
enum Rasterizer {
    /// Calls `body(y, x, coverage)` for each row of the shape inside `clip`, where
    /// `coverage[i]` is the covered fraction (0...255) of pixel `(x + i, y)`. Rows come top
    /// down; spans are trimmed of zero coverage at both ends but may hold zeros inside.
    /// Every contour is treated as closed.
    ///
    /// - Complexity: O(edges + covered rows × span width); memory O(clipped bbox area) floats.
    static func rasterize(
        _ contours: [Contour], rule: FillRule, antiAlias: Bool = true, clip: IntRect,
        _ body: (_ y: Int, _ x: Int, _ coverage: UnsafeMutableBufferPointer<UInt8>) -> Void
    ) {
        rasterize(Polylines(contours), rule: rule, antiAlias: antiAlias, clip: clip, body)
    }

    /// As above, for polylines in flat storage.
    static func rasterize(
        _ poly: Polylines, rule: FillRule, antiAlias: Bool = true, clip: IntRect,
        _ body: (_ y: Int, _ x: Int, _ coverage: UnsafeMutableBufferPointer<UInt8>) -> Void
    ) {
        guard !clip.isEmpty && !poly.isEmpty else { return }
        // Clamp in Double before converting: bounds may be anywhere up to ±1.8e308.
        func clamped(_ v: Double, _ lo: Int, _ hi: Int) -> Int { Int(min(max(v, Double(lo)), Double(hi))) }
        let bx0 = clamped(floor(poly.minX), clip.x0, clip.x1), bx1 = clamped(ceil(poly.maxX), clip.x0, clip.x1)
        let by0 = clamped(floor(poly.minY), clip.y0, clip.y1), by1 = clamped(ceil(poly.maxY), clip.y0, clip.y1)
        guard bx1 > bx0 && by1 > by0 else { return }
        let w = bx1 - bx0, h = by1 - by0
        var edges = EdgeList(width: w, height: h)
        edges.edges.reserveCapacity(poly.xs.count + 8)
        let ox = Double(bx0), oy = Double(by0)
        poly.xs.withUnsafeBufferPointer { xs in
            poly.ys.withUnsafeBufferPointer { ys in
                var start = 0
                for end in poly.ends {
                    var px = xs[end - 1] - ox, py = ys[end - 1] - oy
                    for i in start..<end {
                        let qx = xs[i] - ox, qy = ys[i] - oy
                        edges.addClipped(px, py, qx, qy)
                        px = qx; py = qy
                    }
                    start = end
                }
            }
        }
        if edges.edges.isEmpty { return }
        // Accumulate in bands of rows so the buffer stays small (about a megabyte) however big
        // the shape: a page-sized background costs one band, not a page of floats.
        let bandHeight = max(1, min(h, (1 << 18) / (w + 2)))
        let bands = (h + bandHeight - 1) / bandHeight
        // Bucket edges by the band of their top (a counting sort).
        var firstInBand = [Int](repeating: 0, count: bands + 1)
        for e in edges.edges { firstInBand[min(bands - 1, Int(e.y0) / bandHeight) + 1] += 1 }
        for b in 0..<bands { firstInBand[b + 1] += firstInBand[b] }
        var order = [Int32](repeating: 0, count: edges.edges.count)
        var fill = firstInBand
        for (i, e) in edges.edges.enumerated() {
            let b = min(bands - 1, Int(e.y0) / bandHeight)
            order[fill[b]] = Int32(i)
            fill[b] += 1
        }
        let acc = Accumulator(width: w, height: bandHeight)
        defer { acc.free() }
        var active: [Int32] = []
        edges.edges.withUnsafeBufferPointer { all in
            for b in 0..<bands {
                let rowLo = b * bandHeight, rowHi = min(h, rowLo + bandHeight)
                for k in firstInBand[b]..<firstInBand[b + 1] { active.append(order[k]) }
                var keep = 0
                for k in 0..<active.count {
                    let e = all[Int(active[k])]
                    acc.line(e, rowLo: rowLo, rowHi: rowHi)
                    if e.y1 > Float(rowHi) { active[keep] = active[k]; keep += 1 }
                }
                active.removeLast(active.count - keep)
                acc.emit(rows: rowHi - rowLo, rule: rule, antiAlias: antiAlias) { y, x, cov in
                    body(y + rowLo + by0, x + bx0, cov)
                }
            }
        }
    }
}

/// One edge in box-local coordinates, top to bottom: starts at (x0, y0), ends at y1, moving
/// `dxdy` in x per unit of y; `dir` is +1 for an edge that went down, -1 for one that went up.
struct Edge {
    var x0: Float, y0: Float, y1: Float, dxdy: Float, dir: Float
}

/// Edges clipped to the box `[0, width] × [0, height]`.
struct EdgeList {
    let width: Int, height: Int
    var edges: [Edge] = []

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Adds an edge after clipping it to the box. Parts above or below are dropped; parts left
    /// or right become vertical edges on that side (clamping x), which keeps the winding of
    /// every pixel inside.
    mutating func addClipped(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        if y0 == y1 { return }
        let h = Double(height), w = Double(width)
        var (ax, ay, bx, by) = (x0, y0, x1, y1)
        let up = ay > by
        if up { swap(&ax, &bx); swap(&ay, &by) }
        if by <= 0 || ay >= h { return }
        if ay < 0 { ax = lerpAt(ax, ay, bx, by, 0); ay = 0 }
        if by > h { bx = lerpAt(ax, ay, bx, by, h); by = h }
        if up { swap(&ax, &bx); swap(&ay, &by) }
        if !(ay != by) { return }
        if ax >= 0 && ax <= w && bx >= 0 && bx <= w { line(ax, ay, bx, by); return }
        var tA = 2.0, tB = 2.0
        if (ax < 0) != (bx < 0) { tA = crossing(ax, bx, 0) }
        if (ax > w) != (bx > w) { tB = crossing(ax, bx, w) }
        if tB < tA { swap(&tA, &tB) }
        var px = min(max(ax, 0), w), py = ay
        if tA <= 1 {
            let qy = ay * (1 - tA) + by * tA, qx = min(max(ax * (1 - tA) + bx * tA, 0), w)
            line(px, py, qx, qy)
            px = qx; py = qy
        }
        if tB <= 1 {
            let qy = ay * (1 - tB) + by * tB, qx = min(max(ax * (1 - tB) + bx * tB, 0), w)
            line(px, py, qx, qy)
            px = qx; py = qy
        }
        line(px, py, min(max(bx, 0), w), by)
    }

    /// The parameter where the segment from `a` to `b` reaches `c`, overflow-safe for any
    /// finite input.
    @inline(__always) private func crossing(_ a: Double, _ b: Double, _ c: Double) -> Double {
        min(max((c * 0.5 - a * 0.5) / (b * 0.5 - a * 0.5), 0), 1)
    }

    /// x where the segment reaches `y = c`, overflow-safe for any finite input.
    @inline(__always) private func lerpAt(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ c: Double) -> Double {
        let t = min(max((c * 0.5 - y0 * 0.5) / (y1 * 0.5 - y0 * 0.5), 0), 1)
        return x0 * (1 - t) + x1 * t
    }

    /// Stores a line already inside the box.
    @inline(__always) private mutating func line(_ px0: Double, _ py0: Double, _ px1: Double, _ py1: Double) {
        let down = py0 < py1
        let (x0, y0, x1, y1) =
            down
            ? (Float(px0), Float(py0), Float(px1), Float(py1))
            : (Float(px1), Float(py1), Float(px0), Float(py0))
        if !(y0 < y1) { return }
        // A height near Float's smallest subnormal makes the slope infinite; such an edge
        // covers no measurable area, and keeping it would turn x into NaN.
        let dxdy = (x1 - x0) / (y1 - y0)
        if !dxdy.isFinite { return }
        edges.append(Edge(x0: x0, y0: y0, y1: y1, dxdy: dxdy, dir: down ? 1 : -1))
    }
}

/// The signed-area buffer for one band of rows: `width + 2` cells per row (edges on the right
/// side land in the spare cells), plus the touched range of each row so untouched cells are
/// never read, and are cleared after each band.
struct Accumulator {
    let width: Int, height: Int, stride: Int
    let cells: UnsafeMutablePointer<Float>
    let rowMin: UnsafeMutablePointer<Int32>
    let rowMax: UnsafeMutablePointer<Int32>
    let out: UnsafeMutablePointer<UInt8>

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = width + 2
        cells = .allocate(capacity: stride * height)
        cells.initialize(repeating: 0, count: stride * height)
        rowMin = .allocate(capacity: height)
        rowMin.initialize(repeating: Int32.max, count: height)
        rowMax = .allocate(capacity: height)
        rowMax.initialize(repeating: -1, count: height)
        out = .allocate(capacity: width + 1)
    }

    func free() {
        cells.deallocate()
        rowMin.deallocate()
        rowMax.deallocate()
        out.deallocate()
    }

    /// Accumulates the part of edge `e` within rows `rowLo..<rowHi` into this band (row
    /// `rowLo` is the band's row 0), as font-rs's `draw_line` does.
    @inline(__always) func line(_ e: Edge, rowLo: Int, rowHi: Int) {
        let top = max(e.y0, Float(rowLo)), bottom = min(e.y1, Float(rowHi))
        if !(top < bottom) { return }
        let dxdy = e.dxdy, dir = e.dir
        var x = e.x0 + dxdy * (top - e.y0)
        let yStart = Int(top)
        let yEnd = min(rowHi, Int(ceilFloat(bottom)))
        if yStart >= yEnd { return }
        let maxCell = stride - 1
        for y in yStart..<yEnd {
            let r = y - rowLo
            let row = cells + r * stride
            let fy = Float(y)
            let dy = min(fy + 1, bottom) - max(fy, top)
            let xnext = x + dxdy * dy
            let d = dy * dir
            let (xa, xb) = x < xnext ? (x, xnext) : (xnext, x)
            let xaFloor = floorFloat(xa)
            let xa_i = min(max(Int(xaFloor), 0), maxCell - 1)
            let xbCeil = ceilFloat(xb)
            let xb_i = min(max(Int(xbCeil), 0), maxCell)
            var hi = xa_i + 1
            if xb_i <= xa_i + 1 {
                let xmf = 0.5 * (x + xnext) - xaFloor
                row[xa_i] += d - d * xmf
                row[xa_i + 1] += d * xmf
            } else {
                let s = 1 / (xb - xa)
                let xaf = xa - xaFloor
                let a0 = 0.5 * s * (1 - xaf) * (1 - xaf)
                let xbf = xb - xbCeil + 1
                let am = 0.5 * s * xbf * xbf
                row[xa_i] += d * a0
                if xb_i == xa_i + 2 {
                    row[xa_i + 1] += d * (1 - a0 - am)
                } else {
                    let a1 = s * (1.5 - xaf)
                    row[xa_i + 1] += d * (a1 - a0)
                    var xi = xa_i + 2
                    while xi < xb_i - 1 { row[xi] += d * s; xi += 1 }
                    let a2 = a1 + Float(xb_i - xa_i - 3) * s
                    row[xb_i - 1] += d * (1 - a2 - am)
                }
                row[xb_i] += d * am
                hi = xb_i
            }
            if Int32(xa_i) < rowMin[r] { rowMin[r] = Int32(xa_i) }
            if Int32(hi) > rowMax[r] { rowMax[r] = Int32(hi) }
            x = xnext
        }
    }

    /// Runs the prefix sums over the first `rows` rows, hands each row's coverage to
    /// `body(row, x, coverage)`, and clears what was touched for the next band.
    func emit(rows: Int, rule: FillRule, antiAlias: Bool, _ body: (Int, Int, UnsafeMutableBufferPointer<UInt8>) -> Void) {
        for y in 0..<rows {
            let lo = Int(rowMin[y])
            guard lo != Int(Int32.max) else { continue }
            let touchedEnd = Int(rowMax[y])
            let hi = min(width, touchedEnd + 1)
            let row = cells + y * stride
            var sum: Float = 0
            var first = -1, last = -1
            if lo < hi {
                for x in lo..<hi {
                    sum += row[x]
                    let c = coverageByte(sum, rule: rule, antiAlias: antiAlias)
                    out[x - lo] = c
                    if c != 0 { if first < 0 { first = x }; last = x }
                }
            }
            (row + lo).update(repeating: 0, count: touchedEnd + 1 - lo)
            rowMin[y] = Int32.max
            rowMax[y] = -1
            if first < 0 { continue }
            body(y, first, UnsafeMutableBufferPointer(start: out + (first - lo), count: last - first + 1))
        }
    }
}

/// Accumulated signed area to an 8-bit coverage: nonzero takes `min(1, |a|)`; even-odd folds
/// `|a|` into a triangle wave of period 2 (as FreeType's gray rasterizer does).
@inline(__always) func coverageByte(_ a: Float, rule: FillRule, antiAlias: Bool) -> UInt8 {
    var v = abs(a)
    if rule == .evenOdd {
        v = v.truncatingRemainder(dividingBy: 2)
        if v > 1 { v = 2 - v }
    } else if v > 1 {
        v = 1
    }
    if !antiAlias { return v >= 0.5 ? 255 : 0 }
    return UInt8(v * 255 + 0.5)
}

/// `v.rounded(.down)` without a call into libm (x86-64's baseline has no rounding
/// instruction): the same value for every float (whole above 2^23, NaN passed through).
@inline(__always) func floorFloat(_ v: Float) -> Float {
    guard abs(v) < 8_388_608 else { return v }
    let t = Float(Int32(v))
    return t > v ? t - 1 : t
}

/// `v.rounded(.up)`, likewise.
@inline(__always) func ceilFloat(_ v: Float) -> Float {
    guard abs(v) < 8_388_608 else { return v }
    let t = Float(Int32(v))
    return t < v ? t + 1 : t
}
