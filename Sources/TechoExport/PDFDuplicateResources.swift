// A repair of cairo 1.16's PDF output (Debian 12's cairo): a picture drawn twice on one page is
// one image object, as it should be, but the page's /XObject resource dictionary lists it once
// per use (`/x7 7 0 R /x7 7 0 R`), which qpdf reports as a duplicated key. The repeated entry is
// overwritten with spaces, so no byte moves and the cross-reference table stays right; the
// first entry names the same object, so nothing a reader sees changes.

enum PDFDuplicateResources {
    /// `pdf` with the repeated entries of its resource sub-dictionaries (`/XObject`,
    /// `/Pattern`, `/Font`, `/ExtGState` entries of the form `/name N G R`) blanked. Stream
    /// data is never touched.
    static func blanked(_ pdf: [UInt8]) -> [UInt8] {
        var out = pdf
        let stream = Array("stream".utf8), endstream = Array("endstream".utf8)
        let heads = ["/XObject", "/Pattern", "/Font"].map { Array(($0 + " <<").utf8) }
        var i = 0
        while i < out.count {
            if matches(out, at: i, stream) && (i == 0 || out[i - 1] != UInt8(ascii: "d")) {
                // Skip to the matching endstream: stream data may hold any bytes.
                var j = i + stream.count
                while j < out.count && !matches(out, at: j, endstream) { j += 1 }
                i = j + endstream.count
                continue
            }
            if let head = heads.first(where: { matches(out, at: i, $0) }) {
                i = blankRepeats(&out, from: i + head.count)
                continue
            }
            i += 1
        }
        return out
    }

    private static func matches(_ b: [UInt8], at i: Int, _ word: [UInt8]) -> Bool {
        i + word.count <= b.count && b[i..<(i + word.count)].elementsEqual(word)
    }

    /// Reads `/name N G R` entries up to `>>`, blanking those seen before; returns the index
    /// after the dictionary (or where an entry of another form starts).
    private static func blankRepeats(_ b: inout [UInt8], from start: Int) -> Int {
        var seen = Set<[UInt8]>()
        var i = start
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }
        while i < b.count {
            while i < b.count && isSpace(b[i]) { i += 1 }
            if matches(b, at: i, [UInt8(ascii: ">"), UInt8(ascii: ">")]) { return i + 2 }
            guard i < b.count, b[i] == UInt8(ascii: "/") else { return i }
            // An entry: a name and three tokens (object number, generation, R).
            let entryStart = i
            var tokens = 0
            while i < b.count && tokens < 4 {
                while i < b.count && !isSpace(b[i]) && b[i] != UInt8(ascii: ">") && !(tokens == 0 && i > entryStart && b[i] == UInt8(ascii: "/")) { i += 1 }
                tokens += 1
                if tokens < 4 { while i < b.count && isSpace(b[i]) { i += 1 } }
            }
            let entry = Array(b[entryStart..<i])
            guard entry.last == UInt8(ascii: "R") else { return i }
            if !seen.insert(entry).inserted {
                for k in entryStart..<i { b[k] = 0x20 }
            }
        }
        return i
    }
}
