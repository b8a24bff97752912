// A drawing call resolved before its target exists: everything that does not depend on the
// pixels underneath (flattening, coverage, clip, opacity, image sampling) done up front, on any
// thread, leaving only the blend. A compositor makes these in parallel and applies them to the
// page in order; `Pixmap.apply` runs the same blend on the same inputs as the direct call, so
// the pixels are the same bit for bit.

import TechoGeometry

/// A fill or image draw for a `width × height` target, ready to blend.
///
/// ## Guarantees
/// Applying it to a pixmap of that size gives exactly the pixels of the call it was made from
/// (`Pixmap.fill` or `Pixmap.draw` with the same arguments).
public struct PreparedDraw: Sendable {
    enum Kind: Sendable {
        case nothing
        /// A whole-pixel copy: blended straight from the source.
        case copy(Pixmap, dx: Int, dy: Int, alpha: UInt8, clip: Mask?)
        /// Rows of coverage and, for images, sampled colours.
        case rows(solid: RGBA8?, starts: [Int32], coverage: [UInt8], colors: [UInt8])
    }

    let kind: Kind
    let mode: BlendMode
    /// The target size it was made for.
    public let width: Int, height: Int

    /// Bytes held (coverage, sampled colours, or the copied source).
    public var bytes: Int {
        switch kind {
        case .nothing: return 0
        case .copy(let p, _, _, _, let clip): return p.data.count + (clip?.data.count ?? 0)
        case .rows(_, let starts, let coverage, let colors): return starts.count * 4 + coverage.count + colors.count
        }
    }

    /// `Pixmap.fill(path, paint:rule:transform:clip:)` on a `width × height` target.
    public init(
        filling path: Path, paint: Paint, rule: FillRule = .nonZero, transform: Transform = .identity,
        clip: Mask? = nil, width: Int, height: Int
    ) {
        self.width = width
        self.height = height
        mode = paint.blendMode
        var starts: [Int32] = [], coverage: [UInt8] = []
        Pixmap.fillRows(
            deviceContours(path, transform: transform), paint: paint, rule: rule, clip: clip,
            width: width, height: height
        ) { y, x, c, n in
            starts.append(contentsOf: [Int32(y), Int32(x), Int32(n)])
            coverage.append(contentsOf: UnsafeBufferPointer(start: c, count: n))
        }
        kind = .rows(solid: paint.color.premultiplied8, starts: starts, coverage: coverage, colors: [])
    }

    /// `Pixmap.draw(image, transform:opacity:blendMode:filter:clip:)` on a `width × height` target.
    public init(
        drawing image: Pixmap, transform: Transform, opacity: Double = 1, blendMode: BlendMode = .sourceOver,
        filter: ImageFilter = .bilinear, clip: Mask? = nil, width: Int, height: Int
    ) {
        self.width = width
        self.height = height
        mode = blendMode
        switch ImageRoute(image, transform: transform, opacity: opacity, blendMode: blendMode, filter: filter) {
        case .nothing:
            kind = .nothing
        case .copy(let source, let dx, let dy, let alpha):
            kind = .copy(source, dx: dx, dy: dy, alpha: alpha, clip: clip)
        case .sample(let plan):
            var starts: [Int32] = [], coverage: [UInt8] = [], colors: [UInt8] = []
            plan.rows(filter: filter, clip: clip, width: width, height: height) { y, x, c, row, n in
                starts.append(contentsOf: [Int32(y), Int32(x), Int32(n)])
                coverage.append(contentsOf: UnsafeBufferPointer(start: c, count: n))
                colors.append(contentsOf: UnsafeBufferPointer(start: row, count: 4 * n))
            }
            kind = .rows(solid: nil, starts: starts, coverage: coverage, colors: colors)
        }
    }
}

extension Pixmap {
    /// Blends a prepared draw made for this pixmap's size. Traps on another size.
    public mutating func apply(_ d: PreparedDraw) {
        precondition(d.width == width && d.height == height, "a draw prepared for \(d.width)x\(d.height) applied to \(width)x\(height)")
        switch d.kind {
        case .nothing:
            return
        case .copy(let source, let dx, let dy, let alpha, let clip):
            blendImage(source, dx: dx, dy: dy, alpha: alpha, mode: d.mode, clip: clip)
        case .rows(let solid, let starts, let coverage, let colors):
            let w = width
            data.withUnsafeMutableBufferPointer { dst in
                coverage.withUnsafeBufferPointer { cov in
                    colors.withUnsafeBufferPointer { col in
                        guard let base = dst.baseAddress, let c = cov.baseAddress else { return }
                        var offset = 0
                        var k = 0
                        while k < starts.count {
                            let y = Int(starts[k]), x = Int(starts[k + 1]), n = Int(starts[k + 2])
                            let target = base + 4 * (y * w + x)
                            if let solid {
                                Blend.solidSpan(solid, coverage: c + offset, count: n, target, d.mode)
                            } else if let s = col.baseAddress {
                                Blend.span(s + 4 * offset, coverage: c + offset, count: n, target, d.mode)
                            }
                            offset += n
                            k += 3
                        }
                    }
                }
            }
        }
    }
}
