// The fast page-file paths checked against the slow obvious versions they replace, byte for
// byte, on seeded random pages: the writer against `page.json.serializedBytes()`, the reader
// against the complete decoder (`Page.decodeValue`) on the writer's files, on files spelled
// differently and on damaged files, numbers against `Double.description`, string escapes
// against the writer's former byte loop.

import Foundation
import Testing

@testable import TechoModel

/// The JSON writer's layout with each number spelled by `number` and, when `compact`, no white
/// space at all, or with extra white space when `loose`: the same value, other bytes.
func restyled(_ v: JSONValue, indent: Int = 0, compact: Bool = false, loose: Bool = false, number: (Double) -> String) -> String {
    let nl = compact ? "" : "\n"
    func pad(_ n: Int) -> String { compact ? "" : String(repeating: loose ? "   " : "  ", count: n) }
    switch v {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let d): return number(d)
    case .string(let s):
        let out = ByteSink()
        JSONWriter.writeString(s, into: out)
        return String(decoding: out.bytes, as: UTF8.self)
    case .array(let items):
        if items.isEmpty { return loose ? "[ ]" : "[]" }
        let inner = items.map { restyled($0, indent: indent + 1, compact: compact, loose: loose, number: number) }
        if items.allSatisfy(\.isScalar) { return "[" + inner.joined(separator: compact ? "," : loose ? " ,  " : ", ") + "]" }
        return "[" + nl + inner.map { pad(indent + 1) + $0 }.joined(separator: "," + nl) + nl + pad(indent) + "]"
    case .object(let dict):
        if dict.isEmpty { return "{}" }
        // A loose file lists its keys in reverse order.
        var keys = dict.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if loose { keys.reverse() }
        let colon = compact ? ":" : loose ? " :  " : ": "
        let inner = keys.map { k in
            pad(indent + 1) + restyled(.string(k), number: number) + colon
                + restyled(dict[k] ?? .null, indent: indent + 1, compact: compact, loose: loose, number: number)
        }
        return "{" + nl + inner.joined(separator: "," + nl) + nl + pad(indent) + "}"
    }
}

/// The writer's number text before `JSONNumberText`: the slow obvious version.
func referenceNumberText(_ d: Double) -> String {
    if d == d.rounded() && abs(d) < 9_007_199_254_740_992 { return String(Int64(d)) }
    return d.description
}

/// The writer's string escaping before the word-at-a-time loop, as it was.
func referenceString(_ s: String) -> [UInt8] {
    var out: [UInt8] = [0x22]
    var s = s
    s.withUTF8 { u in
        var run = 0
        var i = 0
        func flush() { if run < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: u[run..<i])) } }
        while i < u.count {
            let c = u[i]
            var escape: String?
            switch c {
            case 0x22: escape = "\\\""
            case 0x5C: escape = "\\\\"
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            case 0x08: escape = "\\b"
            case 0x0C: escape = "\\f"
            case 0..<0x20:
                let h = String(c, radix: 16)
                escape = "\\u" + String(repeating: "0", count: 4 - h.count) + h
            case 0xE2 where i + 2 < u.count && u[i + 1] == 0x80 && (u[i + 2] == 0xA8 || u[i + 2] == 0xA9):
                flush()
                out += (u[i + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8
                i += 3; run = i
                continue
            default: break
            }
            if let escape {
                flush()
                out += escape.utf8
                run = i + 1
            }
            i += 1
        }
        flush()
    }
    out.append(0x22)
    return out
}

/// Whether JSON text holds a number (outside strings) with an exponent or over 15 digits.
func hasLongNumber(_ bytes: ArraySlice<UInt8>) -> Bool {
    var inString = false, escaped = false, digits = 0, inNumber = false
    for c in bytes {
        if inString {
            if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == 0x22 { inString = false }
            continue
        }
        if c == 0x22 { inString = true; continue }
        if c >= 0x30 && c <= 0x39 {
            inNumber = true
            digits += 1
            if digits > 15 { return true }
        } else if inNumber && (c == UInt8(ascii: "e") || c == UInt8(ascii: "E")) {
            return true
        } else if !(inNumber && c == UInt8(ascii: ".")) {
            inNumber = false
            digits = 0
        }
    }
    return false
}

