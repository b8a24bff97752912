// EXIF and XMP in HEIF / AVIF files: removing the GPS position on import.
//
// A HEIF file keeps its metadata as items of the `meta` box: an `Exif` item (a 4-byte offset to
// the TIFF header, then the TIFF structure) and XMP as a `mime` item of type
// application/rdf+xml. Their bytes are found through `iinf` (item types) and `iloc` (where each
// item's bytes are: a file offset, or an offset into `idat`), read here with bounds-checked
// box walking (ISO/IEC 14496-12 §8.11). The GPS IFD is removed in place exactly as for JPEG, so
// the file keeps its size and every box offset stays valid; an XMP packet that mentions GPS is
// blanked to spaces (XMP's own padding), which keeps the item and its length.
//
// When an item carrying GPS cannot be edited in place (split into several extents, stored in
// another file, or not where `iloc` says), the import is refused rather than keeping the
// position silently.

/// Finds and removes GPS data in HEIF and AVIF files, without decoding pixels.
public enum HEIFMetadata {
    /// A metadata item: its type (`Exif`, `mime`), MIME content type, and bytes in the file.
    struct Item {
        var id: UInt32
        var type: String
        var contentType: String
        /// Where the item's bytes are in the file, when they are one contiguous range.
        var range: Range<Int>?
        /// A `mime` item's content encoding (`deflate`: libheif inflates it when it reads the
        /// file); empty for none, `?` when the field cannot be read.
        var contentEncoding = ""
    }

    /// True when the file's EXIF has a GPS IFD pointer or its XMP mentions GPS.
    public static func containsGPS(_ bytes: [UInt8]) -> Bool {
        items(bytes).contains { itemHasGPS($0, in: bytes) ?? true }
    }

    /// The file with its GPS position removed (bytes without GPS are returned unchanged).
    /// - Throws: `ImageError.unsupported` naming `file` when an item holding GPS cannot be
    ///   edited in place.
    /// - Complexity: O(file size).
    public static func removingGPS(_ bytes: [UInt8], file: String) throws -> [UInt8] {
        var out = bytes
        let format = ImageFormat.sniff(bytes) ?? .heif
        for item in items(bytes) {
            guard let range = item.range else {
                if item.type == "Exif" || isXMP(item) {
                    throw ImageError(
                        file: file, format: format,
                        reason: .unsupported(
                            "its \(item.type == "Exif" ? "EXIF" : "XMP") metadata is split or stored outside the file, so its GPS position cannot be removed; pass --keep-gps to import it as it is"
                        ))
                }
                continue
            }
            if item.type == "Exif" {
                guard let tiff = exifTIFFRange(bytes, item: range) else { continue }
                JPEGMetadata.removeTIFFGPS(&out, tiff: tiff)
            } else if isXMP(item), contains(bytes[range], "GPS") {
                for i in range { out[i] = 0x20 }
            }
        }
        return out
    }

