// Just enough of the PDF file structure (ISO 32000-1 §7.5) to replace whole objects of the file
// cairo 1.16 writes: a header, objects `N 0 obj … endobj` one after another, a classic
// cross-reference table of 20-byte entries, a trailer and `startxref`. Objects are found
// through the table; a replaced object moves every object after it, so the table and the
// `startxref` number are written again with the new offsets. Anything laid out otherwise
// (a cross-reference stream, an incremental update) is refused, never guessed at.

/// A PDF in cairo's classic layout: where each object starts.
struct PDFClassicFile {
    let bytes: [UInt8]
    /// Offset of object `n` (0 for a free entry).
    let offsets: [Int]
    /// Where the `xref` keyword is, and where the table's entries start.
    private let xrefAt: Int, entriesAt: Int

    /// Reads the table; nil when the file is not laid out that way.
    init?(_ pdf: [UInt8]) {
        bytes = pdf
        guard let sx = Self.find(Array("startxref".utf8), in: pdf, from: max(0, pdf.count - 64)) else { return nil }
        let number = pdf[sx.upperBound...].drop { Self.isSpace($0) }.prefix { (0x30...0x39).contains($0) }
        guard let at = Int(String(decoding: number, as: UTF8.self)), at + 5 < pdf.count,
            pdf[at..<(at + 5)].elementsEqual("xref\n".utf8)
        else { return nil }
        xrefAt = at
        var p = at + 5
        guard let headerEnd = pdf[p...].firstIndex(of: 0x0A) else { return nil }
        let header = String(decoding: pdf[p..<headerEnd], as: UTF8.self).split(separator: " ")
        guard header.count == 2, header[0] == "0", let count = Int(header[1]), count > 0 else { return nil }
        p = headerEnd + 1
        guard p + 20 * count <= pdf.count else { return nil }
        entriesAt = p
        var offsets = [Int](repeating: 0, count: count)
        for k in 0..<count {
            let e = pdf[(p + 20 * k)..<(p + 20 * k + 20)]
            let kind = e[e.startIndex + 17]
            guard kind == UInt8(ascii: "n") || kind == UInt8(ascii: "f"), let offset = Int(String(decoding: e.prefix(10), as: UTF8.self)) else {
                return nil
            }
            if kind == UInt8(ascii: "n") {
                guard offset < at else { return nil }
                offsets[k] = offset
            }
        }
        self.offsets = offsets
    }

    /// Object `n` as a stream: its whole extent, its dictionary's text and its data; nil when
    /// it is not a stream object as cairo writes one.
    func stream(_ n: Int) -> (whole: Range<Int>, dictionary: Range<Int>, data: Range<Int>)? {
        guard n > 0, n < offsets.count, offsets[n] > 0 else { return nil }
        let start = offsets[n]
        let head = Array("\(n) 0 obj".utf8)
        guard start + head.count < bytes.count, bytes[start..<(start + head.count)].elementsEqual(head) else { return nil }
        var p = start + head.count
        while p < bytes.count && Self.isSpace(bytes[p]) { p += 1 }
        guard p + 1 < bytes.count, bytes[p] == UInt8(ascii: "<"), bytes[p + 1] == UInt8(ascii: "<"), let dictEnd = Self.dictionaryEnd(bytes, from: p)
        else { return nil }
        let dictionary = p..<dictEnd
        var q = dictEnd
        while q < bytes.count && Self.isSpace(bytes[q]) { q += 1 }
        guard q + 6 <= bytes.count, bytes[q..<(q + 6)].elementsEqual("stream".utf8) else { return nil }
        q += 6
        if q < bytes.count && bytes[q] == 0x0D { q += 1 }
        guard q < bytes.count, bytes[q] == 0x0A, let length = length(of: dictionary) else { return nil }
        let data = (q + 1)..<(q + 1 + length)
        guard data.upperBound <= bytes.count else { return nil }
        let tail = Array("endstream".utf8), end = Array("endobj".utf8)
        var r = data.upperBound
        while r < bytes.count && Self.isSpace(bytes[r]) { r += 1 }
        guard r + tail.count <= bytes.count, bytes[r..<(r + tail.count)].elementsEqual(tail) else { return nil }
        r += tail.count
        while r < bytes.count && Self.isSpace(bytes[r]) { r += 1 }
        guard r + end.count <= bytes.count, bytes[r..<(r + end.count)].elementsEqual(end) else { return nil }
        return (start..<(r + end.count), dictionary, data)
    }

