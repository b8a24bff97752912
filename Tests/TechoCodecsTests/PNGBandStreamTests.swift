// A PNG encoded band by band while its image is drawn (`PNGEncoder.BandStream`): byte for byte
// the file a whole encode writes, whichever rows the image held below each band when it was
// handed over; a band that is not opaque gives the image back to a whole encode.
import TechoRaster
import Testing

@testable import TechoCodecs

@Suite struct PNGBandStreamTests {
    @Test(arguments: [(300, 8000, 6), (1748, 2480, 6), (97, 3, 9), (5000, 1, 1)])
    func aStreamedFileIsTheWholeEncodesBytes(width: Int, height: Int, level: Int) throws {
        let image = PNGPatchTests.image(width: width, height: height, seed: 7)
        let whole = try PNGEncoder.encode(image, dpi: 300, level: level)
        let stream = PNGEncoder.BandStream(width: width, height: height, dpi: 300, level: level)
        #expect(stream.bands == PNGEncoder.bands(width: width, height: height))
        // Each band is handed over while the rows below it still hold something else, as in a
        // page being drawn: they must not be read.
        var drawing = PNGPatchTests.image(width: width, height: height, seed: 8)
        for (k, rows) in stream.bands.enumerated() {
            let bytes = rows.lowerBound * width * 4..<rows.upperBound * width * 4
            drawing.data.replaceSubrange(bytes, with: image.data[bytes])
            #expect(stream.add(k, of: drawing))
        }
        #expect(stream.finish() == whole)
    }

    @Test func aBandThatIsNotOpaqueEndsTheStream() throws {
        var image = PNGPatchTests.image(width: 300, height: 8000, seed: 7)
        let stream = PNGEncoder.BandStream(width: 300, height: 8000, dpi: nil)
        #expect(stream.bands.count > 2)
        #expect(stream.add(0, of: image))
        image.data[4 * (300 * stream.bands[1].lowerBound + 10) + 3] = 254
        #expect(!stream.add(1, of: image))
        #expect(!stream.add(2, of: image))
        #expect(stream.finish() == nil)
    }

    @Test func aBandNeverHandedOverLeavesNoFile() throws {
        let image = PNGPatchTests.image(width: 300, height: 8000, seed: 7)
        let stream = PNGEncoder.BandStream(width: 300, height: 8000, dpi: nil)
        for k in stream.bands.indices.dropLast() { #expect(stream.add(k, of: image)) }
        #expect(stream.finish() == nil)
    }
}
