// The fast page-file paths checked against the slow obvious versions they replace, byte for
// byte, on seeded random pages: the writer against `page.json.serializedBytes()`, numbers
// against `Double.description`, string escapes against the writer's former byte loop.

import Foundation
import Testing

@testable import TechoModel

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

/// The element's object as the writer writes it inside a page.
func writtenElement(_ e: Element) -> [UInt8] {
    let out = ByteSink()
    PageFileWriter.writeElement(e, indent: 2, into: out)
    return out.bytes
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
