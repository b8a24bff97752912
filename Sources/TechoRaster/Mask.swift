// Clip masks: 8-bit coverage over a rectangle of device pixels.

import TechoGeometry

/// An 8-bit coverage mask for clipping: 255 keeps a pixel, 0 removes it, values between scale
/// what is drawn. It covers the device rectangle `bounds` (pixmap-sized, or just a clip path's
/// bounding box); every pixel outside `bounds` is clipped away.
///
/// ## Guarantees
/// `bounds` is not empty and `data.count == bounds.width * bounds.height`.
public struct Mask: Equatable, Sendable {
    /// The device pixels the mask covers. Default: set by the initialiser.
    public let bounds: IntRect
    /// Coverage, row-major over `bounds`. Default all 0 (everything clipped).
    public var data: [UInt8]

    /// A mask covering `width × height` from the origin, all zero.
    public init(width: Int, height: Int) {
        self.init(bounds: IntRect(x0: 0, y0: 0, x1: width, y1: height))
    }

    /// A mask covering `bounds`, all zero. Traps on an empty rectangle.
    public init(bounds: IntRect) {
        precondition(!bounds.isEmpty, "Mask bounds must not be empty")
        self.bounds = bounds
        data = [UInt8](repeating: 0, count: bounds.width * bounds.height)
    }

    /// A mask with the coverage of `path` (in device space after `transform`), bbox-sized: the
    /// path's bounding box within `0..<width × 0..<height`. A path that covers nothing gives a
    /// 1x1 mask of zero, which clips everything.
    public init(
        filling path: Path, rule: FillRule = .nonZero, transform: Transform = .identity,
        width: Int, height: Int, antiAlias: Bool = true
    ) {
        let contours = deviceContours(path, transform: transform)
        let device = IntRect(x0: 0, y0: 0, x1: width, y1: height)
        var box = IntRect(x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)
        var rows: [(Int, Int, [UInt8])] = []
        Rasterizer.rasterize(contours, rule: rule, antiAlias: antiAlias, clip: device) { y, x, cov in
            rows.append((y, x, Array(cov)))
            box = IntRect(x0: min(box.x0, x), y0: min(box.y0, y), x1: max(box.x1, x + cov.count), y1: max(box.y1, y + 1))
        }
        if rows.isEmpty {
            self.init(bounds: IntRect(x0: 0, y0: 0, x1: 1, y1: 1))
            return
        }
        self.init(bounds: box)
        for (y, x, cov) in rows {
            let base = (y - box.y0) * box.width + (x - box.x0)
            for i in 0..<cov.count { data[base + i] = cov[i] }
        }
    }

    /// The product of two masks (pixels kept by both, coverage multiplied), over the overlap
    /// of their bounds: nested clips, such as a photo slot and the photo's rounded corners.
    /// Disjoint masks give a 1x1 mask of zero.
    public func intersection(_ other: Mask) -> Mask {
        let box = bounds.intersection(other.bounds)
        if box.isEmpty { return Mask(bounds: IntRect(x0: bounds.x0, y0: bounds.y0, x1: bounds.x0 + 1, y1: bounds.y0 + 1)) }
        var out = Mask(bounds: box)
        for y in box.y0..<box.y1 {
            for x in box.x0..<box.x1 {
                out.data[(y - box.y0) * box.width + (x - box.x0)] =
                    UInt8(truncatingIfNeeded: div255(UInt32(coverage(x, y)) * UInt32(other.coverage(x, y))))
            }
        }
        return out
    }

    /// Coverage at device pixel (x, y); 0 outside `bounds`.
    @inlinable public func coverage(_ x: Int, _ y: Int) -> UInt8 {
        guard x >= bounds.x0 && x < bounds.x1 && y >= bounds.y0 && y < bounds.y1 else { return 0 }
        return data[(y - bounds.y0) * bounds.width + (x - bounds.x0)]
    }

    /// Sets the coverage at (x, y) inside `bounds`. Traps outside.
    public mutating func setCoverage(_ x: Int, _ y: Int, _ v: UInt8) {
        precondition(x >= bounds.x0 && x < bounds.x1 && y >= bounds.y0 && y < bounds.y1, "(\(x), \(y)) outside mask")
        data[(y - bounds.y0) * bounds.width + (x - bounds.x0)] = v
    }

    /// Multiplies `count` coverage values for pixels `(x..., y)` by the mask, in place.
    func apply(to cov: UnsafeMutablePointer<UInt8>, x: Int, y: Int, count: Int) {
        guard y >= bounds.y0 && y < bounds.y1 else {
            cov.update(repeating: 0, count: count)
            return
        }
        data.withUnsafeBufferPointer { m in
            let row = (y - bounds.y0) * bounds.width - bounds.x0
            for i in 0..<count {
                let px = x + i
                if px < bounds.x0 || px >= bounds.x1 { cov[i] = 0; continue }
                cov[i] = UInt8(truncatingIfNeeded: div255(UInt32(cov[i]) * UInt32(m[row + px])))
            }
        }
    }

    /// Traps if a guarantee of the type does not hold.
    public func checkInvariants() {
        precondition(!bounds.isEmpty && data.count == bounds.width * bounds.height, "Mask size mismatch")
    }
}

/// Flattening tolerance for filled shapes, in device pixels. A chord cuts
/// `(2/3)·tolerance·perimeter` of area off a curve, which shows as a lighter edge; 0.02 keeps a
/// disc of radius 20 within 0.1% of its area, at about twice the points of the 0.1 default.
let rasterTolerance = 0.02

/// The path in device space, flattened there so curves stay smooth at any scale. Empty when the
/// transform or path is not finite.
func deviceContours(_ path: Path, transform: Transform, tolerance: Double = rasterTolerance) -> Polylines {
    Polylines(path, transform: transform, tolerance: tolerance)
}
