// Size limits for decoded images (docs/contract.md §10), checked against the header before allocating.

/// The largest image a decoder accepts. Checked against the header, before any pixel memory is
/// allocated, and again by the C shim before libpng or libjpeg allocate image-sized buffers.
public struct ImageLimits: Equatable, Sendable {
    /// Largest width or height in pixels. Default 32768 (so phone panoramas still import).
    public var maxSide: Int
    /// Largest width × height. Default 100 000 000 (100 megapixels).
    public var maxPixels: Int
    /// Largest file read into memory, in bytes. Default 512 MiB.
    public var maxFileBytes: Int

    /// Limits for images placed on a page: 32768 px a side, 100 megapixels, 512 MiB files.
    public static let `default` = ImageLimits()

    public init(maxSide: Int = 32768, maxPixels: Int = 100_000_000, maxFileBytes: Int = 512 << 20) {
        precondition(maxSide > 0 && maxPixels > 0 && maxFileBytes > 0, "limits must be positive")
        self.maxSide = maxSide
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
    }

    /// True when a `width` × `height` image is within the limits.
    public func allows(width: Int, height: Int) -> Bool {
        guard width > 0, height > 0, width <= maxSide, height <= maxSide else { return false }
        let (n, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && n <= maxPixels
    }
}
