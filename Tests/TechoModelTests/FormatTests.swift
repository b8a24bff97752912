import Foundation
import Testing

@testable import TechoModel

@Suite struct FormatTests {
    @Test func pageRoundTripsByteIdentically() throws {
        let page = try samplePage()
        page.checkInvariants()
        let bytes = page.serialized()
        let back = try Page.decode(bytes: bytes, file: "pages/p1.json")
        #expect(back == page)
        #expect(back.serialized() == bytes)
        #expect(bytes.last == 0x0A)
    }

    /// A change detector: `page-golden.json` was written by techo (`TECHO_RECORD=1`), so it
    /// catches any change to the bytes of a page file, and docs/format.md's examples and the
    /// round-trip tests above say what the bytes mean.
    @Test func pageFileIsUnchangedSinceRecorded() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/page-golden.json")
        let bytes = try samplePage().serialized()
        if ProcessInfo.processInfo.environment["TECHO_RECORD"] == "1" {
            try Data(bytes).write(to: url)
            Issue.record("recorded \(url.lastPathComponent); run again without TECHO_RECORD")
        }
        let golden = try [UInt8](Data(contentsOf: url))
        #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: golden, as: UTF8.self))
    }

    @Test func journalRoundTripAndFutureVersion() throws {
        let j = try Journal(title: "Kyoto, spring", pageOrder: ["p1", "day-2"], settings: JournalSettings(historyLimit: 30))
        #expect(try Journal.decode(bytes: j.serialized()) == j)
        let future = Array(#"{"techo": 4, "title": "x", "pages": []}"#.utf8)
        do { _ = try Journal.decode(bytes: future); Issue.record("read a future version") } catch let e as FormatVersionError {
            #expect(e.description.contains("format version 4") && e.description.contains("reads (version 3)"))
        }
    }

    @Test func pageDecodingReportsEveryProblemWithItsPath() throws {
        let text = """
            {"id": "p1", "width": 1000, "height": "auto", "dpi": 300, "elements": [
              {"id": "a", "type": "image", "asset": "assets/nothex.png", "naturalSize": [10, 10], "at": [0, 0]},
              {"id": "b", "type": "text", "text": "hi", "font": "x", "size": 5000, "at": [0, 0], "colour": "red"},
              {"id": "c", "type": "ink", "strokes": [{"tool": "pencil", "width": -1, "points": []},
                                                    {"tool": "line", "width": 2, "from": [0, 0]}]},
              {"id": "d", "type": "washi", "from": [0, 0], "to": [1, 1], "at": [1e308, 0]},
              {"id": "e", "type": "image", "asset": "assets/\(String(repeating: "a", count: 64)).png", "naturalSize": [10, 10],
               "at": [0, 0], "scale": 0, "opacity": 1.5},
              {"id": "ok", "type": "text", "text": "one", "font": "x", "size": 10, "at": [0, 0]},
              {"id": "ok", "type": "text", "text": "two", "font": "x", "size": 10, "at": [0, 0]},
              {"id": "f", "type": "sticker"}
            ]}
            """
        let found = problems { _ = try Page.decode(bytes: Array(text.utf8), file: "pages/p1.json") }
        #expect(
            found == [
                "elements[0].asset: invalid asset path \"assets/nothex.png\": expected assets/<sha256>.<ext>",
                "elements[1].size: 5000 is out of range (expected from 1 to 2000 px)",
                "elements[1].colour: unknown field \"colour\"",
                "elements[2].strokes[0].width: -1 is out of range (expected more than 0 and at most 100000 px)",
                "elements[2].strokes[1].to: a line stroke needs \"to\"",
                "elements[3].at[0]: must be between -10000000 and 10000000 (got 1e+308)",
                "elements[4].opacity: 1.5 is out of range (expected from 0 to 1)",
                "elements[4].scale: 0 is out of range (expected from 0.0001 to 10000)",
                "elements[6].id: duplicate element id \"ok\"",
                "elements[7].type: unknown value \"sticker\"; expected one of \"image\", \"photo\", \"text\", \"ink\", \"washi\"",
            ])
    }

    @Test func emptyStrokeIsAnError() {
        let text = #"{"id":"p","width":10,"height":10,"dpi":300,"elements":[{"id":"i","type":"ink","strokes":[{"tool":"pencil","width":2,"points":[]}]}]}"#
        #expect(problems { _ = try Page.decode(bytes: Array(text.utf8)) } == ["elements[0].strokes[0].points: a pencil stroke needs at least one point"])
    }

    @Test func unitsInPageFilesConvertThroughTheDPI() throws {
        let text =
            #"{"id":"p","width":10,"height":10,"dpi":254,"background":{"paper":"grid"},"elements":[{"id":"w","type":"washi","from":["-1cm",0],"to":["1cm",0],"width":"2mm","at":[0,0]}]}"#
        let page = try Page.decode(bytes: Array(text.utf8))
        guard case .washi(let w) = page.elements[0].content else { Issue.record("not washi"); return }
        #expect(w.from == Point(-100, 0) && w.width == 20)
        #expect(page.background.paper?.spacing == 50 && page.background.paper?.pattern == .grid)
        #expect(page.background.color == nil)
    }
}

@Suite struct LimitTests {
    @Test func strokePointAndTextLimitsAreReportedWithPaths() throws {
        var limits = ModelLimits()
        limits.maxStrokePoints = 3
        limits.maxTextCharacters = 5
        let text = #"""
            {"id":"p","width":10,"height":10,"dpi":300,"elements":[
              {"id":"i","type":"ink","strokes":[{"tool":"pencil","width":2,"points":[[0,0],[1,1],[2,2],[3,3]]}]},
              {"id":"t","type":"text","text":"too long","at":[0,0]},
              {"id":"s","type":"text","text":"ok","size":"3000pt","at":[0,0]}]}
            """#
        let found = problems { _ = try Page.decode(bytes: Array(text.utf8), limits: limits) }
        #expect(
            found == [
                "elements[0].strokes[0].points: 4 points is over the limit of 3",
                "elements[1].text: 8 characters is over the limit of 5",
                "elements[2].size: 12500 is out of range (expected from 1 to 2000 px)",
            ])
    }

    @Test func journalFilesAreStrict() {
        #expect(problems { _ = try Journal.decode(bytes: Array("[]".utf8)) } == ["expected an object, found an array"])
        #expect(
            problems { _ = try Journal.decode(bytes: Array(#"{"techo":1,"pages":["a","a"],"settings":{"historyLimit":0}}"#.utf8)) } == [
                "pages[1]: page \"a\" is listed twice",
                "settings.historyLimit: must be an integer between 1 and 10000 (got 0)",
            ])
    }

    @Test func oversizedManifestFileIsRefusedBeforeReading() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        try dir.write("big.json", [UInt8](repeating: 0x20, count: (8 << 20) + 10))
        do {
            _ = try Manifest.decode(fileAt: dir.url.appendingPathComponent("big.json"), environment: ManifestTests.env())
            Issue.record("decoded")
        } catch let e as JSONSyntaxError {
            #expect(e.description.hasPrefix("big.json:1:1: JSON is 8388618 bytes, over the limit"))
        }
    }
}
