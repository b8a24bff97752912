// Porter-Duff and separable blend modes on premultiplied colour (as in the W3C compositing spec).

/// How a drawn (source) colour combines with what is already in the pixmap (destination).
///
/// Formulas are on premultiplied channels `s`, `d` with alphas `sa`, `da`. Partial coverage `c`
/// (anti-aliased edges, clip masks) blends between the old pixel and the full result. Every
/// mode is bounded: pixels outside the drawn shape (or image rectangle) are left alone, so
/// `.destinationIn` and `.source` do not clear the rest of the pixmap.
public enum BlendMode: String, Hashable, Sendable, CaseIterable {
    /// `s + d·(1 − sa)`: paint over. The default.
    case sourceOver
    /// `s`: replace, colour and alpha.
    case source
    /// `0`: clear to transparent, where covered.
    case clear
    /// `d·sa`: keep the destination only where the source is.
    case destinationIn
    /// `d·(1 − sa)`: the eraser: remove the destination where the source is.
    case destinationOut
    /// `s·d + s·(1 − da) + d·(1 − sa)`: darkens; white is neutral (highlighter, washi tape).
    case multiply
    /// `s + d − s·d`: lightens; black is neutral.
    case screen
}