    /// The dictionary's `/Length`: a number, or a reference to an object that is one.
    private func length(of dictionary: Range<Int>) -> Int? {
        guard let value = Self.value(of: "/Length", in: bytes[dictionary]) else { return nil }
        let words = value.split(separator: " ")
        if words.count == 1 { return Int(words[0]) }
        guard words.count == 3, words[2] == "R", let n = Int(words[0]), n > 0, n < offsets.count, offsets[n] > 0 else { return nil }
        let head = "\(n) 0 obj"
        let text = String(decoding: bytes[offsets[n]..<min(bytes.count, offsets[n] + 64)], as: UTF8.self)
        guard text.hasPrefix(head) else { return nil }
        let body = text.dropFirst(head.count).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" })
        return body.first.flatMap { Int($0) }
    }

    /// The text of `key`'s value in a dictionary whose values are numbers, names or
    /// references (what cairo writes for `/Length`), its runs of spaces made single.
    static func value(of key: String, in dictionary: ArraySlice<UInt8>) -> String? {
        let k = Array(key.utf8)
        var i = dictionary.startIndex
        while i + k.count < dictionary.endIndex {
            if dictionary[i..<(i + k.count)].elementsEqual(k) && isSpace(dictionary[i + k.count]) {
                let rest = dictionary[(i + k.count)...].prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: ">") }
                let words = String(decoding: rest, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" })
                return words.joined(separator: " ")
            }
            i += 1
        }
        return nil
    }

    /// The file with each of `replacements` (whole objects) put in place, and the table and
    /// `startxref` written for the new offsets.
    func rebuilt(replacing replacements: [(range: Range<Int>, bytes: [UInt8])]) -> [UInt8] {
        let sorted = replacements.sorted { $0.range.lowerBound < $1.range.lowerBound }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var copied = 0
        // (old offset from which a shift applies, the shift)
        var shifts: [(from: Int, by: Int)] = []
        var total = 0
        for r in sorted where r.range.lowerBound >= copied && r.range.upperBound <= xrefAt {
            out += bytes[copied..<r.range.lowerBound]
            out += r.bytes
            copied = r.range.upperBound
            total += r.bytes.count - r.range.count
            shifts.append((r.range.upperBound, total))
        }
        func moved(_ offset: Int) -> Int { offset + (shifts.last { $0.from <= offset }?.by ?? 0) }
        out += bytes[copied..<entriesAt]
        for (n, offset) in offsets.enumerated() {
            let entry = bytes[(entriesAt + 20 * n)..<(entriesAt + 20 * n + 20)]
            if offset > 0 {
                let s = String(moved(offset))
                out += Array((String(repeating: "0", count: max(0, 10 - s.count)) + s).utf8) + entry.dropFirst(10)
            } else {
                out += entry
            }
        }
        let tail = entriesAt + 20 * offsets.count
        guard let sx = Self.find(Array("startxref".utf8), in: bytes, from: tail) else { return out + bytes[tail...] }
        out += bytes[tail..<sx.upperBound]
        out += Array("\n\(moved(xrefAt))\n%%EOF\n".utf8)
        return out
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 || b == 0x0C || b == 0x00 }

    /// The end (just past `>>`) of the dictionary opening at `from`, across nested
    /// dictionaries and strings.
    static func dictionaryEnd(_ b: [UInt8], from: Int) -> Int? {
        var depth = 0, i = from
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "("):
                var nest = 1
                i += 1
                while i < b.count && nest > 0 {
                    if b[i] == UInt8(ascii: "\\") {
                        i += 1
                    } else if b[i] == UInt8(ascii: "(") {
                        nest += 1
                    } else if b[i] == UInt8(ascii: ")") {
                        nest -= 1
                    }
                    i += 1
                }
                continue
            case UInt8(ascii: "<") where i + 1 < b.count && b[i + 1] == UInt8(ascii: "<"):
                depth += 1
                i += 2
                continue
            case UInt8(ascii: "<"):
                while i < b.count && b[i] != UInt8(ascii: ">") { i += 1 }
            case UInt8(ascii: ">") where i + 1 < b.count && b[i + 1] == UInt8(ascii: ">"):
                depth -= 1
                i += 2
                if depth == 0 { return i }
                continue
            default: break
            }
            i += 1
        }
        return nil
    }

    static func find(_ needle: [UInt8], in hay: [UInt8], from: Int) -> Range<Int>? {
        guard !needle.isEmpty, hay.count >= needle.count, from <= hay.count - needle.count else { return nil }
        for i in from...(hay.count - needle.count) where hay[i] == needle[0] && hay[i..<(i + needle.count)].elementsEqual(needle) {
            return i..<(i + needle.count)
        }
        return nil
    }
}
