// A bounds-checked walk over the marker segments of a JPEG header (ITU T.81 Annex B), up to SOS.

/// One marker segment before the image data: its marker byte and where its bytes are.
struct JPEGSegment {
    /// The marker code (the byte after 0xFF), e.g. 0xE1 for APP1.
    let marker: UInt8
    /// The whole segment including 0xFF, marker and length.
    let range: Range<Int>
    /// The payload after the two length bytes.
    let payload: Range<Int>
}

enum JPEGSegments {
    /// The segments between SOI and the first SOS (or EOI, or the first malformed byte).
    static func scan(_ bytes: [UInt8]) -> [JPEGSegment] {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return [] }
        var out: [JPEGSegment] = []
        var i = 2
        while i + 1 < bytes.count {
            guard bytes[i] == 0xFF else { break }
            let start = i
            while i < bytes.count && bytes[i] == 0xFF { i += 1 }  // fill bytes
            guard i < bytes.count else { break }
            let marker = bytes[i]
            i += 1
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { continue }  // no length
            if marker == 0xD9 || marker == 0xDA { break }
            guard i + 2 <= bytes.count else { break }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2, i + length <= bytes.count else { break }
            out.append(JPEGSegment(marker: marker, range: start..<(i + length), payload: (i + 2)..<(i + length)))
            i += length
        }
        return out
    }

    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// True when the payload of `segment` starts with `prefix`.
    static func payload(of segment: JPEGSegment, in bytes: [UInt8], startsWith prefix: [UInt8]) -> Bool {
        segment.payload.count >= prefix.count && bytes[segment.payload.lowerBound..<(segment.payload.lowerBound + prefix.count)].elementsEqual(prefix)
    }

    /// The range of the TIFF structure inside the first EXIF APP1 segment, if any.
    static func exifTIFFRange(_ bytes: [UInt8]) -> Range<Int>? {
        for s in scan(bytes) where s.marker == 0xE1 && payload(of: s, in: bytes, startsWith: exifHeader) {
            return (s.payload.lowerBound + exifHeader.count)..<s.payload.upperBound
        }
        return nil
    }
}
