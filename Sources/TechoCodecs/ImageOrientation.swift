// EXIF orientation (TIFF tag 0x0112): how the stored pixels must be turned to be displayed.

/// The EXIF orientation of a photo: the transform from stored to displayed pixels.
/// Raw values follow EXIF (1-8); anything else is treated as `.up`.
public enum ImageOrientation: Int, Equatable, Sendable, CaseIterable {
    /// 1: no transform.
    case up = 1
    /// 2: mirror horizontally.
    case upMirrored = 2
    /// 3: rotate 180°.
    case down = 3
    /// 4: mirror vertically.
    case downMirrored = 4
    /// 5: transpose (mirror horizontally, then rotate 270° clockwise).
    case leftMirrored = 5
    /// 6: rotate 90° clockwise.
    case right = 6
    /// 7: transverse (mirror horizontally, then rotate 90° clockwise).
    case rightMirrored = 7
    /// 8: rotate 270° clockwise (90° counter-clockwise).
    case left = 8

    /// The orientation for an EXIF value; 0 and out-of-range values become `.up`.
    public init(exifValue: Int) {
        self = ImageOrientation(rawValue: exifValue) ?? .up
    }

    /// True when the displayed image has width and height swapped (values 5-8).
    public var swapsAxes: Bool { rawValue >= 5 }
}
