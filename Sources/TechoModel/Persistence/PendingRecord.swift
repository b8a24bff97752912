// The write-ahead record of a change (`history/pending.json`, docs/decisions/storage.md): the
// full new contents of every file the change touches, each as a JSON string. Escaping a page
// into that string costs more than every other step of a held change together (a page file is
// a quote or newline every dozen bytes), so a store keeps each page's escaped text with the
// page (`EscapedText`) and the next record escapes only the bytes that changed, copying the
// text of the bytes before and after them, as the page file itself is written by copying the
// elements that did not change.

/// A file's content as the body of a JSON string (escaped as `JSONWriter` escapes, without the
/// quotes), and places in the content where the escape of what comes before is a prefix of
/// the whole text: positions after an ASCII byte, where no three-byte U+2028 or U+2029 is cut.
struct EscapedText {
    /// The escaped content.
    var text: [UInt8]
    /// (content offset, text offset) pairs, increasing, always including the start and the end.
    var marks: [(content: Int, text: Int)]

    /// Content bytes between marks when escaping: a copy can start or end that close to a change.
    static let markSpacing = 4096

    /// The escape of `content`, marked every `markSpacing` bytes or so.
    init(_ content: UnsafeBufferPointer<UInt8>) {
        let out = ByteSink(capacity: content.count + content.count / 4 + 16)
        self = EscapedText(content, into: out)
    }

    /// The escape of `content`, written at the end of `out` too.
    init(_ content: UnsafeBufferPointer<UInt8>, into out: ByteSink) {
        let start = out.count
        marks = EscapedText.escape(content, from: 0, into: out, textBase: 0)
        text = out.bytes(start..<out.count)
    }

    private init(text: [UInt8], marks: [(content: Int, text: Int)]) { self.text = text; self.marks = marks }

    /// Escapes `content[from...]` into `out` (whose bytes so far are text offset `textBase`),
    /// answering the marks it passes, the first at `from` and the last at the end.
    static func escape(_ content: UnsafeBufferPointer<UInt8>, from: Int, to end: Int? = nil, into out: ByteSink, textBase: Int)
        -> [(content: Int, text: Int)]
    {
        let end = end ?? content.count
        var marks: [(content: Int, text: Int)] = [(from, textBase)]
        var i = from
        let start = out.count
        while i < end {
            // The next cut after an ASCII byte, at least markSpacing on.
            var cut = Swift.min(end, i + markSpacing)
            while cut < end && content[cut - 1] >= 0x80 { cut += 1 }
            JSONWriter.writeStringBody(utf8: UnsafeBufferPointer(rebasing: content[i..<cut]), into: out)
            i = cut
            marks.append((i, textBase + out.count - start))
        }
        if marks.count == 1 && end > from { marks.append((end, textBase + out.count - start)) }
        return marks
    }

    /// The escaped text of `new`, made from this one, the text of `old`, by copying the text of
    /// the bytes both start and end with (from mark to mark) and escaping the rest; also
    /// written at the end of `out` (nil, and nothing written, when the bytes escaped anew are
    /// not valid UTF-8: the text would not be what the record writes for them).
    /// - Complexity: O(n) byte compares and copies, escapes only between the marks around the change.
    func updated(from old: UnsafeBufferPointer<UInt8>, to new: UnsafeBufferPointer<UInt8>, into out: ByteSink) -> EscapedText? {
        guard let op = old.baseAddress, let np = new.baseAddress, marks.last?.content == old.count else {
            return JournalStore.isValidUTF8(new) ? EscapedText(new, into: out) : nil
        }
        let same = LineDiff.commonPrefix(op, np, min(old.count, new.count))
        let tail = LineDiff.commonSuffix(op, old.count, np, new.count, limit: min(old.count, new.count) - same)
        // The last mark in the common start, and the first in the common end that lies after it
        // in the new file too, and after an ASCII byte there.
        let delta = new.count - old.count
        guard let head = marks.last(where: { $0.content <= same }),
            let back = marks.first(where: { m in
                let n = m.content + delta
                return m.content >= old.count - tail && n >= head.content && (n == 0 || n == new.count || new[n - 1] < 0x80)
            })
        else { return JournalStore.isValidUTF8(new) ? EscapedText(new, into: out) : nil }
        let newBack = back.content + delta
        // What is copied was valid in the old file; only the new part needs checking.
        guard JournalStore.isValidUTF8(UnsafeBufferPointer(rebasing: new[head.content..<newBack])) else { return nil }
        let start = out.count
        text.withUnsafeBufferPointer { t in out.append(UnsafeBufferPointer(rebasing: t[0..<head.text])) }
        var marks = Array(self.marks.prefix { $0.content < head.content })
        marks += EscapedText.escape(new, from: head.content, to: newBack, into: out, textBase: head.text)
        let shift = out.count - start - back.text
        text.withUnsafeBufferPointer { t in out.append(UnsafeBufferPointer(rebasing: t[back.text...])) }
        for m in self.marks where m.content > back.content { marks.append((m.content + delta, m.text + shift)) }
        if marks.last?.content != new.count { marks.append((new.count, out.count - start)) }
        return EscapedText(text: out.bytes(start..<out.count), marks: marks)
    }