/// The element's object as the writer writes it inside a page.
func writtenElement(_ e: Element) -> [UInt8] {
    let out = ByteSink()
    PageFileWriter.writeElement(e, indent: 2, into: out)
    return out.bytes
}

/// The reader's result compared with the complete decoder's: the same page, and every element
/// it calls as written is the writer's bytes. Returns the read (nil when the reader declined).
@discardableResult
func checkRead(_ bytes: [UInt8], _ context: String) -> PageFileReader.Read? {
    let slow = try? Page.decodeValue(bytes: bytes, file: "pages/p1.json")
    let fast = PageFileReader.read(bytes, file: "pages/p1.json", limits: .default)
    if slow == nil {
        #expect(fast == nil, "the fast reader took a file the decoder refuses (\(context))")
        return nil
    }
    guard let fast, let slow else { return nil }
    #expect(fast.page == slow && fast.page.encodesIdentically(slow), "\(context)")
    #expect(fast.elements.count == fast.page.elements.count && fast.asWritten.count == fast.page.elements.count, "\(context)")
    for (i, span) in fast.elements.enumerated() where fast.asWritten[i] {
        #expect(Array(bytes[span]) == writtenElement(fast.page.elements[i]), "element \(i) called as written (\(context))")
    }
    // Copying the elements called as written gives what writing the page gives.
    let written = PageFileWriter.Written(page: fast.page, bytes: bytes, elements: zip(fast.elements, fast.asWritten).map { $1 ? $0 : nil })
    #expect(PageFileWriter.serialize(fast.page, reusing: written).bytes == fast.page.json.serializedBytes(), "\(context)")
    return fast
}

@Suite struct PageFileTests {
    @Test func theWriterWritesWhatTheJSONValueWriterWrites() throws {
        for seed in 0..<400 {
            var r = RandomPages(seed: UInt64(seed))
            let page = try r.page()
            let (bytes, spans) = PageFileWriter.serialize(page)
            #expect(bytes == page.json.serializedBytes(), "seed \(seed)")
            #expect(page.serialized() == bytes)
            #expect(spans.count == page.elements.count)
            for (i, span) in spans.enumerated() {
                #expect(Array(bytes[span]) == writtenElement(page.elements[i]), "seed \(seed) element \(i)")
                let value = ByteSink()
                JSONWriter.write(page.elements[i].json, indent: 2, into: value)
                #expect(value.bytes == writtenElement(page.elements[i]))
            }
        }
    }

    @Test func copyingUnchangedElementsWritesWhatWritingThemWrites() throws {
        for seed in 0..<200 {
            var r = RandomPages(seed: UInt64(1000 + seed))
            let before = try r.page(elements: r.int(1...8))
            let (bytes, spans) = PageFileWriter.serialize(before)
            var after = before
            // Move, drop, reorder and add elements; change one in place.
            switch r.int(0...3) {
            case 0: after.elements.swapAt(0, after.elements.count - 1)
            case 1: after.elements.remove(at: r.int(0...(after.elements.count - 1)))
            case 2: after.elements.append(try r.element("new-1", asset: try AssetRef(sha256: String(repeating: "ef", count: 32), ext: "jpg")))
            default:
                let i = r.int(0...(after.elements.count - 1))
                if after.elements[i].kind != .ink { try after.elements[i].placement.apply(.pan(dx: 5, dy: 3)) } else { after.elements[i].hidden.toggle() }
            }
            let written = PageFileWriter.Written(page: before, bytes: bytes, elements: spans)
            #expect(PageFileWriter.serialize(after, reusing: written).bytes == after.json.serializedBytes(), "seed \(seed)")
        }
    }

