// Blend kernels on premultiplied RGBA8. Division by 255 is exact rounding: the
// `(t + (t >> 8)) >> 8` identity (Jim Blinn, "Three wrongs make a right"). Coverage either
// scales the source (modes linear in the source: over, out, multiply, screen) or interpolates
// between the old pixel and the full result (source, destination-in, clear), as Skia does.
//
// `referenceBlend` is the obvious scalar version; every fast span kernel is tested against it
// for exact equality.

/// `round(x / 255)` for `0 ≤ x ≤ 255 · 255 + 127`, exactly.
@inline(__always) @usableFromInline func div255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
}

/// The slow, obvious blend of one pixel: `src` (premultiplied) at `coverage` over `dst`.
/// Every fast kernel must give exactly this.
func referenceBlend(_ src: RGBA8, _ dst: RGBA8, coverage: UInt8, mode: BlendMode) -> RGBA8 {
    func r255(_ x: Int) -> Int { (2 * x + 255) / 510 }  // round(x / 255), x ≥ 0
    let c = Int(coverage)
    let s = [Int(src.r), Int(src.g), Int(src.b), Int(src.a)]
    let d = [Int(dst.r), Int(dst.g), Int(dst.b), Int(dst.a)]
    var out = [0, 0, 0, 0]
    switch mode {
    case .sourceOver, .destinationOut, .multiply, .screen:
        let sc = s.map { r255($0 * c) }
        let sa = sc[3], da = d[3]
        for i in 0..<4 {
            switch mode {
            case .sourceOver: out[i] = sc[i] + r255(d[i] * (255 - sa))
            case .destinationOut: out[i] = r255(d[i] * (255 - sa))
            case .multiply:
                out[i] =
                    i == 3
                    ? sa + r255(da * (255 - sa))
                    : r255(sc[i] * (255 - da) + d[i] * (255 - sa) + sc[i] * d[i])
            default: out[i] = sc[i] + d[i] - r255(sc[i] * d[i])
            }
        }
    case .source, .destinationIn, .clear:
        for i in 0..<4 {
            let full: Int
            switch mode {
            case .source: full = s[i]
            case .destinationIn: full = r255(d[i] * s[3])
            default: full = 0
            }
            out[i] = r255(full * c + d[i] * (255 - c))
        }
    }
    return RGBA8(r: UInt8(out[0]), g: UInt8(out[1]), b: UInt8(out[2]), a: UInt8(out[3]))
}

/// Fast kernels over spans of pixels.
enum Blend {
    /// Blends one premultiplied source pixel (already scaled by coverage for the linear modes)
    /// into `d[0..<4]`.
    @inline(__always) static func linear(
        _ sr: UInt32, _ sg: UInt32, _ sb: UInt32, _ sa: UInt32,
        _ d: UnsafeMutablePointer<UInt8>, _ mode: BlendMode
    ) {
        let dr = UInt32(d[0]), dg = UInt32(d[1]), db = UInt32(d[2]), da = UInt32(d[3])
        switch mode {
        case .sourceOver:
            let ia = 255 - sa
            d[0] = UInt8(truncatingIfNeeded: sr + div255(dr * ia))
            d[1] = UInt8(truncatingIfNeeded: sg + div255(dg * ia))
            d[2] = UInt8(truncatingIfNeeded: sb + div255(db * ia))
            d[3] = UInt8(truncatingIfNeeded: sa + div255(da * ia))
        case .destinationOut:
            let ia = 255 - sa
            d[0] = UInt8(truncatingIfNeeded: div255(dr * ia))
            d[1] = UInt8(truncatingIfNeeded: div255(dg * ia))
            d[2] = UInt8(truncatingIfNeeded: div255(db * ia))
            d[3] = UInt8(truncatingIfNeeded: div255(da * ia))
        case .multiply:
            let isa = 255 - sa, ida = 255 - da
            d[0] = UInt8(truncatingIfNeeded: div255(sr * ida + dr * isa + sr * dr))
            d[1] = UInt8(truncatingIfNeeded: div255(sg * ida + dg * isa + sg * dg))
            d[2] = UInt8(truncatingIfNeeded: div255(sb * ida + db * isa + sb * db))
            d[3] = UInt8(truncatingIfNeeded: sa + div255(da * isa))
        case .screen:
            d[0] = UInt8(truncatingIfNeeded: sr + dr - div255(sr * dr))
            d[1] = UInt8(truncatingIfNeeded: sg + dg - div255(sg * dg))
            d[2] = UInt8(truncatingIfNeeded: sb + db - div255(sb * db))
            d[3] = UInt8(truncatingIfNeeded: sa + da - div255(sa * da))
        default:
            preconditionFailure("\(mode) is not linear in the source")
        }
    }

    /// Blends `src` (unscaled) at coverage `c` into `d[0..<4]`, for any mode.
    @inline(__always) static func pixel(
        _ sr: UInt32, _ sg: UInt32, _ sb: UInt32, _ sa: UInt32, coverage c: UInt32,
        _ d: UnsafeMutablePointer<UInt8>, _ mode: BlendMode
    ) {
        switch mode {
        case .sourceOver, .destinationOut, .multiply, .screen:
            if c == 255 {
                linear(sr, sg, sb, sa, d, mode)
            } else {
                linear(div255(sr * c), div255(sg * c), div255(sb * c), div255(sa * c), d, mode)
            }
        case .source, .destinationIn, .clear:
            let ic = 255 - c
            for i in 0..<4 {
                let dv = UInt32(d[i])
                let full: UInt32
                switch mode {
                case .source: full = i == 0 ? sr : i == 1 ? sg : i == 2 ? sb : sa
                case .destinationIn: full = div255(dv * sa)
                default: full = 0
                }
                d[i] = UInt8(truncatingIfNeeded: div255(full * c + dv * ic))
            }
        }
    }

