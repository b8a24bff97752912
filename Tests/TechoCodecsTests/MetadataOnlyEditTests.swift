// `ImageMetadata.changesOnlyMetadata` decides whether `techo build` may let the render's decode of
// a GPS-cleaned photo stand for the check of the photo as read (docs/decisions/sources.md): true
// for what `removingGPS` makes, false as soon as a byte a decoder reads differs.
import Testing

@testable import TechoCodecs

@Suite struct MetadataOnlyEditTests {
    static let plain: [UInt8] = (try? JPEGEncoder.encode(syntheticImage(width: 40, height: 24, translucent: false).premultiplied())) ?? []

    @Test func aJPEGWithoutItsGPSChangesOnlyMetadata() throws {
        let tiff = exifTIFF(littleEndian: false, orientation: 6, tagAfterGPS: true)
        let gps = withEXIF(Self.plain, tiff: tiff, xmp: "<x:xmpmeta><exif:GPSLatitude>47</exif:GPSLatitude></x:xmpmeta>")
        let clean = try ImageMetadata.removingGPS(gps, format: .jpeg, file: "g.jpg")
        let shorter = clean != gps && clean.count < gps.count
        #expect(shorter, "the EXIF is edited, the XMP dropped")
        let alike = ImageMetadata.changesOnlyMetadata(gps, clean, format: .jpeg)
        #expect(alike)
        #expect(try ImageProbe.check(clean, name: "c") == (try ImageProbe.check(gps, name: "g")))
    }

    /// One byte of anything but APP1 differs: the entropy-coded data, a table, or a byte added.
    @Test(arguments: [-3, 25, -1])
    func aJPEGWithOtherBytesChangedDoesNot(at: Int) throws {
        let gps = withEXIF(Self.plain, tiff: exifTIFF(littleEndian: true, orientation: 1, tagAfterGPS: false))
        var clean = try ImageMetadata.removingGPS(gps, format: .jpeg, file: "g.jpg")
        let before = ImageMetadata.changesOnlyMetadata(gps, clean, format: .jpeg)
        #expect(before)
        if at == -1 {
            clean.append(0)
        } else {
            // From the end: the scan's data; from the start of what follows the EXIF: a table.
            let i = at < 0 ? clean.count + at : JPEGSegments.scan(clean)[1].range.lowerBound + at
            clean[i] ^= 0x10
        }
        let alike = ImageMetadata.changesOnlyMetadata(gps, clean, format: .jpeg)
        #expect(!alike, "byte \(at)")
    }

    @Test func aHEICWithoutItsGPSChangesOnlyMetadata() throws {
        let gps = try readFile("\(fixturesDirectory)/devices/quad-orient6.heic")
        let clean = try ImageMetadata.removingGPS(gps, format: .heif, file: "g.heic")
        #expect(clean != gps)
        let alike = ImageMetadata.changesOnlyMetadata(gps, clean, format: .heif)
        #expect(alike)
    }

    /// A byte of the image's data (in `mdat`, outside the EXIF item) or of the `meta` box.
    @Test(arguments: ["mdat", "meta"])
    func aHEICWithOtherBytesChangedDoesNot(box: String) throws {
        let gps = try readFile("\(fixturesDirectory)/devices/quad-orient6.heic")
        var clean = try ImageMetadata.removingGPS(gps, format: .heif, file: "g.heic")
        let exif = try #require(HEIFMetadata.items(gps).first { $0.type == "Exif" }?.range)
        let b = try #require(BoxReader.boxes(gps, in: 0..<gps.count).first { $0.type == box })
        // The last byte of the box that is not the EXIF item's.
        let i = try #require(b.payload.reversed().first { !exif.contains($0) })
        clean[i] ^= 0x01
        let alike = ImageMetadata.changesOnlyMetadata(gps, clean, format: .heif)
        #expect(!alike, "a byte of \(box)")
        let longer = ImageMetadata.changesOnlyMetadata(gps, clean + [0], format: .heif)
        #expect(!longer, "a byte added")
    }
}
