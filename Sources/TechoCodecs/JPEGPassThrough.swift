// Whether a JPEG file can be embedded in a PDF as its own bytes (DCTDecode) and look as it does
// when techo decodes it: 8-bit baseline or progressive Huffman coding, one (grey) or three
// (YCbCr) components. Four-component files are left out: Adobe's inverted CMYK reads as a
// negative unless the writer adds a Decode array, which is not ours to add.

extension JPEGSegments {
    /// The SOF segment's precision and component count, if the header has a SOF0, SOF1 or SOF2.
    static func frame(_ bytes: [UInt8]) -> (precision: Int, components: Int)? {
        for s in scan(bytes) where s.marker == 0xC0 || s.marker == 0xC1 || s.marker == 0xC2 {
            guard s.payload.count >= 6 else { return nil }
            return (Int(bytes[s.payload.lowerBound]), Int(bytes[s.payload.lowerBound + 5]))
        }
        return nil
    }
}

public enum JPEGPassThrough {
    /// True when `bytes` is a JPEG a PDF reader decodes to the pixels techo's decoder gives
    /// before its EXIF orientation (a PDF reader does not apply it: the caller turns the image).
    public static func isEmbeddable(_ bytes: [UInt8]) -> Bool {
        guard let f = JPEGSegments.frame(bytes) else { return false }
        return f.precision == 8 && (f.components == 1 || f.components == 3)
    }
}
