// The surface every drawing call writes into: premultiplied RGBA, 8 bits per channel.

/// A rectangular grid of premultiplied RGBA8 pixels, row-major, top-down, no row padding.
///
/// Premultiplied means each colour channel is already multiplied by alpha (r ≤ a, g ≤ a,
/// b ≤ a), which makes compositing one multiply-add per channel. Codecs convert at the edges:
/// `init(straightRGBA:)` on the way in and `straightRGBA()` on the way out.
///
/// ## Guarantees
/// - `width > 0`, `height > 0`, `data.count == width * height * 4`.
/// - Every pixel satisfies `r, g, b ≤ a` (checked by `checkInvariants()`).
public struct Pixmap: Equatable, Sendable {
    /// Width in pixels (> 0).
    public let width: Int
    /// Height in pixels (> 0).
    public let height: Int
    /// Premultiplied RGBA bytes, `width * height * 4` of them. Default: all zero (transparent).
    public var data: [UInt8]

    /// A transparent pixmap. Traps on a non-positive or overflowing size: callers check
    /// user-supplied sizes against the limits first.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "Pixmap size must be positive, got \(width)x\(height)")
        let (n, o) = width.multipliedReportingOverflow(by: height * 4)
        precondition(!o, "Pixmap size overflows: \(width)x\(height)")
        self.width = width
        self.height = height
        self.data = [UInt8](repeating: 0, count: n)
    }

    /// Wraps premultiplied bytes. Traps if the count does not match the size.
    public init(width: Int, height: Int, premultiplied data: [UInt8]) {
        precondition(
            width > 0 && height > 0 && data.count == width * height * 4,
            "Pixmap data has \(data.count) bytes, expected \(width)x\(height)x4")
        self.width = width
        self.height = height
        self.data = data
    }

    /// Converts straight (non-premultiplied) RGBA bytes, as PNG stores them.
    public init(width: Int, height: Int, straightRGBA: [UInt8]) {
        precondition(
            width > 0 && height > 0 && straightRGBA.count == width * height * 4,
            "RGBA data has \(straightRGBA.count) bytes, expected \(width)x\(height)x4")
        self.width = width
        self.height = height
        var out = straightRGBA
        out.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = p[i + 3]
                if a != 255 {
                    p[i] = premultiply(p[i], a)
                    p[i + 1] = premultiply(p[i + 1], a)
                    p[i + 2] = premultiply(p[i + 2], a)
                }
                i += 4
            }
        }
        self.data = out
    }

    /// Straight-alpha RGBA bytes (colour channels divided by alpha, rounded), as PNG stores them.
    /// A fully transparent pixel becomes (0, 0, 0, 0).
    public func straightRGBA() -> [UInt8] {
        var out = data
        out.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = p[i + 3]
                if a != 255 {
                    p[i] = unpremultiply(p[i], a)
                    p[i + 1] = unpremultiply(p[i + 1], a)
                    p[i + 2] = unpremultiply(p[i + 2], a)
                }
                i += 4
            }
        }
        return out
    }

    /// True when every pixel has alpha 255.
    public var isOpaque: Bool {
        data.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }

    /// The premultiplied pixel at (x, y). Traps outside the pixmap.
    @inlinable public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        let i = (y * width + x) * 4
        return (data[i], data[i + 1], data[i + 2], data[i + 3])
    }

    /// Sets the premultiplied pixel at (x, y). Traps outside the pixmap or if a channel exceeds alpha.
    @inlinable public mutating func setPixel(_ x: Int, _ y: Int, _ px: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        precondition(px.r <= px.a && px.g <= px.a && px.b <= px.a, "premultiplied channel above alpha")
        let i = (y * width + x) * 4
        data[i] = px.r; data[i + 1] = px.g; data[i + 2] = px.b; data[i + 3] = px.a
    }

    /// Fills every pixel with one premultiplied colour.
    public mutating func fill(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        precondition(r <= a && g <= a && b <= a, "premultiplied channel above alpha")
        data.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                p[i] = r; p[i + 1] = g; p[i + 2] = b; p[i + 3] = a
                i += 4
            }
        }
    }

    /// Traps if a guarantee of the type does not hold.
    public func checkInvariants() {
        precondition(width > 0 && height > 0 && data.count == width * height * 4, "Pixmap size mismatch")
        var i = 0
        while i < data.count {
            let a = data[i + 3]
            precondition(
                data[i] <= a && data[i + 1] <= a && data[i + 2] <= a,
                "pixel \(i / 4) not premultiplied: \(data[i]),\(data[i + 1]),\(data[i + 2]),\(a)")
            i += 4
        }
    }
}

/// `round(c · a / 255)`, exactly, with integers only.
@inlinable public func premultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
    let t = UInt32(c) * UInt32(a) + 128
    return UInt8((t + (t >> 8)) >> 8)
}

/// `round(p · 255 / a)` clamped to 255; 0 for a = 0. The inverse of `premultiply` wherever
/// one exists.
@inlinable public func unpremultiply(_ p: UInt8, _ a: UInt8) -> UInt8 {
    if a == 0 { return 0 }
    let v = (UInt32(p) * 255 + UInt32(a) / 2) / UInt32(a)
    return UInt8(min(v, 255))
}
