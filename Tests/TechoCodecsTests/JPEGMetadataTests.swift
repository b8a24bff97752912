// EXIF parsing and GPS removal on JPEG files with a hand-built EXIF block.
import TechoCodecs
import Testing

/// A TIFF (EXIF) block: IFD0 with Make, Orientation, the GPS pointer and optionally a tag after
/// it, then a GPS IFD with version, latitude ref and a latitude stored out of line.
func exifTIFF(littleEndian: Bool, orientation: Int, tagAfterGPS: Bool) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
    func u32(_ v: Int) -> [UInt8] {
        let b = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
        return littleEndian ? b.reversed() : b
    }
    func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] {
        u16(tag) + u16(type) + u32(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
    }
    let n = tagAfterGPS ? 4 : 3
    let ifd0Size = 2 + n * 12 + 4
    let makeOffset = 8 + ifd0Size  // "TechoCam\0" (9 bytes) + pad
    let gpsOffset = makeOffset + 10
    let gpsCount = 3
    let latOffset = gpsOffset + 2 + gpsCount * 12 + 4
    var ifd0 = u16(n)
    ifd0 += entry(0x010F, 2, 9, u32(makeOffset))
    ifd0 += entry(0x0112, 3, 1, u16(orientation))
    ifd0 += entry(0x8825, 4, 1, u32(gpsOffset))
    if tagAfterGPS { ifd0 += entry(0xC4A5, 7, 4, [0x50, 0x49, 0x4D, 0x21]) }
    ifd0 += u32(0)
    var gps = u16(gpsCount)
    gps += entry(0x0000, 1, 4, [2, 3, 0, 0])
    gps += entry(0x0001, 2, 2, Array("N".utf8) + [0])
    gps += entry(0x0002, 5, 3, u32(latOffset))
    gps += u32(0)
    let latitude = u32(0x47_4C_41_54) + u32(1) + u32(0x0A_0B_0C_0D) + u32(1) + u32(0x5A_5B_5C_5D) + u32(100)
    let header: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
    return header + ifd0 + Array("TechoCam".utf8) + [0, 0] + gps + latitude
}

/// `jpeg` with an EXIF APP1 (and optionally an XMP APP1) inserted after SOI.
func withEXIF(_ jpeg: [UInt8], tiff: [UInt8], xmp: String? = nil) -> [UInt8] {
    func segment(_ payload: [UInt8]) -> [UInt8] {
        let len = payload.count + 2
        return [0xFF, 0xE1, UInt8(len >> 8), UInt8(len & 0xFF)] + payload
    }
    var app = segment(Array("Exif".utf8) + [0, 0] + tiff)
    if let xmp { app += segment(Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(xmp.utf8)) }
    return [0xFF, 0xD8] + app + jpeg[2...]
}

func contains(_ hay: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= hay.count else { return false }
    for i in 0...(hay.count - needle.count) where hay[i..<(i + needle.count)].elementsEqual(needle) { return true }
    return false
}

@Suite struct JPEGMetadataTests {
    static let plain: [UInt8] = (try? JPEGEncoder.encode(syntheticImage(width: 40, height: 24, translucent: false).premultiplied())) ?? []

    @Test(arguments: [(true, false), (false, false), (true, true), (false, true)])
    func removingGPSKeepsOrientationAndEverythingElse(littleEndian: Bool, tagAfterGPS: Bool) throws {
        let tiff = exifTIFF(littleEndian: littleEndian, orientation: 6, tagAfterGPS: tagAfterGPS)
        let photo = withEXIF(Self.plain, tiff: tiff)
        #expect(JPEGMetadata.orientation(in: photo) == .right)
        #expect(JPEGMetadata.containsGPS(photo))
        let latitudeBytes: [UInt8] = littleEndian ? [0x54, 0x41, 0x4C, 0x47] : [0x47, 0x4C, 0x41, 0x54]
        #expect(contains(photo, latitudeBytes))

        let clean = JPEGMetadata.removingGPS(photo)
        #expect(clean.count == photo.count, "the EXIF block keeps its size")
        #expect(!JPEGMetadata.containsGPS(clean))
        #expect(!contains(clean, latitudeBytes))
        #expect(!contains(clean, littleEndian ? [0x5D, 0x5C, 0x5B, 0x5A] : [0x5A, 0x5B, 0x5C, 0x5D]))
        #expect(JPEGMetadata.orientation(in: clean) == .right)
        #expect(contains(clean, Array("TechoCam".utf8)))
        if tagAfterGPS { #expect(contains(clean, [0x50, 0x49, 0x4D, 0x21]), "the tag after GPS survives") }
        let a = try ImageDecoder.decodeStraight(photo, name: "gps.jpg")
        let b = try ImageDecoder.decodeStraight(clean, name: "clean.jpg")
        #expect(a.pixels == b.pixels && b.pixels.width == 24, "pixels unchanged, orientation still applied")
        #expect(JPEGMetadata.removingGPS(clean) == clean, "idempotent")
    }

    @Test func xmpWithGPSIsDropped() throws {
        let xmp = "<x:xmpmeta><rdf:Description exif:GPSLatitude=\"47,36N\"/></x:xmpmeta>"
        let photo = withEXIF(Self.plain, tiff: exifTIFF(littleEndian: true, orientation: 1, tagAfterGPS: false), xmp: xmp)
        let clean = JPEGMetadata.removingGPS(photo)
        #expect(!contains(clean, Array("GPSLatitude".utf8)))
        #expect(!JPEGMetadata.containsGPS(clean))
        #expect(try ImageDecoder.decodeStraight(clean, name: "x.jpg").pixels.width == 40)
    }

    @Test func filesWithoutGPSAreUnchanged() throws {
        #expect(JPEGMetadata.removingGPS(Self.plain) == Self.plain)
        let exif = try readFile("\(fixturesDirectory)/exif/Landscape_3.jpg")
        #expect(JPEGMetadata.removingGPS(exif) == exif)
        let png = try readFile("\(fixturesDirectory)/pngsuite/basn6a08.png")
        #expect(JPEGMetadata.removingGPS(png) == png)
    }

    @Test func damagedEXIFIsIgnoredNotTrusted() throws {
        var tiff = exifTIFF(littleEndian: true, orientation: 8, tagAfterGPS: false)
        tiff[4] = 0xF0; tiff[5] = 0xFF  // IFD0 offset far past the block
        let photo = withEXIF(Self.plain, tiff: tiff)
        #expect(JPEGMetadata.orientation(in: photo) == .up)
        #expect(JPEGMetadata.removingGPS(photo) == photo)
        // Every truncation of the EXIF block parses without trapping.
        let good = withEXIF(Self.plain, tiff: exifTIFF(littleEndian: false, orientation: 5, tagAfterGPS: true))
        for cut in stride(from: 0, to: 140, by: 1) {
            let t = Array(exifTIFF(littleEndian: false, orientation: 5, tagAfterGPS: true).prefix(cut))
            let p = withEXIF(Self.plain, tiff: t)
            _ = JPEGMetadata.orientation(in: p)
            _ = JPEGMetadata.removingGPS(p)
        }
        #expect(JPEGMetadata.orientation(in: good) == .leftMirrored)
    }

    @Test func orientationValuesOutOfRangeAreUp() {
        for v in [0, 9, 255, 65535] {
            let photo = withEXIF(Self.plain, tiff: exifTIFF(littleEndian: true, orientation: v, tagAfterGPS: false))
            #expect(JPEGMetadata.orientation(in: photo) == .up, "value \(v)")
        }
        #expect(ImageOrientation(exifValue: 7) == .rightMirrored)
    }
}
