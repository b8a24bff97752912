// Straight-alpha RGBA pixels as codecs exchange them, before premultiplication.
import TechoRaster

/// Straight (non-premultiplied) RGBA8 pixels, row-major, top-down, no padding.
///
/// ## Guarantees
/// - `width > 0`, `height > 0`, `bytes.count == width * height * 4`.
public struct RGBAImage: Equatable, Sendable {
    /// Width in pixels (> 0).
    public let width: Int
    /// Height in pixels (> 0).
    public let height: Int
    /// Straight RGBA bytes.
    public var bytes: [UInt8]

    /// Wraps bytes. Traps when the count does not match the size.
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(
            width > 0 && height > 0 && bytes.count == width * height * 4,
            "RGBAImage has \(bytes.count) bytes, expected \(width)x\(height)x4")
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// The pixels premultiplied, as drawing code wants them.
    public func premultiplied() -> Pixmap { Pixmap(width: width, height: height, straightRGBA: bytes) }

    /// True when every pixel has alpha 255.
    public var isOpaque: Bool {
        bytes.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }

    /// Traps if a guarantee does not hold.
    public func checkInvariants() {
        precondition(width > 0 && height > 0 && bytes.count == width * height * 4, "RGBAImage size mismatch")
    }
}
