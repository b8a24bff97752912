// A minimal bounds-checked TIFF (EXIF) reader: byte order, IFD entries, tag lookup (TIFF 6.0 §2).

/// Reads the TIFF structure of an EXIF block. Every read is bounds-checked and returns nil
/// when it would leave the block.
struct TIFFReader {
    let bytes: [UInt8]
    /// Offsets in the TIFF structure are relative to this index of `bytes`.
    let base: Int
    let end: Int
    let littleEndian: Bool

    /// One 12-byte IFD entry.
    struct Entry {
        let tag: Int
        let type: Int
        let count: Int
        /// Absolute index of the entry in `bytes`.
        let position: Int
        /// Absolute index of the 4-byte value/offset field.
        var valueField: Int { position + 8 }
    }

    init?(_ bytes: [UInt8], range: Range<Int>) {
        guard range.count >= 8, range.upperBound <= bytes.count else { return nil }
        let b = range.lowerBound
        if bytes[b] == 0x49 && bytes[b + 1] == 0x49 {
            littleEndian = true
        } else if bytes[b] == 0x4D && bytes[b + 1] == 0x4D {
            littleEndian = false
        } else {
            return nil
        }
        self.bytes = bytes
        self.base = b
        self.end = range.upperBound
        guard u16(absolute: b + 2) == 42 else { return nil }
    }

    func u16(absolute i: Int) -> Int? {
        guard i >= base, i + 2 <= end else { return nil }
        return littleEndian ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 : Int(bytes[i]) << 8 | Int(bytes[i + 1])
    }

    func u32(absolute i: Int) -> Int? {
        guard i >= base, i + 4 <= end else { return nil }
        let b0 = Int(bytes[i]), b1 = Int(bytes[i + 1]), b2 = Int(bytes[i + 2]), b3 = Int(bytes[i + 3])
        return littleEndian ? b0 | b1 << 8 | b2 << 16 | b3 << 24 : b0 << 24 | b1 << 16 | b2 << 8 | b3
    }

    /// Absolute index of IFD0.
    var ifd0: Int? { u32(absolute: base + 4).map { base + $0 } }

    /// The entries of the IFD at absolute index `at`, or nil if it does not fit.
    func entries(at ifd: Int) -> [Entry]? {
        guard let n = u16(absolute: ifd), ifd + 2 + n * 12 <= end else { return nil }
        var out: [Entry] = []
        out.reserveCapacity(n)
        for k in 0..<n {
            let p = ifd + 2 + k * 12
            guard let tag = u16(absolute: p), let type = u16(absolute: p + 2), let count = u32(absolute: p + 4) else { return nil }
            out.append(Entry(tag: tag, type: type, count: count, position: p))
        }
        return out
    }

    /// Size in bytes of one value of a TIFF field type (0 for unknown types).
    static func typeSize(_ type: Int) -> Int {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11: return 4
        case 5, 10, 12: return 8
        default: return 0
        }
    }

    /// Absolute range of an entry's value: inside the entry when it fits in 4 bytes, else at
    /// the offset it gives. Nil when the range would leave the block.
    func valueRange(_ e: Entry) -> Range<Int>? {
        let (size, overflow) = TIFFReader.typeSize(e.type).multipliedReportingOverflow(by: e.count)
        guard !overflow, size > 0 else { return nil }
        if size <= 4 { return e.valueField..<(e.valueField + size) }
        guard let off = u32(absolute: e.valueField), off <= end - base, size <= end - base - off else { return nil }
        return (base + off)..<(base + off + size)
    }
}
