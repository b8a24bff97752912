// An EXIF orientation as the affine map from a JPEG's stored pixel grid to its displayed one, so
// a vector backend can embed the stored pixels (the file's own bytes) and turn them with the
// image matrix instead of turning the pixels. The eight cases are the index remaps of
// `RGBAImage.applying(_:)`, written for continuous coordinates.

import TechoCodecs
import TechoGeometry

extension ImageOrientation {
    /// The map from the stored grid (`width` × `height`, as the file holds the pixels) to the
    /// displayed grid: the displayed picture is the stored one drawn through this transform.
    public func storedToDisplayed(width w: Double, height h: Double) -> Transform {
        switch self {
        case .up: return .identity
        case .upMirrored: return Transform(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)
        case .down: return Transform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
        case .downMirrored: return Transform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)
        case .leftMirrored: return Transform(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)
        case .right: return Transform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)
        case .rightMirrored: return Transform(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w)
        case .left: return Transform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)
        }
    }
}
