// A page's ink strokes in its ink file (pages/<id>.ink.json): the page file and the ink file
// read back as exactly the page's bytes, in the writer's layout and in others; a change that
// does not touch the strokes does not write the ink file; every way the two files can disagree
// is an error naming the file at fault.

import Foundation
import Testing

@testable import TechoModel

private func inkLayers(_ page: Page, _ spans: [Range<Int>]) -> [(id: String, span: Range<Int>)] { InkFile.layers(of: page, at: spans) }

private func stroke(_ x: Double) throws -> Stroke {
    try Stroke(tool: .pencil, color: .black, width: 3, points: [StrokePoint(x, 10, pressure: 0.5), StrokePoint(x + 5, 20, pressure: 0.7)])
}

/// A page of one sticker and one ink layer of `strokes` strokes.
private func inkPage(strokes: Int, asset: AssetRef) throws -> Page {
    let ink = try Element(id: "ink-1", content: .ink(InkContent(strokes: (0..<strokes).map { try stroke(Double($0)) })))
    let sticker = try Element(
        id: "s1", content: .image(ImageContent(asset: asset, naturalWidth: 64, naturalHeight: 64)), placement: Placement(center: Point(50, 50)))
    return try Page(id: "p1", elements: [sticker, ink])
}

@Suite struct InkFileTests {
    @Test(arguments: 0..<60) func splitAndJoinGiveTheBytesBack(seed: Int) throws {
        var r = RandomPages(seed: UInt64(seed) &* 7919 &+ 13)
        let page = try r.page(elements: r.int(1...6))
        let (whole, spans) = PageFileWriter.serialize(page)
        let layers = inkLayers(page, spans)
        let (file, ink) = InkFile.split(whole, page: "p1", layers: layers)
        // Found by their layout, the cuts are the ones the writer's spans give.
        let found = InkFile.split(whole, page: "p1", layers: nil)
        #expect(found.page == file && found.ink == ink)
        #expect(try InkFile.join(page: file, ink: ink, id: "p1", limits: .default).whole == whole)
        // Each layer with strokes is in the ink file, and both files are JSON.
        #expect((ink != nil) == !layers.isEmpty)
        _ = try JSONParser.parse(file)
        if let ink {
            guard case .object(let o) = try JSONParser.parse(ink), case .array(let items)? = o["layers"] else {
                Issue.record("not an ink file")
                return
            }
            #expect(items.count == layers.count)
            #expect(!String(decoding: file, as: UTF8.self).contains("\"points\""))
        }
    }

