// Colours as callers give them: straight (non-premultiplied) RGBA in 0...1.

/// A straight-alpha RGBA colour with `Double` channels in 0...1.
///
/// Channels outside 0...1 (and NaN) are clamped when the colour is converted to pixels, so any
/// value is safe to draw with.
public struct Color: Hashable, Sendable {
    /// Red, 0...1. Default 0.
    public var r: Double
    /// Green, 0...1. Default 0.
    public var g: Double
    /// Blue, 0...1. Default 0.
    public var b: Double
    /// Alpha (opacity), 0...1. Default 1 (opaque).
    public var a: Double

    @inlinable public init(r: Double = 0, g: Double = 0, b: Double = 0, a: Double = 1) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// A colour from 8-bit straight channels.
    @inlinable public init(r8: UInt8, g8: UInt8, b8: UInt8, a8: UInt8 = 255) {
        self.init(r: Double(r8) / 255, g: Double(g8) / 255, b: Double(b8) / 255, a: Double(a8) / 255)
    }

    /// Opaque black.
    public static let black = Color(r: 0, g: 0, b: 0)
    /// Opaque white.
    public static let white = Color(r: 1, g: 1, b: 1)
    /// Fully transparent (black at alpha 0).
    public static let transparent = Color(r: 0, g: 0, b: 0, a: 0)

    /// The same colour with alpha multiplied by `opacity` (clamped to 0...1).
    @inlinable public func withOpacity(_ opacity: Double) -> Color {
        Color(r: r, g: g, b: b, a: a * clamp01(opacity))
    }

    /// Premultiplied 8-bit channels: `round(c · a · 255)` and `round(a · 255)`, so colour never
    /// exceeds alpha.
    public var premultiplied8: RGBA8 {
        let a = clamp01(self.a)
        let a8 = UInt8((a * 255).rounded())
        func ch(_ c: Double) -> UInt8 { min(a8, UInt8((clamp01(c) * a * 255).rounded())) }
        return RGBA8(r: ch(r), g: ch(g), b: ch(b), a: a8)
    }
}

/// One premultiplied 8-bit pixel: each colour channel is at most `a`.
public struct RGBA8: Hashable, Sendable {
    /// Red, premultiplied (≤ a). Default: set by the initialiser.
    public var r: UInt8
    /// Green, premultiplied (≤ a).
    public var g: UInt8
    /// Blue, premultiplied (≤ a).
    public var b: UInt8
    /// Alpha, 0 (transparent) ... 255 (opaque).
    public var a: UInt8
    @inlinable public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
    public static let transparent = RGBA8(r: 0, g: 0, b: 0, a: 0)
}

/// `x` clamped to 0...1; NaN becomes 0.
@inlinable func clamp01(_ x: Double) -> Double {
    x > 0 ? (x < 1 ? x : 1) : 0
}
