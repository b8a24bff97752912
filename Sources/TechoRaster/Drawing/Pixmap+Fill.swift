// Filling paths with a solid paint: device-space flattening, exact-area coverage, blend.

import TechoGeometry

extension Pixmap {
    /// Fills `path` (mapped to device space by `transform`) with `paint`.
    ///
    /// Curves are flattened after the transform, so they stay smooth at any scale. Coordinates
    /// far outside the pixmap are clipped; a path with a non-finite coordinate or a non-finite
    /// transform draws nothing.
    ///
    /// - Parameters:
    ///   - rule: which points are inside. Default `.nonZero`.
    ///   - transform: path space to pixels. Default identity.
    ///   - clip: only pixels inside the mask are drawn, scaled by its coverage. Default none.
    public mutating func fill(
        _ path: Path, paint: Paint, rule: FillRule = .nonZero,
        transform: Transform = .identity, clip: Mask? = nil
    ) {
        fill(deviceContours(path, transform: transform), paint: paint, rule: rule, clip: clip)
    }

    /// Fills polylines already in device space (each treated as closed).
    public mutating func fill(contours: [Contour], paint: Paint, rule: FillRule = .nonZero, clip: Mask? = nil) {
        fill(Polylines(contours), paint: paint, rule: rule, clip: clip)
    }

    mutating func fill(_ contours: Polylines, paint: Paint, rule: FillRule, clip: Mask?) {
        let src = paint.color.premultiplied8
        let mode = paint.blendMode
        let w = width
        data.withUnsafeMutableBufferPointer { buf in
            guard let base = buf.baseAddress else { return }
            Pixmap.fillRows(contours, paint: paint, rule: rule, clip: clip, width: width, height: height) { y, x, c, n in
                Blend.solidSpan(src, coverage: c, count: n, base + 4 * (y * w + x), mode)
            }
        }
    }

    /// Calls `body(y, x, coverage, count)` for each row a fill covers in a `width × height`
    /// target, the clip applied: what `fill` blends with the paint's colour.
    static func fillRows(
        _ contours: Polylines, paint: Paint, rule: FillRule, clip: Mask?, width: Int, height: Int,
        _ body: (Int, Int, UnsafeMutablePointer<UInt8>, Int) -> Void
    ) {
        var box = IntRect(x0: 0, y0: 0, x1: width, y1: height)
        if let clip { box = box.intersection(clip.bounds) }
        let src = paint.color.premultiplied8
        let mode = paint.blendMode
        // A transparent paint changes nothing in modes linear in the source.
        if src.a == 0 && (mode == .sourceOver || mode == .destinationOut || mode == .screen || mode == .multiply) { return }
        Rasterizer.rasterize(contours, rule: rule, antiAlias: paint.antiAlias, clip: box) { y, x, cov in
            guard let c = cov.baseAddress else { return }
            clip?.apply(to: c, x: x, y: y, count: cov.count)
            body(y, x, c, cov.count)
        }
    }

    /// The coverage of `path` as a pixmap-sized row list: for tests and masks.
    func coverageRows(_ path: Path, rule: FillRule = .nonZero, transform: Transform = .identity) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        let w = width
        Rasterizer.rasterize(
            deviceContours(path, transform: transform), rule: rule,
            clip: IntRect(x0: 0, y0: 0, x1: width, y1: height)
        ) { y, x, cov in
            for i in 0..<cov.count { out[y * w + x + i] = cov[i] }
        }
        return out
    }
}
