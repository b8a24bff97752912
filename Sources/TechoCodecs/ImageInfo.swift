// What a header says about an image, before any pixels are decoded.

/// The size, format and orientation of an encoded image.
public struct ImageInfo: Equatable, Sendable {
    /// The format sniffed from the bytes.
    public var format: ImageFormat
    /// Width as stored in the file, pixels.
    public var width: Int
    /// Height as stored in the file, pixels.
    public var height: Int
    /// EXIF orientation (JPEG only: HEIF's own transformations are applied by the decoder, and
    /// WebP and SVG are stored upright). Default `.up`.
    public var orientation: ImageOrientation
    /// Whether the image has an alpha channel, when the header tells (HEIF, AVIF, WebP, SVG);
    /// nil when it is not read from the header (PNG and JPEG). Default nil.
    public var hasAlpha: Bool?

    public init(format: ImageFormat, width: Int, height: Int, orientation: ImageOrientation = .up, hasAlpha: Bool? = nil) {
        self.hasAlpha = hasAlpha
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
    }

    /// Width as displayed, after the orientation is applied.
    public var naturalWidth: Int { orientation.swapsAxes ? height : width }
    /// Height as displayed, after the orientation is applied.
    public var naturalHeight: Int { orientation.swapsAxes ? width : height }
}
