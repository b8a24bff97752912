// Model figures: encoding, decoding and saving a 200-element page, and history cost per step.

import Foundation
import TechoModel

private func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

private func timed(_ label: String, runs: Int, _ body: () throws -> Void) rethrows {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<runs { try body() }
    let each = seconds(clock.now - start) / Double(runs)
    let padded = label.padding(toLength: 48, withPad: " ", startingAt: 0)
    print("  \(padded) \(String(format: "%9.3f", each * 1000)) ms")
}

/// A page of 200 elements: text, image stickers and an ink layer with 50 strokes of 100 points.
func benchPage(asset: AssetRef) throws -> Page {
    var elements: [Element] = []
    for i in 0..<199 {
        if i % 2 == 0 {
            var t = TextContent(text: "note \(i) — a line of journal text")
            t.size = 40
            elements.append(
                try Element(
                    id: "text-\(i)", content: .text(t), placement: Placement(center: Point(Double(i) * 7.5, Double(i) * 11.25), rotation: Double(i % 30) - 15)))
        } else {
            elements.append(
                try Element(
                    id: "image-\(i)", content: .image(ImageContent(asset: asset, naturalWidth: 640, naturalHeight: 480)),
                    placement: Placement(center: Point(Double(i) * 8.25, 700.5), scale: 0.37, rotation: Double(i % 90))))
        }
    }
    let strokes = try (0..<50).map { s in
        try Stroke(tool: .pencil, width: 4, points: (0..<100).map { StrokePoint(Double(s * 10 + $0) * 1.5, Double($0) * 2.25, pressure: 0.5) })
    }
    elements.append(try Element(id: "ink-1", content: .ink(InkContent(strokes: strokes))))
    return try Page(id: "p1", elements: elements)
}

func modelBench() {
    do {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-bench-model-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("sticker.png")
        try Data("sticker".utf8).write(to: src)
        let asset = try AssetRef(sha256: SHA256.hex(Array("sticker".utf8)), ext: "png")
        let page = try benchPage(asset: asset)
        let bytes = page.serialized()
        print("  page: 200 elements (ink: 50 strokes x 100 points), \(bytes.count) bytes")
        timed("serialize page to JSON bytes", runs: 50) { _ = page.serialized() }
        try timed("parse + decode page", runs: 50) { _ = try Page.decode(bytes: bytes) }
        let store = try JournalStore.create(
            at: dir.appendingPathComponent("bench.techo"), journal: Journal(pageOrder: ["p1"]),
            pages: [page], assets: [asset: src])
        var k = 0
        for durable in [true, false] {
            store.durable = durable
            try timed("transaction: move one element (\(durable ? "fsync" : "no fsync"))", runs: 40) {
                k += 1
                try store.transaction(description: "move \(k)") { _, pages in
                    try pages["p1"]?.elements[k % 199].placement.apply(.pan(dx: 1, dy: 0.5))
                }
            }
        }
        store.durable = true
        try timed("undo one step (fsync)", runs: 20) { try store.undo() }
        let history = dir.appendingPathComponent("bench.techo/history")
        let names = try FileManager.default.contentsOfDirectory(atPath: history.path).filter { $0 != "state.json" }
        let total = try names.reduce(0) {
            $0 + ((try FileManager.default.attributesOfItem(atPath: history.appendingPathComponent($1).path)[.size] as? NSNumber)?.intValue ?? 0)
        }
        print("  history: \(names.count) steps, \(total / max(1, names.count)) bytes per step (one element moved)")
    } catch {
        print("  model bench failed: \(error)")
    }
}