    /// True when `cleaned` has the size of `original` and every byte that differs lies in an
    /// `Exif` item or an XMP item without a content encoding, each one extent inside a top-level
    /// `mdat` box and overlapping no other item: the boxes libheif parses (`ftyp`, `meta`) and
    /// every image item's bytes are then the same, and libheif reads those metadata items only
    /// as bytes to hand over (`ImageMetadata.changesOnlyMetadata`). False when some other item's
    /// bytes cannot be found, since they might lie anywhere.
    static func changesOnlyMetadata(_ original: [UInt8], _ cleaned: [UInt8]) -> Bool {
        guard original.count == cleaned.count else { return false }
        let all = items(original)
        let mdats = BoxReader.boxes(original, in: 0..<original.count).filter { $0.type == "mdat" }.map(\.payload)
        var editable: [Range<Int>] = []
        var fixed: [Range<Int>] = []
        for item in all {
            let metadata = item.type == "Exif" || (isXMP(item) && item.contentEncoding.isEmpty)
            guard let r = item.range else {
                if metadata { continue }  // removingGPS leaves such an item as it is (or refuses the file)
                return false
            }
            if metadata && mdats.contains(where: { $0.contains(r.lowerBound) && r.upperBound <= $0.upperBound }) {
                editable.append(r)
            } else {
                fixed.append(r)
            }
        }
        guard !editable.contains(where: { e in fixed.contains { $0.overlaps(e) } }) else { return false }
        // Every byte outside the editable ranges is the same in both.
        var at = 0
        for r in editable.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if r.lowerBound > at && original[at..<r.lowerBound] != cleaned[at..<r.lowerBound] { return false }
            at = max(at, r.upperBound)
        }
        return original[at...] == cleaned[at...]
    }

    /// Whether the item holds GPS data; nil when it is metadata whose bytes cannot be found.
    private static func itemHasGPS(_ item: Item, in bytes: [UInt8]) -> Bool? {
        guard item.type == "Exif" || isXMP(item) else { return false }
        guard let range = item.range else { return nil }
        if item.type == "Exif" {
            guard let tiff = exifTIFFRange(bytes, item: range) else { return false }
            return JPEGMetadata.tiffContainsGPS(bytes, tiff: tiff)
        }
        return contains(bytes[range], "GPS")
    }

    private static func isXMP(_ item: Item) -> Bool {
        item.type == "mime" && item.contentType.lowercased().hasPrefix("application/rdf+xml")
    }

    /// The TIFF structure inside an `Exif` item: after its 4-byte big-endian header offset.
    static func exifTIFFRange(_ bytes: [UInt8], item: Range<Int>) -> Range<Int>? {
        guard item.count >= 8 else { return nil }
        let skip = Int(BoxReader.u32(bytes, item.lowerBound) ?? UInt32.max)
        guard skip <= item.count - 8 else { return nil }
        return (item.lowerBound + 4 + skip)..<item.upperBound
    }

    private static func contains(_ hay: ArraySlice<UInt8>, _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard hay.count >= n.count else { return false }
        var i = hay.startIndex
        while i + n.count <= hay.endIndex {
            if hay[i] == n[0], Array(hay[i..<(i + n.count)]) == n { return true }
            i += 1
        }
        return false
    }

    /// The items of the top-level `meta` box with where their bytes are. Empty when the file
    /// has no readable `meta` box (libheif then refuses it when it is decoded).
    static func items(_ bytes: [UInt8]) -> [Item] {
        guard let meta = BoxReader.boxes(bytes, in: 0..<bytes.count).first(where: { $0.type == "meta" }),
            meta.payload.count >= 4
        else { return [] }
        let children = BoxReader.boxes(bytes, in: (meta.payload.lowerBound + 4)..<meta.payload.upperBound)
        var items: [UInt32: Item] = [:]
        if let iinf = children.first(where: { $0.type == "iinf" }) {
            for info in itemInfos(bytes, iinf.payload) { items[info.id] = info }
        }
        let idat = children.first(where: { $0.type == "idat" })?.payload
        if let iloc = children.first(where: { $0.type == "iloc" }) {
            for (id, range) in locations(bytes, iloc.payload, idat: idat) where items[id] != nil {
                items[id]?.range = range
            }
        }
        return items.values.sorted { $0.id < $1.id }
    }

    /// `infe` entries (versions 2 and 3, the only ones with item types) of an `iinf` payload.
    private static func itemInfos(_ bytes: [UInt8], _ payload: Range<Int>) -> [Item] {
        guard payload.count >= 6, let version = bytes[safe: payload.lowerBound] else { return [] }
        let start = payload.lowerBound + 4 + (version == 0 ? 2 : 4)
        guard start <= payload.upperBound else { return [] }
        return BoxReader.boxes(bytes, in: start..<payload.upperBound).compactMap { box -> Item? in
            guard box.type == "infe", let v = bytes[safe: box.payload.lowerBound], v >= 2 else { return nil }
            var r = BoxReader.Cursor(bytes: bytes, at: box.payload.lowerBound + 4, end: box.payload.upperBound)
            guard let id = v == 2 ? r.u16().map(UInt32.init) : r.u32(), r.u16() != nil, let type = r.fourCC() else { return nil }
            var contentType = "", encoding = ""
            if type == "mime" {
                _ = r.cString()  // item_name
                contentType = r.cString() ?? ""
                // content_encoding is optional: absent when the box ends here.
                if r.at < r.end { encoding = r.cString() ?? "?" }
            }
            return Item(id: id, type: type, contentType: contentType, range: nil, contentEncoding: encoding)
        }
    }

    /// Each item's bytes from an `iloc` payload, when they are a single extent in this file
    /// (construction method 0, a file offset; or 1, an offset into `idat`).
    private static func locations(_ bytes: [UInt8], _ payload: Range<Int>, idat: Range<Int>?) -> [(UInt32, Range<Int>?)] {
        var r = BoxReader.Cursor(bytes: bytes, at: payload.lowerBound, end: payload.upperBound)
        guard let version = r.u8(), r.skip(3), let sizes = r.u8(), let sizes2 = r.u8() else { return [] }
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 15), baseSize = Int(sizes2 >> 4)
        let indexSize = version >= 1 ? Int(sizes2 & 15) : 0
        guard let count = version < 2 ? r.u16().map(UInt32.init) : r.u32() else { return [] }
        var out: [(UInt32, Range<Int>?)] = []
        for _ in 0..<min(Int(count), payload.count) {
            guard let id = version < 2 ? r.u16().map(UInt32.init) : r.u32() else { break }
            var method: UInt16 = 0
            if version >= 1 { guard let m = r.u16() else { break }; method = m & 15 }
            guard let dataRef = r.u16(), let base = r.uint(baseSize), let extents = r.u16() else { break }
            var ranges: [Range<Int>] = []
            for _ in 0..<extents {
                if indexSize > 0 { guard r.uint(indexSize) != nil else { return out } }
                guard let off = r.uint(offsetSize), let len = r.uint(lengthSize) else { return out }
                let (o, o1) = base.addingReportingOverflow(off)
                let origin: UInt64 = method == 1 ? UInt64(idat?.lowerBound ?? 0) : 0
                let (start, o2) = o.addingReportingOverflow(origin)
                let (end, o3) = start.addingReportingOverflow(len)
                let limit = UInt64(method == 1 ? idat?.upperBound ?? 0 : bytes.count)
                if o1 || o2 || o3 || end > limit || len == 0 { ranges = []; break }
                ranges.append(Int(start)..<Int(end))
            }
            let single = dataRef == 0 && method <= 1 && (method == 0 || idat != nil) && ranges.count == 1 && extents == 1
            out.append((id, single ? ranges[0] : nil))
        }
        return out
    }
}

