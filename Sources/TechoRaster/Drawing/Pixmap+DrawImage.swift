// Drawing images through affine transforms. The transform is classified first (tiny-skia /
// Skia style): identity and whole-pixel translations are exact copies; everything else samples
// the source at each device pixel centre through the inverse transform (nearest or bilinear),
// after a box prefilter when shrinking, with anti-aliased edges from the exact-area coverage of
// the transformed image rectangle.

import Foundation
import TechoGeometry

/// What kind of mapping a transform is, for choosing a drawing path.
enum TransformKind: Equatable {
    case identity
    case integerTranslate(Int, Int)
    case scaleTranslate
    case affine

    init(_ t: Transform) {
        if t.b == 0 && t.c == 0 {
            if t.a == 1 && t.d == 1 {
                if t.tx == 0 && t.ty == 0 { self = .identity; return }
                if t.tx == t.tx.rounded() && t.ty == t.ty.rounded() && abs(t.tx) < 1e9 && abs(t.ty) < 1e9 {
                    self = .integerTranslate(Int(t.tx), Int(t.ty)); return
                }
            }
            self = .scaleTranslate
            return
        }
        self = .affine
    }
}

extension Pixmap {
    /// Draws `image` with `transform` mapping its pixel coordinates (origin top left) to this
    /// pixmap's.
    ///
    /// Identity and whole-pixel translations copy pixels exactly. Other transforms sample at
    /// each pixel centre with `filter`; shrinking first box-averages the image (see
    /// `ImageFilter`). The edges of the image are anti-aliased by the exact area of the
    /// transformed rectangle. A singular or non-finite transform draws nothing.
    ///
    /// - Parameters:
    ///   - opacity: 0...1 multiplier of the image's alpha. Default 1.
    ///   - blendMode: Default `.sourceOver`.
    ///   - filter: Default `.bilinear`.
    ///   - clip: only pixels inside the mask are drawn. Default none.
    public mutating func draw(
        _ image: Pixmap, transform: Transform, opacity: Double = 1,
        blendMode: BlendMode = .sourceOver, filter: ImageFilter = .bilinear,
        clip: Mask? = nil
    ) {
        switch ImageRoute(image, transform: transform, opacity: opacity, blendMode: blendMode, filter: filter) {
        case .nothing:
            return
        case .copy(let source, let dx, let dy, let alpha):
            blendImage(source, dx: dx, dy: dy, alpha: alpha, mode: blendMode, clip: clip)
        case .sample(let plan):
            let w = width
            data.withUnsafeMutableBufferPointer { dst in
                guard let base = dst.baseAddress else { return }
                plan.rows(filter: filter, clip: clip, width: width, height: height) { y, x, c, row, n in
                    Blend.span(row, coverage: c, count: n, base + 4 * (y * w + x), blendMode)
                }
            }
        }
    }

    /// Blends `image` placed at whole-pixel offset (dx, dy), at `alpha`, through `clip`.
    mutating func blendImage(_ image: Pixmap, dx rawDx: Int, dy rawDy: Int, alpha: UInt8, mode: BlendMode, clip: Mask?) {
        // Offsets far outside any pixmap draw nothing; clamping keeps the sums below from
        // overflowing.
        let far = 1 << 40
        let dx = min(max(rawDx, -far), far), dy = min(max(rawDy, -far), far)
        var box = IntRect(x0: 0, y0: 0, x1: width, y1: height)
            .intersection(IntRect(x0: dx, y0: dy, x1: dx + image.width, y1: dy + image.height))
        if let clip { box = box.intersection(clip.bounds) }
        if box.isEmpty { return }
        let n = box.width, w = width, iw = image.width
        let cov = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
        defer { cov.deallocate() }
        image.data.withUnsafeBufferPointer { src in
            data.withUnsafeMutableBufferPointer { dst in
                guard let s = src.baseAddress, let d = dst.baseAddress else { return }
                for y in box.y0..<box.y1 {
                    cov.update(repeating: alpha, count: n)
                    clip?.apply(to: cov, x: box.x0, y: y, count: n)
                    Blend.span(
                        s + 4 * ((y - dy) * iw + (box.x0 - dx)), coverage: cov, count: n,
                        d + 4 * (y * w + box.x0), mode)
                }
            }
        }
    }

    /// Composites a layer (drawn at full strength into its own transparent pixmap) onto this one
    /// at whole-pixel offset (x, y), once, with `opacity` and `blendMode`: the way to give a
    /// group of drawing operations one opacity, or to keep an eraser inside its ink layer.
    ///
    /// - Parameters:
    ///   - opacity: 0...1. Default 1.
    ///   - blendMode: Default `.sourceOver`.
    public mutating func composite(
        _ layer: Pixmap, x: Int, y: Int, opacity: Double = 1,
        blendMode: BlendMode = .sourceOver
    ) {
        let alpha = UInt8((clamp01(opacity) * 255).rounded())
        blendImage(layer, dx: x, dy: y, alpha: alpha, mode: blendMode, clip: nil)
    }
}