    /// `updated(from:to:into:)` on its own.
    func updated(from old: UnsafeBufferPointer<UInt8>, to new: UnsafeBufferPointer<UInt8>) -> EscapedText? {
        updated(from: old, to: new, into: ByteSink(capacity: text.count + 64))
    }
}

extension JournalStore {
    /// The bytes of `history/pending.json` for `writes`: those of the JSON value
    /// `{"writes": [{"path": P, "content": C or null}, …]}`, written without making a string of
    /// each file's content (its bytes are escaped straight from the buffer; a content that is
    /// not valid UTF-8 goes through a string as before, so it is repaired the same way). A write
    /// whose file `before` holds the escaped text of (`(old bytes, text)`) is escaped from it,
    /// only where the bytes changed. Answers the escaped text of each write, to keep.
    static func pendingRecord(
        _ writes: [(path: String, bytes: [UInt8]?)], before: [String: (bytes: [UInt8], text: EscapedText)] = [:]
    ) -> (bytes: [UInt8], texts: [String: EscapedText]) {
        let out = ByteSink(capacity: writes.reduce(256) { $0 + ($1.bytes?.count ?? 0) * 9 / 8 + 64 })
        var texts: [String: EscapedText] = [:]
        out.append("{\n  \"writes\": ")
        if writes.isEmpty {
            out.append("[]")
        } else {
            out.append("[\n")
            for (i, w) in writes.enumerated() {
                out.append("    {\n      \"content\": ")
                if let bytes = w.bytes {
                    bytes.withUnsafeBufferPointer { b in
                        out.append(0x22)
                        let text: EscapedText?
                        if let old = before[w.path] {
                            text = old.bytes.withUnsafeBufferPointer { o in old.text.updated(from: o, to: b, into: out) }
                        } else {
                            text = isValidUTF8(b) ? EscapedText(b, into: out) : nil
                        }
                        if let text {
                            out.append(0x22)
                            texts[w.path] = text
                        } else {
                            out.truncate(to: out.count - 1)
                            JSONWriter.writeString(String(decoding: b, as: UTF8.self), into: out)
                        }
                    }
                } else {
                    out.append("null")
                }
                out.append(",\n      \"path\": ")
                JSONWriter.writeString(w.path, into: out)
                out.append(i + 1 < writes.count ? "\n    },\n" : "\n    }\n")
            }
            out.append("  ]")
        }
        out.append("\n}\n")
        return (out.bytes, texts)
    }

    /// Whether the bytes are well-formed UTF-8 (RFC 3629: no overlong forms, surrogates or
    /// values past U+10FFFF), ASCII eight bytes at a time.
    static func isValidUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let p = b.baseAddress else { return true }
        let raw = UnsafeRawPointer(p)
        var i = 0
        let n = b.count
        while i < n {
            if i + 8 <= n && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            let need: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; high = 0x9F
            case 0xF0: need = 3; low = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; high = 0x8F
            default: return false
            }
            guard i + need < n else { return false }
            guard b[i + 1] >= low && b[i + 1] <= high else { return false }
            for k in 2...Swift.max(2, need) where k <= need {
                guard b[i + k] >= 0x80 && b[i + k] <= 0xBF else { return false }
            }
            i += need + 1
        }
        return true
    }
}