    @Test func aStringEqualUnderSwiftButSpelledOtherwiseIsNotCopied() throws {
        // "é" and "e + combining acute" are equal Strings with different bytes.
        var t = TextContent(text: "caf\u{e9}")
        let a = try Element(id: "t", content: .text(t), placement: Placement(center: Point(1, 2)))
        t.text = "cafe\u{301}"
        let b = try Element(id: "t", content: .text(t), placement: Placement(center: Point(1, 2)))
        #expect(a == b && !a.encodesIdentically(b))
        let before = try Page(id: "p1", elements: [a])
        let after = try Page(id: "p1", elements: [b])
        let (bytes, spans) = PageFileWriter.serialize(before)
        let written = PageFileWriter.Written(page: before, bytes: bytes, elements: spans)
        #expect(PageFileWriter.serialize(after, reusing: written).bytes == after.json.serializedBytes())
    }

    @Test func theReaderReadsTheWritersFilesAsTheDecoderDoes() throws {
        for seed in 0..<400 {
            var r = RandomPages(seed: UInt64(seed))
            let page = try r.page()
            let (bytes, spans) = PageFileWriter.serialize(page)
            let read = checkRead(bytes, "seed \(seed)")
            #expect(read != nil, "the fast reader declined a file the writer wrote (seed \(seed))")
            guard let read else { continue }
            #expect(read.elements == spans)
            for (i, e) in read.page.elements.enumerated() {
                // Every element the writer wrote is seen as written, but ink layers holding
                // strokes the fast reader leaves to the decoder, or numbers it cannot judge
                // from their text (exponents, 16 or 17 digits).
                var plain = true
                if case .ink(let ink) = e.content {
                    plain = e.clip == nil && ink.strokes.allSatisfy(PageFileWriter.isPlain) && !hasLongNumber(bytes[spans[i]])
                }
                if plain { #expect(read.asWritten[i], "seed \(seed) element \(i)") }
            }
            #expect(try Page.decode(bytes: bytes) == page)
        }
    }

    @Test func theReaderReadsOtherSpellingsAsTheDecoderDoes() throws {
        for seed in 0..<300 {
            var r = RandomPages(seed: UInt64(5000 + seed))
            let page = try r.page()
            var rng = SeededRNG(seed: UInt64(seed))
            // Some numbers spelled otherwise: a trailing zero, an exponent, "-0".
            let respelled = restyled(page.json) { d in
                let t = JSONNumberText.string(d)
                switch rng.int(in: 0...9) {
                case 0: return t.contains(".") && !t.contains("e") ? t + "0" : t + ".0"
                case 1: return t + "e0"
                case 2: return d == 0 ? "-0" : t
                default: return t
                }
            }
            checkRead(Array((respelled + "\n").utf8), "respelled, seed \(seed)")
            checkRead(Array(restyled(page.json, compact: true, number: JSONNumberText.string).utf8), "compact, seed \(seed)")
            checkRead(Array(restyled(page.json, loose: true, number: JSONNumberText.string).utf8), "loose, seed \(seed)")
        }
    }

    @Test func theReaderTakesNoDamagedFileTheDecoderRefuses() throws {
        let interesting = Array("0123456789-+.eE,:[]{}\" \nax\\".utf8)
        var rng = SeededRNG(seed: 77)
        for seed in 0..<120 {
            var r = RandomPages(seed: UInt64(9000 + seed))
            let page = try r.page(elements: r.int(1...5))
            let good = page.serialized()
            for _ in 0..<25 {
                var bytes = good
                for _ in 0..<rng.int(in: 1...3) {
                    let at = rng.int(in: 0...(bytes.count - 1))
                    switch rng.int(in: 0...3) {
                    case 0: bytes[at] = interesting[rng.int(in: 0...(interesting.count - 1))]
                    case 1: bytes.remove(at: at)
                    case 2: bytes.insert(interesting[rng.int(in: 0...(interesting.count - 1))], at: at)
                    default: bytes.insert(contentsOf: bytes[at..<Swift.min(bytes.count, at + rng.int(in: 1...12))], at: at)
                    }
                }
                checkRead(bytes, "damaged, seed \(seed)")
                // Page.decode (fast reader first) reports exactly what the complete decoder reports.
                let fastProblems = problems { _ = try Page.decode(bytes: bytes, file: "pages/p1.json") }
                let slowProblems = problems { _ = try Page.decodeValue(bytes: bytes, file: "pages/p1.json") }
                #expect(fastProblems == slowProblems)
            }
        }
    }

    @Test func strokeValuesOutOfRangeAreLeftToTheDecoder() throws {
        let cases = [
            #"[[1, 2, 1.5]]"#, #"[[2e7, 0]]"#, #"[[1, 2, 3, 4]]"#, #"[["1mm", 2]]"#, #"[]"#, #"[[1, 2],]"#, #"[[1 2]]"#, #"[[01, 2]]"#,
        ]
        for points in cases {
            for extra in ["", #", "width": 0"#, #", "opacity": 2"#, #", "tool": "crayon""#, ##", "color": "#12""##, #", "cap": "butt""#, #", "points": []"#] {
                let text =
                    #"{"id":"p1","width":10,"height":10,"dpi":300,"elements":[{"id":"ink-1","type":"ink","strokes":[{"tool":"pencil","width":2,"points":\#(points)\#(extra)}]}]}"#
                let bytes = Array(text.utf8)
                checkRead(bytes, "\(points) \(extra)")
                #expect(problems { _ = try Page.decode(bytes: bytes) } == problems { _ = try Page.decodeValue(bytes: bytes) })
            }
        }
    }

    @Test func numberTextIsTheDescription() {
        var rng = SeededRNG(seed: 2026)
        var values: [Double] = [
            0, -0.0, 1e-4, 9.999999999999999e-5, 0.00012, 1e15 + 0.5, 4503599627370495.5, 9_007_199_254_740_992, 9_007_199_254_740_993, 1e16, 1e300, 5e-324,
            0.1, 0.1 + 0.2, 123.456, -1.5,
        ]
        for _ in 0..<100_000 {
            switch rng.int(in: 0...5) {
            case 0: values.append(Double(bitPattern: rng.next()))
            case 1: values.append((rng.uniform(-1e6...1e6) * 100).rounded() / 100)
            case 2: values.append(Double(rng.int(in: -1_000_000_000...1_000_000_000)) / pow(10, Double(rng.int(in: 0...18))))
            case 3: values.append(rng.uniform(-1...1) * pow(10, Double(rng.int(in: -8...17))))
            case 4: values.append(Double(rng.int(in: 1...99999)) * 1e-8)
            default: values.append(rng.uniform(0...1))
            }
        }
        for d in values where d.isFinite {
            #expect(JSONNumberText.string(d) == referenceNumberText(d), "\(d.bitPattern)")
        }
    }

    @Test func aNumberCalledTheWritersSpellingIsIt() throws {
        // Every spelling of random values; the reader's judgement from the text alone must
        // never call a text the writer's when the writer writes something else.
        var rng = SeededRNG(seed: 31)
        for _ in 0..<50_000 {
            let d = rng.int(in: 0...1) == 0 ? (rng.uniform(-5000...5000) * 1000).rounded() / 1000 : rng.uniform(-1...1) * pow(10, Double(rng.int(in: -7...15)))
            let t = JSONNumberText.string(d)
            for text in [t, t + "0", t + ".0", t + "e0", "-" + t, "0" + t, t.replacingOccurrences(of: "e-", with: "E-")] {
                let bytes = Array(text.utf8)
                let parsed: (Double, Bool)? = bytes.withUnsafeBufferPointer { buf in
                    var p = JSONByteParser(buf: buf, file: nil, maxDepth: 64)
                    guard let (v, spelled) = try? p.writerNumber(), p.pos == buf.count else { return nil }
                    var q = JSONByteParser(buf: buf, file: nil, maxDepth: 64)
                    guard let w = try? q.number(), w.bitPattern == v.bitPattern else {
                        Issue.record("writerNumber and number differ on \(text)")
                        return nil
                    }
                    #expect(spelled == p.isWriterNumber(0..<buf.count), "\(text)")
                    return (v, spelled)
                }
                guard let (v, spelled) = parsed else { continue }
                if spelled { #expect(JSONNumberText.string(v) == text, "\(text) called the writer's spelling") }
                if text == t && !t.contains("e") && t.filter(\.isNumber).count <= 15 { #expect(spelled, "\(text) not recognised") }
            }
        }
    }

    @Test func stringsAreEscapedAsBefore() {
        var rng = SeededRNG(seed: 8)
        let pieces = [
            "a", "bc", "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{c}", "\u{0}", "\u{1f}", "\u{7f}", "\u{2028}", "\u{2029}", "\u{2027}", "€", "京都", "🙂", "/",
            " ",
        ]
        for _ in 0..<20_000 {
            var s = ""
            for _ in 0..<rng.int(in: 0...40) { s += pieces[rng.int(in: 0...(pieces.count - 1))] }
            if rng.int(in: 0...9) == 0 { s += String(repeating: "x", count: rng.int(in: 0...9000)) + s }
            let out = ByteSink()
            JSONWriter.writeString(s, into: out)
            #expect(out.bytes == referenceString(s), "\(Array(s.utf8))")
        }
    }
}

/// Long strokes arrays (a page of handwriting): what the fast reader reads is what the complete
/// decoder reads, for one long layer or two, plain strokes or not; and a damaged number
/// anywhere in them is refused as the decoder refuses it.
@Suite struct LongInkTests {
    func longPage(seed: UInt64, layers: [Int], plainOnly: Bool) throws -> Page {
        var r = RandomPages(seed: seed)
        var elements: [Element] = []
        for (k, n) in layers.enumerated() {
            var strokes: [Stroke] = []
            while strokes.count < n {
                let s = try r.stroke()
                if !plainOnly || PageFileWriter.isPlain(s) { strokes.append(s) }
            }
            elements.append(try Element(id: "ink\(k)", content: .ink(InkContent(strokes: strokes))))
        }
        return try Page(id: "p1", elements: elements)
    }

    @Test func aLongInkLayerReadsAsTheDecoderReadsIt() throws {
        for (seed, layers, plain) in [(1, [6000], true), (2, [6000], false), (3, [40, 6000], true), (4, [5000, 5000], false), (5, [9000, 30], true)] {
            let page = try longPage(seed: UInt64(seed), layers: layers, plainOnly: plain)
            let bytes = page.serialized()
            #expect(bytes.count > 512 * 1024, "seed \(seed): \(bytes.count) bytes")
            let read = checkRead(bytes, "long, seed \(seed)")
            #expect(read != nil, "seed \(seed)")
            // As for short pages: an ink layer of plain strokes is seen as written unless a
            // number has more digits than its text can be judged by.
            if plain, let read {
                for (i, span) in read.elements.enumerated() where !hasLongNumber(bytes[span]) {
                    #expect(read.asWritten[i], "seed \(seed) element \(i)")
                }
            }
        }
    }

    @Test func aDamagedNumberInALongLayerIsRefusedAsTheDecoderRefusesIt() throws {
        let page = try longPage(seed: 9, layers: [6000], plainOnly: true)
        let good = page.serialized()
        for fraction in [0.2, 0.45, 0.55, 0.8, 0.97] {
            let bytes = good
            // The first digit of a number at or after the point (not of a stroke's id, a string):
            // made a letter, or made a huge exponent.
            var at = Int(Double(bytes.count) * fraction)
            func inString(_ i: Int) -> Bool {
                var k = i
                while k > 0 && bytes[k - 1] != UInt8(ascii: "\n") { k -= 1 }
                return bytes[k..<i].contains(UInt8(ascii: "\"")) && bytes[k..<i].filter { $0 == UInt8(ascii: "\"") }.count % 2 == 1
            }
            while !(bytes[at] >= 0x30 && bytes[at] <= 0x39) || inString(at) { at += 1 }
            for damage in [[UInt8(ascii: "x")], Array("9e999".utf8)] {
                var damaged = bytes
                damaged.replaceSubrange(at...at, with: damage)
                checkRead(damaged, "damaged at \(fraction)")
                let fast = problems { _ = try Page.decode(bytes: damaged, file: "pages/p1.json") }
                let slow = problems { _ = try Page.decodeValue(bytes: damaged, file: "pages/p1.json") }
                #expect(!slow.isEmpty && fast == slow, "damaged at \(fraction)")
            }
        }
    }
}