/// How one image draw reaches the pixels: nothing, an exact copy at a whole-pixel offset, or
/// sampling through the inverse transform (after the box prefilter). Decided from the image and
/// the transform alone, so a draw can be resolved before its target exists (`PreparedDraw`).
enum ImageRoute {
    case nothing
    case copy(Pixmap, dx: Int, dy: Int, alpha: UInt8)
    case sample(SamplePlan)

    init(_ image: Pixmap, transform: Transform, opacity: Double, blendMode: BlendMode, filter: ImageFilter) {
        guard transform.isInvertible else { self = .nothing; return }
        let alpha = UInt8((clamp01(opacity) * 255).rounded())
        if alpha == 0 && blendMode != .source && blendMode != .destinationIn { self = .nothing; return }
        // Prefilter: shrink each axis of the image by a whole factor first, so at most a 2x
        // shrink is left to sampling. An axis's shrink is how long one source pixel along it
        // becomes on the page, so a tape pattern squashed along its length is averaged along
        // its length only.
        var source = image
        var toDevice = transform
        var nx = 1, ny = 1
        if filter != .nearest {
            func factor(_ length: Double) -> Int {
                guard length > 0 && length < 0.5 else { return 1 }
                let inverse = min(1 / length, Double(Pixmap.maxDownsampleFactor))
                return filter == .good ? Int(inverse.rounded(.down)) : 1 << Int(log2(inverse).rounded(.down))
            }
            nx = factor((transform.a * transform.a + transform.b * transform.b).squareRoot())
            ny = factor((transform.c * transform.c + transform.d * transform.d).squareRoot())
            if nx > 1 || ny > 1 {
                source = image.downsampled(byX: nx, byY: ny)
                toDevice = Transform.scale(Double(nx), Double(ny)).concatenating(transform)
            }
        }
        // A prefiltered copy whose last column or row stands for a partial box covers a
        // fraction of a device pixel there: only the sampling path anti-aliases that edge.
        var kind = TransformKind(toDevice)
        if image.width % nx != 0 || image.height % ny != 0 { kind = .scaleTranslate }
        switch kind {
        case .identity:
            self = .copy(source, dx: 0, dy: 0, alpha: alpha)
        case .integerTranslate(let dx, let dy):
            self = .copy(source, dx: dx, dy: dy, alpha: alpha)
        case .scaleTranslate, .affine:
            guard let inverse = toDevice.inverted() else { self = .nothing; return }
            // The image's own rectangle (in source units, before any prefilter).
            let rect = Path.rect(Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
            self = .sample(SamplePlan(source: source, inverse: inverse, contours: deviceContours(rect, transform: transform), alpha: alpha))
        }
    }
}

/// A sampled image draw: the (prefiltered) source, device-to-source transform, the image's
/// outline in device space and the opacity.
struct SamplePlan {
    let source: Pixmap
    let inverse: Transform
    let contours: Polylines
    let alpha: UInt8

    /// Calls `body(y, x, coverage, colours, count)` for each device row the image covers in a
    /// `width × height` target: coverage (edge, clip and opacity) and the sampled premultiplied
    /// colours of pixels `x..<x+count`, ready to blend.
    func rows(
        filter: ImageFilter, clip: Mask?, width: Int, height: Int,
        _ body: (Int, Int, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int) -> Void
    ) {
        var box = IntRect(x0: 0, y0: 0, x1: width, y1: height)
        if let clip { box = box.intersection(clip.bounds) }
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 * max(1, width))
        defer { row.deallocate() }
        let alpha = self.alpha, inverse = self.inverse, source = self.source
        source.data.withUnsafeBufferPointer { src in
            guard let s = src.baseAddress else { return }
            Rasterizer.rasterize(contours, rule: .nonZero, clip: box) { y, x, cov in
                guard let c = cov.baseAddress else { return }
                clip?.apply(to: c, x: x, y: y, count: cov.count)
                if alpha != 255 {
                    for i in 0..<cov.count { c[i] = UInt8(truncatingIfNeeded: div255(UInt32(c[i]) * UInt32(alpha))) }
                }
                let u0 = inverse.a * (Double(x) + 0.5) + inverse.c * (Double(y) + 0.5) + inverse.tx
                let v0 = inverse.b * (Double(x) + 0.5) + inverse.d * (Double(y) + 0.5) + inverse.ty
                if filter == .nearest {
                    Sampler.nearestRow(
                        s, width: source.width, height: source.height, u0: u0, v0: v0,
                        du: inverse.a, dv: inverse.b, count: cov.count, into: row)
                } else {
                    Sampler.bilinearRow(
                        s, width: source.width, height: source.height, u0: u0 - 0.5, v0: v0 - 0.5,
                        du: inverse.a, dv: inverse.b, count: cov.count, into: row)
                }
                body(y, x, c, row, cov.count)
            }
        }
    }
}

