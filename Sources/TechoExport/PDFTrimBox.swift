// Bleed boxes for cairo's PDF output. cairo 1.16 (Debian 12) sets each page's MediaBox and has
// no call for a TrimBox, so for `--bleed` the document is drawn with pages the bleed larger on
// every side and a `/TrimBox` is written after each page's `/MediaBox`: the page's own size,
// inset by the bleed. cairo writes a classic cross-reference table, so the inserted bytes are
// accounted for by moving every offset after them and the `startxref` number.

enum PDFTrimBox {
    /// `pdf` with `/TrimBox [b b w-b h-b]` after every `/MediaBox [ 0 0 w h ]`, where `b` is
    /// `bleed` points. nil when the file is not laid out as cairo writes it (no classic table).
    static func inserted(_ pdf: [UInt8], bleed: Double) -> [UInt8]? {
        let media = Array("/MediaBox [ 0 0 ".utf8)
        // Where each insertion goes, and what.
        var inserts: [(at: Int, bytes: [UInt8])] = []
        var i = 0
        while let r = find(media, in: pdf, from: i) {
            guard let close = pdf[r.upperBound...].firstIndex(of: UInt8(ascii: "]")) else { return nil }
            let sizes = String(decoding: pdf[r.upperBound..<close], as: UTF8.self).split(separator: " ").compactMap { Double($0) }
            guard sizes.count == 2 else { return nil }
            let box = [bleed, bleed, sizes[0] - bleed, sizes[1] - bleed].map(number).joined(separator: " ")
            inserts.append((close + 1, Array("\n   /TrimBox [ \(box) ]".utf8)))
            i = close
        }
        guard !inserts.isEmpty, let startxrefAt = find(Array("startxref\n".utf8), in: pdf, from: 0, last: true),
            let xrefAt = Int(String(decoding: pdf[startxrefAt.upperBound...].prefix { $0 != 0x0A }, as: UTF8.self)),
            find(Array("xref\n".utf8), in: pdf, from: xrefAt)?.lowerBound == xrefAt
        else { return nil }
        func moved(_ offset: Int) -> Int { offset + inserts.filter { $0.at <= offset }.reduce(0) { $0 + $1.bytes.count } }
        // The table: "xref\n0 N\n" then N entries of exactly 20 bytes ("oooooooooo ggggg n \n").
        var p = xrefAt + 5
        guard let headerEnd = pdf[p...].firstIndex(of: 0x0A) else { return nil }
        let header = String(decoding: pdf[p..<headerEnd], as: UTF8.self).split(separator: " ")
        guard header.count == 2, header[0] == "0", let count = Int(header[1]) else { return nil }
        p = headerEnd + 1
        guard p + 20 * count <= pdf.count else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(pdf.count + inserts.count * 64)
        var last = 0
        for ins in inserts {
            out += pdf[last..<ins.at]
            out += ins.bytes
            last = ins.at
        }
        out += pdf[last..<p]
        for k in 0..<count {
            let entry = Array(pdf[(p + 20 * k)..<(p + 20 * k + 20)])
            guard entry[17] == UInt8(ascii: "n") || entry[17] == UInt8(ascii: "f"), let offset = Int(String(decoding: entry[0..<10], as: UTF8.self)) else {
                return nil
            }
            if entry[17] == UInt8(ascii: "n") {
                let s = String(moved(offset))
                out += Array((String(repeating: "0", count: max(0, 10 - s.count)) + s).utf8) + entry[10...]
            } else {
                out += entry
            }
        }
        let tail = p + 20 * count
        out += pdf[tail..<startxrefAt.upperBound]
        out += Array("\(moved(xrefAt))\n%%EOF\n".utf8)
        return out
    }

    /// A length in points, at most 3 decimals.
    private static func number(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    private static func find(_ needle: [UInt8], in hay: [UInt8], from: Int, last: Bool = false) -> Range<Int>? {
        guard !needle.isEmpty, needle.count <= hay.count, from <= hay.count - needle.count else { return nil }
        func at(_ i: Int) -> Bool { hay[i] == needle[0] && hay[i..<(i + needle.count)].elementsEqual(needle) }
        if last {
            var i = hay.count - needle.count
            while i >= from {
                if at(i) { return i..<(i + needle.count) }
                i -= 1
            }
        } else {
            for i in from...(hay.count - needle.count) where at(i) { return i..<(i + needle.count) }
        }
        return nil
    }
}
