// The byte-level pieces of a change checked against the slow obvious versions they replace.

import Foundation
import Testing

@testable import TechoModel

@Suite(.serialized) struct HeldJournalTests {
    @Test func theLineDiffOfBytesIsTheLineDiffOfLines() {
        // Every pair of files of up to five bytes of "a", "b" and newlines, and no file.
        var files: [[UInt8]?] = [nil, []]
        var level: [[UInt8]] = [[]]
        for _ in 1...5 {
            level = level.flatMap { f in [0x61, 0x62, 0x0A].map { f + [$0] } }
            files += level.map { $0 }
        }
        for a in files {
            for b in files {
                #expect(LineDiff(from: a, to: b) == LineDiff(from: LineDiff.lines(a), to: LineDiff.lines(b)))
            }
        }
        // Long files with a local change, across the 8-byte and 4 KiB steps of the compare.
        var rng = SeededRNG(seed: 12)
        for _ in 0..<400 {
            var lines: [[UInt8]] = []
            for _ in 0..<rng.int(in: 0...3000) { lines.append(Array(repeating: UInt8(0x61 + rng.int(in: 0...2)), count: rng.int(in: 0...30))) }
            var old = Array(lines.joined(separator: [0x0A]))
            if rng.int(in: 0...1) == 0 { old.append(0x0A) }
            var new = old
            if !new.isEmpty {
                let at = rng.int(in: 0...(new.count - 1))
                let end = Swift.min(new.count, at + rng.int(in: 0...40))
                let insert = (0..<rng.int(in: 0...40)).map { _ in [0x61, 0x0A, 0x62][rng.int(in: 0...2)] as UInt8 }
                new.replaceSubrange(at..<end, with: insert)
            }
            #expect(LineDiff(from: old, to: new) == LineDiff(from: LineDiff.lines(old), to: LineDiff.lines(new)))
        }
    }

    @Test func thePendingRecordIsTheJSONValueRecord() {
        var rng = SeededRNG(seed: 3)
        let samples: [[UInt8]] = [
            [], Array("{\n  \"a\": 1\n}\n".utf8), Array("京都 \u{2028} \"q\" \\ \t".utf8), [0x61, 0xFF, 0xC3, 0x28, 0x62], Array(repeating: 0x41, count: 5000),
        ]
        for _ in 0..<300 {
            var writes: [(path: String, bytes: [UInt8]?)] = []
            for k in 0..<rng.int(in: 0...4) {
                writes.append(("pages/p\(k).json", rng.int(in: 0...4) == 0 ? nil : samples[rng.int(in: 0...(samples.count - 1))]))
            }
            let reference: JSONValue = [
                "writes": .array(
                    writes.map { w in ["path": .string(w.path), "content": w.bytes.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null] })
            ]
            #expect(JournalStore.pendingRecord(writes) == reference.serializedBytes())
        }
    }
}
