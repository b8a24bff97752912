// Stroke ids (docs/format.md, "Stroke ids"): a page read without them gets `s<n>` in stacking
// order, skipping element ids, the same on every read; the writer writes them and both readers
// read them back; two strokes with one id, or a stroke with an element's id, are refused.

import Foundation
import Testing

@testable import TechoModel

private func pencil(_ x: Double, id: String? = nil) throws -> Stroke {
    try Stroke(tool: .pencil, width: 3, points: [StrokePoint(x, 10), StrokePoint(x + 5, 20)], id: id)
}

/// A version 2 page file: a text called `s2` and two ink layers whose strokes have no ids.
private let oldPage = Array(
    """
    {
      "dpi": 300,
      "elements": [
        {"id": "ink-1", "type": "ink", "strokes": [
          {"tool": "pencil", "width": 3, "points": [[1, 2], [3, 4]]},
          {"tool": "line", "width": 2, "from": [0, 0], "to": [9, 9]}
        ]},
        {"id": "s2", "type": "text", "text": "hi", "at": [5, 5]},
        {"id": "ink-2", "type": "ink", "strokes": [
          {"tool": "eraser", "width": 9, "points": [[1, 2]]}
        ]}
      ],
      "height": 100,
      "id": "p1",
      "width": 100
    }
    """.utf8)

private func strokeIDs(_ page: Page) -> [String?] {
    page.elements.flatMap { e -> [String?] in
        if case .ink(let ink) = e.content { return ink.strokes.map(\.id) }
        return []
    }
}

@Suite struct StrokeIDTests {
    @Test func aPageWithoutIdsGetsThemInStackingOrderSkippingElementIds() throws {
        let page = try Page.decode(bytes: oldPage)
        #expect(strokeIDs(page) == ["s1", "s3", "s4"])
        #expect(try Page.decode(bytes: oldPage) == page, "the same ids on every read")
        #expect(page.strokeIDProblem == nil)
        page.checkInvariants()
    }

    @Test func idsAreWrittenAndReadBackByBothReaders() throws {
        let page = try Page.decode(bytes: oldPage)
        let bytes = PageFileWriter.serialize(page).bytes
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"id\": \"s4\""))
        #expect(try Page.decode(bytes: bytes) == page)
        #expect(try Page.decodeValue(bytes: bytes, file: "p1.json", limits: .default) == page)
        let fast = try #require(PageFileReader.read(bytes, file: nil, limits: .default))
        #expect(fast.page == page)
        // A layer of plain strokes with their ids is as written (its bytes can be copied by the
        // next change); one with a line stroke goes through JSON values, as before ids.
        #expect(fast.asWritten == [false, true, true])
    }

    @Test func newStrokesTakeTheNextNumberNeverAnotherStrokesId() throws {
        var page = try Page(id: "p1", elements: [try Element(id: "ink-1", content: .ink(InkContent(strokes: [try pencil(0, id: "s7")])))])
        try page.appendStroke(try pencil(1))
        try page.appendStroke(try pencil(2, id: "mine"))
        try page.appendStroke(try pencil(3))
        #expect(strokeIDs(page) == ["s7", "s8", "mine", "s9"])
        #expect(page.strokeLocation("mine")?.stroke == 2)
        #expect(page.stroke("s9")?.points.first?.x == 3)
    }

    @Test func duplicateStrokeIdsAndStrokeIdsOfElementsAreRefused() throws {
        let twice = try Element(id: "ink-1", content: .ink(InkContent(strokes: [try pencil(0, id: "s1"), try pencil(1, id: "s1")])))
        #expect(throws: ValueError.self) { try Page(id: "p1", elements: [twice]) }
        let clash = try Element(id: "ink-1", content: .ink(InkContent(strokes: [try pencil(0, id: "ink-1")])))
        #expect(throws: ValueError.self) { try Page(id: "p1", elements: [clash]) }
        // In a file, the problem is reported naming the page.
        let text = String(decoding: oldPage, as: UTF8.self).replacingOccurrences(
            of: "{\"tool\": \"eraser\"", with: "{\"id\": \"s2\", \"tool\": \"eraser\"")
        do {
            _ = try Page.decode(bytes: Array(text.utf8))
            Issue.record("read a stroke with an element's id")
        } catch {
            #expect("\(error)".contains("element id \"s2\" is also a stroke's id"), "\(error)")
        }
        // An id that is not an id is refused at its path.
        let bad = String(decoding: oldPage, as: UTF8.self).replacingOccurrences(
            of: "{\"tool\": \"eraser\"", with: "{\"id\": \"a b\", \"tool\": \"eraser\"")
        do {
            _ = try Page.decode(bytes: Array(bad.utf8))
            Issue.record("read a bad stroke id")
        } catch {
            #expect("\(error)".contains("elements[2].strokes[0].id"))
        }
    }
}