/// Bounds-checked reading of ISO base media file boxes.
enum BoxReader {
    struct Box {
        var type: String
        var payload: Range<Int>
    }

    /// The boxes one after another in `range`; stops at the first box that does not fit.
    static func boxes(_ bytes: [UInt8], in range: Range<Int>) -> [Box] {
        var out: [Box] = []
        var i = range.lowerBound
        while i + 8 <= range.upperBound, out.count < 10_000 {
            guard let size32 = u32(bytes, i) else { break }
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            var header = 8, size = Int(size32)
            if size32 == 1 {
                guard i + 16 <= range.upperBound, let big = u64(bytes, i + 8), big <= UInt64(range.upperBound - i) else { break }
                header = 16; size = Int(big)
            } else if size32 == 0 {
                size = range.upperBound - i
            }
            guard size >= header, size <= range.upperBound - i else { break }
            out.append(Box(type: type, payload: (i + header)..<(i + size)))
            i += size
        }
        return out
    }

    static func u32(_ b: [UInt8], _ i: Int) -> UInt32? {
        guard i >= 0, i + 4 <= b.count else { return nil }
        return UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    static func u64(_ b: [UInt8], _ i: Int) -> UInt64? {
        guard let hi = u32(b, i), let lo = u32(b, i + 4) else { return nil }
        return UInt64(hi) << 32 | UInt64(lo)
    }

    /// Big-endian fields read in order, each nil past `end`.
    struct Cursor {
        let bytes: [UInt8]
        var at: Int
        let end: Int

        mutating func uint(_ n: Int) -> UInt64? {
            guard n >= 0, n <= 8, at + n <= end else { return nil }
            var v: UInt64 = 0
            for k in 0..<n { v = v << 8 | UInt64(bytes[at + k]) }
            at += n
            return v
        }
        mutating func u8() -> UInt8? { uint(1).map { UInt8($0) } }
        mutating func u16() -> UInt16? { uint(2).map { UInt16($0) } }
        mutating func u32() -> UInt32? { uint(4).map { UInt32($0) } }
        mutating func skip(_ n: Int) -> Bool { uint(n) != nil || n == 0 }
        mutating func fourCC() -> String? {
            guard at + 4 <= end else { return nil }
            defer { at += 4 }
            return String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
        }
        mutating func cString() -> String? {
            var j = at
            while j < end, bytes[j] != 0 { j += 1 }
            guard j < end else { return nil }
            defer { at = j + 1 }
            return String(decoding: bytes[at..<j], as: UTF8.self)
        }
    }
}

extension Array where Element == UInt8 {
    subscript(safe i: Int) -> UInt8? { i >= 0 && i < count ? self[i] : nil }
}
