// What a fill or stroke paints with.

/// A solid paint: a colour, how it blends, and whether edges are anti-aliased.
public struct Paint: Hashable, Sendable {
    /// Straight-alpha colour. Default opaque black.
    public var color: Color
    /// Blend mode. Default `.sourceOver`.
    public var blendMode: BlendMode = .sourceOver
    /// Anti-aliased edges (exact area coverage); when false, a pixel is in or out by whether
    /// its coverage reaches one half. Default true.
    public var antiAlias = true

    public init(color: Color = .black, blendMode: BlendMode = .sourceOver, antiAlias: Bool = true) {
        self.color = color
        self.blendMode = blendMode
        self.antiAlias = antiAlias
    }
}

/// How an image is sampled when drawn through a transform.
public enum ImageFilter: String, Hashable, Sendable, CaseIterable {
    /// The nearest source pixel: blocky, for pixel art and whole-pixel moves.
    case nearest
    /// Bilinear interpolation of the four nearest source pixels. Shrinking by more than 2x first
    /// box-averages the image by a power of two (one mipmap level), so the remaining shrink is
    /// at most 2x and photos never alias.
    case bilinear
    /// Like `.bilinear`, but the prefilter averages by the largest whole factor `n ≤ 1/scale`
    /// (area averaging), so the remaining shrink is under 1/(1 − 1/n) and less detail is lost.
    case good
}
