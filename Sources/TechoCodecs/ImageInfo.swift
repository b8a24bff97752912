// What a header says about an image, before any pixels are decoded.

/// The size, format and orientation of an encoded image.
public struct ImageInfo: Equatable, Sendable {
    /// The format sniffed from the bytes.
    public var format: ImageFormat
    /// Width as stored in the file, pixels.
    public var width: Int
    /// Height as stored in the file, pixels.
    public var height: Int
    /// EXIF orientation (JPEG only). Default `.up`.
    public var orientation: ImageOrientation

    public init(format: ImageFormat, width: Int, height: Int, orientation: ImageOrientation = .up) {
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
