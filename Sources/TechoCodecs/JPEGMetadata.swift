// EXIF metadata in JPEG files: reading the orientation, and removing GPS data on import.

/// Reads and edits the EXIF block (APP1) of JPEG files, without decoding pixels.
public enum JPEGMetadata {
    static let orientationTag = 0x0112
    static let gpsIFDTag = 0x8825

    /// The EXIF orientation of a JPEG file: `.up` when there is no EXIF block, no tag, or an
    /// invalid value (0 or above 8).
    public static func orientation(in bytes: [UInt8]) -> ImageOrientation {
        guard let range = JPEGSegments.exifTIFFRange(bytes), let tiff = TIFFReader(bytes, range: range),
            let ifd0 = tiff.ifd0, let entries = tiff.entries(at: ifd0),
            let e = entries.first(where: { $0.tag == orientationTag }), e.count >= 1
        else { return .up }
        let value: Int?
        switch e.type {
        case 3: value = tiff.u16(absolute: e.valueField)
        case 4: value = tiff.u32(absolute: e.valueField)
        default: value = nil
        }
        return ImageOrientation(exifValue: value ?? 1)
    }

    /// True when the file's EXIF block points to a GPS IFD, or an XMP block mentions GPS.
    public static func containsGPS(_ bytes: [UInt8]) -> Bool {
        if let range = JPEGSegments.exifTIFFRange(bytes), tiffContainsGPS(bytes, tiff: range) { return true }
        return !xmpSegmentsWithGPS(bytes).isEmpty
    }

    /// The JPEG with its location removed, used when photos are imported into a journal.
    ///
    /// In the EXIF block, the GPS IFD pointer is removed from IFD0 (the following entries move
    /// up) and every byte of the GPS IFD and its values is zeroed, so the block keeps its size
    /// and every other tag (orientation included) keeps its offset. XMP blocks that mention GPS
    /// are dropped whole. Bytes that are not a JPEG, or carry no GPS, are returned unchanged.
    /// - Complexity: O(file size).
    public static func removingGPS(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        if let range = JPEGSegments.exifTIFFRange(bytes) { removeTIFFGPS(&out, tiff: range) }
        for segment in xmpSegmentsWithGPS(out).reversed() {
            out.removeSubrange(segment.range)
        }
        return out
    }

    /// True when `original` and `cleaned` are the same bytes once each one's APP1 segments
    /// (as `JPEGSegments.scan` finds them before the first SOS, by the lengths libjpeg reads too)
    /// are left out: what libjpeg decodes of them is then the same (`ImageMetadata`).
    static func changesOnlyMetadata(_ original: [UInt8], _ cleaned: [UInt8]) -> Bool {
        func withoutAPP1(_ bytes: [UInt8]) -> [UInt8] {
            var out = bytes
            for s in JPEGSegments.scan(bytes).reversed() where s.marker == 0xE1 { out.removeSubrange(s.range) }
            return out
        }
        return withoutAPP1(original) == withoutAPP1(cleaned)
    }

    /// True when the TIFF structure at `range` of `bytes` (an EXIF block) has a GPS IFD pointer.
    static func tiffContainsGPS(_ bytes: [UInt8], tiff range: Range<Int>) -> Bool {
        guard let tiff = TIFFReader(bytes, range: range), let ifd0 = tiff.ifd0, let entries = tiff.entries(at: ifd0) else { return false }
        return entries.contains(where: { $0.tag == gpsIFDTag })
    }

    /// Removes the GPS IFD from the TIFF structure at `range` of `out`, in place: the pointer
    /// leaves IFD0 (the following entries move up) and every byte of the GPS IFD and its values
    /// is zeroed, so the block keeps its size and every other tag keeps its offset. Shared by
    /// JPEG (APP1) and HEIF (the `Exif` item). Returns whether there was a GPS IFD.
    @discardableResult
    static func removeTIFFGPS(_ out: inout [UInt8], tiff range: Range<Int>) -> Bool {
        guard let tiff = TIFFReader(out, range: range), let ifd0 = tiff.ifd0, let entries = tiff.entries(at: ifd0),
            let index = entries.firstIndex(where: { $0.tag == gpsIFDTag })
        else { return false }
        // Zero the GPS IFD: its values stored out of line, then its entry table.
        if let gpsOffset = tiff.u32(absolute: entries[index].valueField) {
            let gps = tiff.base + gpsOffset
            if gpsOffset < tiff.end - tiff.base, let gpsEntries = tiff.entries(at: gps) {
                for e in gpsEntries {
                    if let r = tiff.valueRange(e) { zero(&out, r) }
                }
                zero(&out, gps..<min(tiff.end, gps + 2 + gpsEntries.count * 12 + 4))
            }
        }
        // Remove the pointer: move the later entries and the next-IFD offset up by 12.
        let n = entries.count
        let tableEnd = ifd0 + 2 + n * 12 + 4
        let entryStart = entries[index].position
        if tableEnd <= tiff.end {
            let moved = Array(out[(entryStart + 12)..<tableEnd])
            out.replaceSubrange(entryStart..<(entryStart + moved.count), with: moved)
            zero(&out, (tableEnd - 12)..<tableEnd)
            let count = n - 1
            if tiff.littleEndian {
                out[ifd0] = UInt8(count & 0xFF); out[ifd0 + 1] = UInt8(count >> 8)
            } else {
                out[ifd0] = UInt8(count >> 8); out[ifd0 + 1] = UInt8(count & 0xFF)
            }
        } else {
            // The table runs past the block; blank the pointer's tag instead of moving.
            zero(&out, entryStart..<(entryStart + 12))
        }
        return true
    }

    private static func xmpSegmentsWithGPS(_ bytes: [UInt8]) -> [JPEGSegment] {
        let needle = Array("GPS".utf8)
        return JPEGSegments.scan(bytes).filter { s in
            guard s.marker == 0xE1, JPEGSegments.payload(of: s, in: bytes, startsWith: JPEGSegments.xmpHeader) else { return false }
            let p = bytes[s.payload]
            var i = p.startIndex
            while i + needle.count <= p.endIndex {
                if p[i] == needle[0] && p[i + 1] == needle[1] && p[i + 2] == needle[2] { return true }
                i += 1
            }
            return false
        }
    }

    static func zero(_ bytes: inout [UInt8], _ r: Range<Int>) {
        let r = r.clamped(to: 0..<bytes.count)
        for i in r { bytes[i] = 0 }
    }
}
