// The vector PDF turns an EXIF-rotated JPEG with the image matrix instead of turning its
// pixels (ImageOrientation+Transform.swift). Checked against the decoder's own pixel remap,
// `RGBAImage.applying`, for all eight orientations: every stored pixel's centre, taken through
// the transform, must land on the displayed pixel that holds its value.
import TechoCodecs
import TechoGeometry
import Testing

@testable import TechoRender

@Suite struct OrientationTransformTests {
    @Test(arguments: ImageOrientation.allCases)
    func theMatrixPutsEachStoredPixelWhereTheDecoderDoes(_ o: ImageOrientation) {
        let w = 5, h = 3
        // Every pixel a different value, so a mirror or a swap of axes cannot pass.
        var bytes = [UInt8]()
        for i in 0..<(w * h) { bytes += [UInt8(i), UInt8(100 + i), 0, 255] }
        let stored = RGBAImage(width: w, height: h, bytes: bytes)
        let shown = stored.applying(o)
        let t = o.storedToDisplayed(width: Double(w), height: Double(h))
        for y in 0..<h {
            for x in 0..<w {
                let c = t.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
                let dx = Int(c.x.rounded(.down)), dy = Int(c.y.rounded(.down))
                #expect((0..<shown.width).contains(dx) && (0..<shown.height).contains(dy), "\(o): (\(x), \(y)) -> \(c)")
                guard (0..<shown.width).contains(dx), (0..<shown.height).contains(dy) else { continue }
                #expect(shown.bytes[(dy * shown.width + dx) * 4] == UInt8(y * w + x), "\(o): (\(x), \(y)) -> (\(dx), \(dy))")
            }
        }
    }
}