/// `v` clamped to `low...high`; NaN (from an extreme inverse transform) becomes `low`.
@inline(__always) func clampSample(_ v: Double, _ high: Double, low: Double = 0) -> Double {
    v >= low ? (v <= high ? v : high) : low
}

/// Image sampling kernels, one row at a time with incremental source coordinates.
enum Sampler {
    /// Nearest-neighbour samples along a row: pixel i takes source pixel
    /// `floor(u0 + i·du), floor(v0 + i·dv)`, clamped to the image.
    static func nearestRow(
        _ s: UnsafePointer<UInt8>, width: Int, height: Int, u0: Double, v0: Double,
        du: Double, dv: Double, count: Int, into out: UnsafeMutablePointer<UInt8>
    ) {
        for i in 0..<count {
            let u = u0 + Double(i) * du, v = v0 + Double(i) * dv
            let xi = floorInt(clampSample(u, Double(width - 1)))
            let yi = floorInt(clampSample(v, Double(height - 1)))
            let p = s + 4 * (yi * width + xi), o = out + 4 * i
            o[0] = p[0]; o[1] = p[1]; o[2] = p[2]; o[3] = p[3]
        }
    }

    /// Bilinear samples along a row at source positions `(u0 + i·du, v0 + i·dv)` measured in
    /// pixel-centre units (pixel k's centre at k), edges clamped. Weights are 8-bit fixed point
    /// and the same rounding applies to every channel, so colour never exceeds alpha.
    static func bilinearRow(
        _ s: UnsafePointer<UInt8>, width: Int, height: Int, u0: Double, v0: Double,
        du: Double, dv: Double, count: Int, into out: UnsafeMutablePointer<UInt8>
    ) {
        let maxX = width - 1, maxY = height - 1
        for i in 0..<count {
            let u = u0 + Double(i) * du, v = v0 + Double(i) * dv
            let uc = clampSample(u, Double(width), low: -1), vc = clampSample(v, Double(height), low: -1)
            // floor and round-half-up of non-negative fractions without calls into libm (x86-64's
            // baseline has no rounding instruction): the same values, bit for bit.
            let x0 = floorInt(uc), y0 = floorInt(vc)
            let wx = roundWeight((uc - Double(x0)) * 256), wy = roundWeight((vc - Double(y0)) * 256)
            let xa = min(max(x0, 0), maxX), xb = min(max(x0 + 1, 0), maxX)
            let ya = min(max(y0, 0), maxY), yb = min(max(y0 + 1, 0), maxY)
            let w00 = (256 - wx) * (256 - wy), w01 = wx * (256 - wy), w10 = (256 - wx) * wy, w11 = wx * wy
            // One pixel is four bytes: read each as a little-endian UInt32 and spread its
            // channels over the lanes of a vector.
            let p00 = pixel(s + 4 * (ya * width + xa)), p01 = pixel(s + 4 * (ya * width + xb))
            let p10 = pixel(s + 4 * (yb * width + xa)), p11 = pixel(s + 4 * (yb * width + xb))
            var t = p00 &* w00
            t &+= p01 &* w01
            t &+= p10 &* w10
            t &+= p11 &* w11
            t = (t &+ 32768) &>> 16
            let o = out + 4 * i
            o[0] = UInt8(truncatingIfNeeded: t[0]); o[1] = UInt8(truncatingIfNeeded: t[1])
            o[2] = UInt8(truncatingIfNeeded: t[2]); o[3] = UInt8(truncatingIfNeeded: t[3])
        }
    }

    /// ⌊v⌋ for a finite |v| < 2^62.
    @inline(__always) static func floorInt(_ v: Double) -> Int {
        let t = Int(v)
        return Double(t) > v ? t - 1 : t
    }

    /// `w.rounded()` for 0 ≤ w ≤ 256 (half away from zero, as `rounded()` does).
    @inline(__always) static func roundWeight(_ w: Double) -> UInt32 {
        let t = UInt32(w)
        return w - Double(t) >= 0.5 ? t + 1 : t
    }

    @inline(__always) private static func pixel(_ p: UnsafePointer<UInt8>) -> SIMD4<UInt32> {
        SIMD4(UInt32(p[0]), UInt32(p[1]), UInt32(p[2]), UInt32(p[3]))
    }
}
