// The render stamp: a page's render key and a digest of the file, written inside the PNG or JPEG
// techo exports (a tEXt chunk, a COM segment), so a later export can tell, from the file alone,
// that the file is still exactly what techo wrote for that key, and skip the page
// (docs/decisions/rebuild.md). No file beside the outputs is needed.
import Foundation
import TechoModel

#if canImport(Glibc)
    import Glibc
#endif

public enum RenderStamp {
    /// The PNG tEXt keyword, and the prefix of the JPEG comment.
    static let keyword = "techo-render"
    /// Files larger than this are not read to check them (they are rendered again). 1 GiB: a
    /// page is at most 100 megapixels, 400 MB as RGBA before compression.
    static let maxFileBytes = 1 << 30

    /// The stamp's text: `key=HEX sha256=HEX`, the digest being that of the file without its
    /// stamp (the bytes the encoder wrote).
    static func text(key: [UInt8], digest: [UInt8]) -> String {
        "key=\(LoadedObjects.hex(key)) sha256=\(LoadedObjects.hex(digest))"
    }

    /// `png` (as PNGEncoder writes it) with a tEXt chunk `techo-render` before its first IDAT.
    public static func stampPNG(_ png: [UInt8], key: [UInt8]) -> [UInt8] {
        guard let at = pngChunks(png)?.first(where: { $0.type == "IDAT" })?.range.lowerBound else {
            preconditionFailure("stampPNG: not a PNG from PNGEncoder")
        }
        let data = Array(keyword.utf8) + [0] + Array(text(key: key, digest: digest(png)).utf8)
        var chunk = be32(UInt32(data.count)) + Array("tEXt".utf8) + data
        chunk += be32(crc32(chunk[4...]))
        var out = [UInt8]()
        out.reserveCapacity(png.count + chunk.count)
        out += png[..<at]
        out += chunk
        out += png[at...]
        return out
    }

    /// `jpeg` (as JPEGEncoder writes it) with a COM segment `techo-render key=… sha256=…` after
    /// its JFIF APP0 segment (or right after SOI when there is none).
    public static func stampJPEG(_ jpeg: [UInt8], key: [UInt8]) -> [UInt8] {
        precondition(jpeg.count >= 4 && jpeg[0] == 0xFF && jpeg[1] == 0xD8, "stampJPEG: not a JPEG")
        var at = 2
        if jpeg[2] == 0xFF && jpeg[3] == 0xE0 && jpeg.count >= 6 { at = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5])) }
        let body = Array((keyword + " " + text(key: key, digest: digest(jpeg))).utf8)
        let segment: [UInt8] = [0xFF, 0xFE, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        return Array(jpeg[..<at]) + segment + Array(jpeg[at...])
    }

    /// Whether the file at `url` is the PNG or JPEG techo wrote with render key `key`, untouched:
    /// it carries one stamp with this key, and the digest of the file without the stamp is the
    /// one in it. Anything else (no file, a folder, a link, a FIFO or device, unreadable,
    /// larger than 1 GiB, truncated, edited, another program's file) is false, never an error.
    public static func matches(_ url: URL, key: [UInt8], format: ExportFormat) -> Bool {
        stamped(url, format: format)?.key == LoadedObjects.hex(key)
    }

    /// The render key (hex) in the file at `url` and the file without its stamp (the bytes the
    /// encoder wrote), when it is a PNG or JPEG techo wrote, untouched: it carries one stamp,
    /// and the digest of the rest is the one in it. Nil otherwise (as `matches`).
    static func stamped(_ url: URL, format: ExportFormat) -> (key: String, rest: [UInt8])? {
        guard format != .pdf, let bytes = readRegularFile(url.path) else { return nil }
        return stamped(bytes, format: format)
    }

    /// `bytes`' render key (hex) and the bytes without their stamp, when the digest is theirs.
    private static func stamped(_ bytes: [UInt8], format: ExportFormat) -> (key: String, rest: [UInt8])? {
        guard let (range, text) = format == .png ? pngStamp(bytes) : jpegStamp(bytes) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count == 2, fields[0].hasPrefix("key="), fields[1].hasPrefix("sha256=") else { return nil }
        var rest = Array(bytes[..<range.lowerBound])
        rest += bytes[range.upperBound...]
        return fields[1].dropFirst(7) == LoadedObjects.hex(digest(rest)) ? (String(fields[0].dropFirst(4)), rest) : nil
    }

    /// The stamp chunk's bytes and its text, when the PNG has exactly one.
    static func pngStamp(_ png: [UInt8]) -> (Range<Int>, String)? {
        guard let chunks = pngChunks(png) else { return nil }
        let prefix = Array(keyword.utf8) + [0]
        let stamps = chunks.filter { c in
            c.type == "tEXt" && png[c.data].starts(with: prefix)
        }
        guard stamps.count == 1, let s = stamps.first else { return nil }
        return (s.range, String(decoding: png[s.data].dropFirst(prefix.count), as: UTF8.self))
    }

    /// The stamp segment's bytes and its text, when the JPEG has exactly one before its scan.
    static func jpegStamp(_ jpeg: [UInt8]) -> (Range<Int>, String)? {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        let prefix = Array((keyword + " ").utf8)
        var found: (Range<Int>, String)?
        var at = 2
        // Marker segments up to the first scan (SOS); the stamp is one of them.
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF {
            let marker = jpeg[at + 1]
            if marker == 0xDA { break }
            let length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
            guard length >= 2, at + 2 + length <= jpeg.count else { return nil }
            let body = (at + 4)..<(at + 2 + length)
            if marker == 0xFE && jpeg[body].starts(with: prefix) {
                if found != nil { return nil }
                found = (at..<(at + 2 + length), String(decoding: jpeg[body].dropFirst(prefix.count), as: UTF8.self))
            }
            at += 2 + length
        }
        return found
    }

    /// The chunks of a PNG (type, whole chunk, data), or nil when its signature or chunk
    /// structure is broken before IEND.
    static func pngChunks(_ png: [UInt8]) -> [(type: String, range: Range<Int>, data: Range<Int>)]? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.starts(with: signature) else { return nil }
        var out: [(type: String, range: Range<Int>, data: Range<Int>)] = []
        var at = 8
        while at + 12 <= png.count {
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            guard length <= png.count - at - 12 else { return nil }
            let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            out.append((type, at..<(at + 12 + length), (at + 8)..<(at + 8 + length)))
            at += 12 + length
            if type == "IEND" { return out }
        }
        return nil
    }

    /// SHA-256 of `bytes`.
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        let h = SHA256()
        h.update(bytes)
        return h.finalize()
    }

    /// The whole of a regular file, read without following a symbolic link and without
    /// blocking on a FIFO or device (those, and files over `maxFileBytes`, give nil).
    static func readRegularFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size <= maxFileBytes else { return nil }
        let size = Int(st.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        let ok = bytes.withUnsafeMutableBytes { buf -> Bool in
            while done < size {
                let n = read(fd, buf.baseAddress! + done, size - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            // A file that grew while it was read is not the file that was measured.
            var extra: UInt8 = 0
            return read(fd, &extra, 1) == 0
        }
        return ok ? bytes : nil
    }

    private static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    /// CRC-32 (ISO 3309), as PNG chunks use it; the stamp chunk is small.
    private static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }
}