    /// `round(v / 255)` per lane, exactly, for lanes ≤ 255 · 255.
    @inline(__always) static func div255x4(_ v: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let t = v &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }

    /// Source-over of one colour through coverage, four channels at once as SIMD lanes.
    static func solidSpanSourceOver(
        _ src: RGBA8, coverage: UnsafePointer<UInt8>, count: Int,
        _ d: UnsafeMutablePointer<UInt8>
    ) {
        let s = SIMD4<UInt32>(UInt32(src.r), UInt32(src.g), UInt32(src.b), UInt32(src.a))
        let full = SIMD4<UInt8>(src.r, src.g, src.b, src.a)
        let fullInverse = 255 - UInt32(src.a)
        let raw = UnsafeMutableRawPointer(d)
        var i = 0
        while i < count {
            let c = UInt32(coverage[i])
            if c == 0 { i += 1; continue }
            let o = 4 * i
            if c == 255 && src.a == 255 {
                raw.storeBytes(of: full, toByteOffset: o, as: SIMD4<UInt8>.self)
                i += 1
                continue
            }
            let sc = c == 255 ? s : div255x4(s &* c)
            let ia = c == 255 ? fullInverse : 255 - sc[3]
            let dv = SIMD4<UInt32>(truncatingIfNeeded: raw.load(fromByteOffset: o, as: SIMD4<UInt8>.self))
            let r = sc &+ div255x4(dv &* ia)
            raw.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: r), toByteOffset: o, as: SIMD4<UInt8>.self)
            i += 1
        }
    }

    /// Blends one solid colour through a coverage span into `count` pixels at `d`.
    static func solidSpan(
        _ src: RGBA8, coverage: UnsafePointer<UInt8>, count: Int,
        _ d: UnsafeMutablePointer<UInt8>, _ mode: BlendMode
    ) {
        if mode == .sourceOver && src.a != 255 {
            solidSpanSourceOver(src, coverage: coverage, count: count, d)
            return
        }
        let sr = UInt32(src.r), sg = UInt32(src.g), sb = UInt32(src.b), sa = UInt32(src.a)
        // Opaque source-over (and source) at full coverage is a plain store: write runs of it
        // as 32-bit words.
        let storesOpaque = (mode == .sourceOver && sa == 255) || mode == .source
        let word = UInt32(src.r) | UInt32(src.g) << 8 | UInt32(src.b) << 16 | UInt32(src.a) << 24
        var i = 0
        while i < count {
            let c = UInt32(coverage[i])
            if c == 0 { i += 1; continue }
            if c == 255 && storesOpaque {
                var j = i + 1
                while j < count && coverage[j] == 255 { j += 1 }
                UnsafeMutableRawPointer(d + 4 * i).bindMemory(to: UInt32.self, capacity: j - i)
                    .update(repeating: word.littleEndian, count: j - i)
                i = j
                continue
            }
            pixel(sr, sg, sb, sa, coverage: c, d + 4 * i, mode)
            i += 1
        }
    }

    /// Source-over of per-pixel sources through coverage, as SIMD lanes.
    static func spanSourceOver(
        _ src: UnsafePointer<UInt8>, coverage: UnsafePointer<UInt8>, count: Int,
        _ d: UnsafeMutablePointer<UInt8>
    ) {
        let raw = UnsafeMutableRawPointer(d), sraw = UnsafeRawPointer(src)
        for i in 0..<count {
            let c = UInt32(coverage[i])
            if c == 0 { continue }
            let o = 4 * i
            let s8 = sraw.load(fromByteOffset: o, as: SIMD4<UInt8>.self)
            if s8[3] == 0 { continue }
            if s8[3] == 255 && c == 255 {
                raw.storeBytes(of: s8, toByteOffset: o, as: SIMD4<UInt8>.self)
                continue
            }
            var sc = SIMD4<UInt32>(truncatingIfNeeded: s8)
            if c != 255 { sc = div255x4(sc &* c) }
            let dv = SIMD4<UInt32>(truncatingIfNeeded: raw.load(fromByteOffset: o, as: SIMD4<UInt8>.self))
            let r = sc &+ div255x4(dv &* (255 - sc[3]))
            raw.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: r), toByteOffset: o, as: SIMD4<UInt8>.self)
        }
    }

    /// Blends a span of per-pixel premultiplied sources at per-pixel coverage into `d`.
    static func span(
        _ src: UnsafePointer<UInt8>, coverage: UnsafePointer<UInt8>, count: Int,
        _ d: UnsafeMutablePointer<UInt8>, _ mode: BlendMode
    ) {
        if mode == .sourceOver {
            spanSourceOver(src, coverage: coverage, count: count, d)
            return
        }
        for i in 0..<count {
            let c = UInt32(coverage[i])
            if c == 0 { continue }
            let s = src + 4 * i
            let sa = UInt32(s[3])
            if sa == 255 && c == 255 && (mode == .sourceOver || mode == .source) {
                let p = d + 4 * i
                p[0] = s[0]; p[1] = s[1]; p[2] = s[2]; p[3] = 255
                continue
            }
            if sa == 0 && (mode == .sourceOver || mode == .destinationOut || mode == .screen) { continue }
            pixel(UInt32(s[0]), UInt32(s[1]), UInt32(s[2]), sa, coverage: c, d + 4 * i, mode)
        }
    }
}