    @Test func filesInAnotherLayoutAreReadThroughTheirValues() throws {
        let asset = try AssetRef(sha256: String(repeating: "ab", count: 32), ext: "png")
        let page = try inkPage(strokes: 3, asset: asset)
        let (whole, spans) = PageFileWriter.serialize(page)
        let (file, ink) = InkFile.split(whole, page: "p1", layers: inkLayers(page, spans))
        let ink0 = try #require(ink)
        // A wrong length, the ink file on one line, the page file re-indented: all read.
        let wrongLength = Array(String(decoding: ink0, as: UTF8.self).replacingOccurrences(of: "\"bytes\": ", with: "\"bytes\": 1").utf8)
        let oneLine = Array(String(decoding: ink0, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined().utf8)
        let reindented = Array(String(decoding: file, as: UTF8.self).replacingOccurrences(of: "\n      \"", with: "\n \"").utf8)
        for (p, i) in [(file, wrongLength), (file, oneLine), (reindented, ink0), (reindented, oneLine)] {
            let back = try InkFile.join(page: p, ink: i, id: "p1", limits: .default).whole
            #expect(try Page.decode(bytes: back) == page)
        }
    }

    @Test func filesThatDisagreeAreErrorsNamingTheFile() throws {
        let asset = try AssetRef(sha256: String(repeating: "ab", count: 32), ext: "png")
        let page = try inkPage(strokes: 2, asset: asset)
        let (whole, spans) = PageFileWriter.serialize(page)
        let (file, ink) = InkFile.split(whole, page: "p1", layers: inkLayers(page, spans))
        let ink0 = try #require(ink)
        func error(_ p: [UInt8], _ i: [UInt8]?) -> String {
            do {
                _ = try InkFile.join(page: p, ink: i, id: "p1", limits: .default)
                return "no error"
            } catch { return "\(error)" }
        }
        #expect(error(file, nil).hasPrefix("pages/p1.ink.json: missing"))
        let otherLayer = Array(String(decoding: ink0, as: UTF8.self).replacingOccurrences(of: "\"ink-1\"", with: "\"ink-9\"").utf8)
        #expect(error(file, otherLayer).hasPrefix("pages/p1.ink.json: holds no strokes for the ink layer at elements[1]"))
        let otherName = Array(String(decoding: file, as: UTF8.self).replacingOccurrences(of: "p1.ink.json", with: "p2.ink.json").utf8)
        #expect(error(otherName, ink0).contains("pages/p1.json: elements[1].strokes: \"p2.ink.json\" is not this page's ink file"))
        #expect(error(file, Array("{\"layers\": [".utf8)).contains("pages/p1.ink.json"))
        #expect(error(file, Array("{\"layers\": [{\"id\": \"ink-1\", \"strokes\": 3}]}".utf8)).hasPrefix("pages/p1.ink.json: layers[0]"))
        let twice = Array("{\"layers\": [{\"id\": \"ink-1\", \"strokes\": []}, {\"id\": \"ink-1\", \"strokes\": []}]}".utf8)
        #expect(error(file, twice).contains("listed twice"))
        // Over the size limit together, though each file is within it.
        var small = ModelLimits.default
        small.json.maxBytes = whole.count - 1
        #expect(throws: StorageError.self) { try InkFile.join(page: file, ink: ink0, id: "p1", limits: small) }
    }

    @Test func aChangeWritesOnlyTheFileItChanges() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        try dir.write("src/sticker.png", Array("sticker bytes".utf8))
        let asset = try AssetRef(sha256: SHA256.hex(Array("sticker bytes".utf8)), ext: "png")
        let store = try JournalStore.create(
            at: dir.url.appendingPathComponent("j.techo"), journal: try Journal(title: "t", pageOrder: ["p1"]),
            pages: [try inkPage(strokes: 300, asset: asset)], assets: [asset: dir.url.appendingPathComponent("src/sticker.png")])
        store.durable = false
        let pagePath = store.url.appendingPathComponent("pages/p1.json").path
        let inkPath = store.url.appendingPathComponent("pages/p1.ink.json").path
        func identity(_ path: String) -> FileIdentity? { FileIdentity.of(path) }
        // The journal is made with its strokes apart.
        let ink1 = try #require(identity(inkPath))
        let page1 = try #require(identity(pagePath))
        #expect((fileBytes(store, "pages/p1.json")?.count ?? 0) < 2_000)
        // A sticker move writes the page file only.
        try store.transaction(description: "move") { _, pages in try pages["p1"]?.elements[0].placement.apply(.pan(dx: 5, dy: 0)) }
        #expect(identity(inkPath) == ink1)
        #expect(identity(pagePath) != page1)
        let page2 = identity(pagePath)
        // A stroke more writes the ink file only.
        try store.transaction(description: "draw") { _, pages in _ = try pages["p1"]?.appendStroke(try stroke(500)) }
        #expect(identity(pagePath) == page2)
        #expect(identity(inkPath) != ink1)
        // Another store (another process) reads what was written, and undo and redo go through
        // both files.
        func strokes() throws -> Int {
            let page = try #require(try JournalStore.open(store.url).read().pages["p1"])
            guard case .ink(let ink) = page.elements[1].content else { return -1 }
            return ink.strokes.count
        }
        #expect(try strokes() == 301)
        try store.undo()
        #expect(try strokes() == 300)
        try store.redo()
        #expect(try strokes() == 301)
        try store.undo()
        try store.undo()
        let other = try JournalStore.open(store.url)
        #expect(try other.read().pages["p1"]?.elements[0].placement.center.x == 50)
        #expect(store.check().isEmpty)
        // Without strokes there is no ink file.
        try store.transaction(description: "clear") { _, pages in pages["p1"]?.elements[1].content = .ink(InkContent(strokes: [])) }
        #expect(identity(inkPath) == nil)
        #expect(try strokes() == 0)
        try store.undo()
        #expect(identity(inkPath) != nil)
        #expect(try strokes() == 300)
        #expect(store.check().isEmpty)
    }

    @Test func aWholePageFileIsReadAndSplitByItsFirstChange() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, asset) = try newStore(dir)
        store.durable = false
        // A page file of format version 1, every stroke in it, as an older techo wrote it.
        let page = try inkPage(strokes: 20, asset: asset)
        try dir.write("j.techo/pages/p1.json", page.serialized())
        #expect(try store.read().pages["p1"] == page)
        #expect(store.check().isEmpty)
        try store.transaction(description: "move") { _, pages in try pages["p1"]?.elements[0].placement.apply(.pan(dx: 0, dy: 1)) }
        #expect(FileIdentity.of(store.url.appendingPathComponent("pages/p1.ink.json").path) != nil)
        #expect(try JournalStore.open(store.url).read().pages["p1"]?.elements[1] == page.elements[1])
        // Undo gives the page back whole, in the two files.
        try store.undo()
        #expect(try JournalStore.open(store.url).read().pages["p1"] == page)
        #expect(store.check().isEmpty)
    }

    @Test func checkReportsInkFilesThatBelongToNothing() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let (store, asset) = try newStore(dir)
        store.durable = false
        try store.transaction(description: "page") { _, pages in pages["p1"] = try inkPage(strokes: 4, asset: asset) }
        let ink = try #require(fileBytes(store, "pages/p1.ink.json"))
        try dir.write("j.techo/pages/p9.ink.json", ink)
        try dir.write(
            "j.techo/pages/p1.ink.json",
            Array(String(decoding: ink, as: UTF8.self).replacingOccurrences(of: "\n  ]\n}", with: ",\n    {\"id\": \"ink-7\", \"strokes\": []}\n  ]\n}").utf8))
        let problems = store.check().map(\.description)
        #expect(problems.contains { $0.hasPrefix("pages/p9.ink.json: is the ink file of page \"p9\", which is not in the page order") })
        #expect(problems.contains { $0.hasPrefix("pages/p1.ink.json: holds strokes for \"ink-7\", which is no ink layer of pages/p1.json") })
        #expect(problems.count == 2)
        // The page reads, and its next change writes the ink file without the stray layer.
        try store.transaction(description: "move") { _, pages in try pages["p1"]?.elements[0].placement.apply(.pan(dx: 0, dy: 1)) }
        #expect(!String(decoding: fileBytes(store, "pages/p1.ink.json") ?? [], as: UTF8.self).contains("ink-7"))
    }
}
