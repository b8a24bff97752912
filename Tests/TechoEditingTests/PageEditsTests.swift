// The shared operations and rules every front end calls: one refusal for an ink layer, gestures
// all or nothing, errors of every layer below turned into one kind and message.
import Foundation
import TechoCodecs
import TechoEditing
import TechoModel
import TechoRender
import TechoText
import Testing

private func page() throws -> Page {
    let asset = try AssetRef(sha256: String(repeating: "ab", count: 32), ext: "png")
    let image = try Element(
        id: "image-1", content: .image(ImageContent(asset: asset, naturalWidth: 400, naturalHeight: 300)),
        placement: Placement(center: Point(300, 300), scale: 0.5, rotation: 15))
    let ink = try Element(id: "ink-1", content: .ink(InkContent(strokes: [Stroke(tool: .pencil, points: [StrokePoint(1, 1)])])))
    return try Page(id: "p1", size: PageSize(width: 1000, height: 1000), dpi: 300, elements: [image, ink])
}

@Suite struct PageEditsTests {
    @Test func gesturesApplyAllOrNothing() throws {
        var p = try page()
        let before = p
        #expect(throws: EditError.self) { try PageEdits.move("image-1", on: &p, by: [.pan(dx: 1, dy: 1), .pinch(scale: 0, around: nil)]) }
        #expect(p == before)
        do {
            try PageEdits.move("image-1", on: &p, by: [.pan(dx: 1, dy: 1), .pinch(scale: 0, around: nil)], label: { n, _ in "events[\(n)]" })
        } catch {
            #expect(error.kind == .invalid && error.message.hasPrefix("events[1]: refused, nothing changed"), "\(error)")
        }
        try PageEdits.move("image-1", on: &p, by: [.doubleTap])
        #expect(p.elements[0].placement.rotation == 105)
    }

    @Test func anInkLayerHasOneRefusal() throws {
        var p = try page()
        for gestures in [[Gesture.doubleTap], [.flip(.h)], [.pan(dx: 1, dy: 0)]] {
            #expect(throws: PageEdits.inkHasNoTransform("ink-1")) { try PageEdits.move("ink-1", on: &p, by: gestures) }
        }
        #expect(PageEdits.inkHasNoTransform("ink-1").kind == .invalid)
    }

    @Test func unknownIdsNameWhatThereIs() throws {
        var p = try page()
        #expect(throws: EditError(.notFound, "no element 'nope' on page p1; elements: image-1, ink-1")) { try PageEdits.move("nope", on: &p, by: [.doubleTap]) }
        let journal = try Journal(title: "t", pageOrder: ["p1"])
        #expect(throws: EditError(.notFound, "no page 'p9'; pages: p1")) { try PageEdits.page("p9", in: ["p1": p], journal: journal) }
    }

    @Test func restackRemoveAndClear() throws {
        var p = try page()
        PageEdits.restack(0, on: &p, to: .top)
        #expect(p.elements.map(\.id) == ["ink-1", "image-1"])
        #expect(PageEdits.isRaise(.by(2)) && !PageEdits.isRaise(.by(-1)) && PageEdits.isRaise(.top) && !PageEdits.isRaise(.bottom))
        var q = p
        PageEdits.clear(.ink, on: &q)
        #expect(q.elements.map(\.id) == ["image-1"])
        PageEdits.clear(.all, on: &q)
        #expect(q.elements.isEmpty)
        #expect(throws: EditError.self) { try PageEdits.remove(["image-1", "image-1"], from: &p) }
    }

    /// Every layer's error becomes a kind that decides the exit code and the HTTP status.
    @Test func errorsOfEveryLayerHaveOneKind() throws {
        #expect(EditError(from: ValueError("x")).kind == .invalid)
        #expect(EditError(from: GestureError("singular")).message == "refused, nothing changed: singular")
        #expect(EditError(from: StorageError(path: "j", message: "locked")).kind == .failure)
        #expect(EditError(from: RenderError(pageID: "p1", message: "too big")).kind == .unrenderable)
        #expect(EditError(from: TextError.tooLong(count: 5, limit: 1)).kind == .unrenderable)
        do { _ = try ImageProbe.check([1, 2, 3, 4], name: "x.png"); Issue.record("accepted") } catch {
            #expect(EditError(from: error).kind == .unsupportedFormat, "\(error)")
        }
        let e = EditError(.conflict, "nothing to undo")
        #expect(EditError(from: e) == e)
        #expect(throws: EditError(.invalid, "refused, nothing changed: no")) { try EditError.wrapping { throw GestureError("no") } }
    }
}

/// What the model accepts, the text engine lays out: the field rules are the renderer's limits.
@Suite struct FieldRulesTests {
    @Test func everyTextTheModelAcceptsLaysOut() throws {
        let cases: [(WritableKeyPath<TextContent, Double>, FieldRule)] = [
            (\.lineHeight, FieldRules.lineHeight), (\.size, FieldRules.fontSize), (\.letterSpacing, FieldRules.letterSpacing),
        ]
        for (kp, rule) in cases {
            for v in [rule.range.lowerBound, rule.upper] {
                var t = TextContent(text: "Hi")
                t[keyPath: kp] = v
                try t.validate()
                var style = TextStyle(size: t.size)
                style.lineHeight = t.lineHeight
                style.letterSpacing = t.letterSpacing
                _ = try TextLayout.layout(t.text, style: style)
            }
            for v in [rule.lowerOpen ? rule.lower : rule.lower - 1, rule.upper.nextUp, .nan, .infinity] {
                var t = TextContent(text: "Hi")
                t[keyPath: kp] = v
                #expect(throws: ValueError.self) { try t.validate() }
            }
        }
        // lineHeight 50 was accepted by the page decoder, the CLI and the editor (≤ 100) and
        // refused by the text engine (≤ 10); now all say the same.
        var t = TextContent(text: "Hi")
        t.lineHeight = 50
        #expect(throws: ValueError(field: "lineHeight", "50 is out of range (expected more than 0 and at most 10 × the size)")) { try t.validate() }
    }

    @Test func theTextLimitIsCountedAsTheTextEngineCountsIt() throws {
        // 60 000 letters with a combining accent each: 60 000 characters, 120 000 scalars.
        let text = String(repeating: "e\u{301}", count: 60_000)
        #expect(text.count == 60_000)
        #expect(throws: ValueError.self) { try TextContent(text: text).validate() }
        #expect(throws: TextError.self) { try TextLayout.layout(text, style: TextStyle(size: 12)) }
    }

    @Test func refusalsReadTheSameEverywhere() {
        #expect(FieldRules.lineHeight.refusal(50) == "50 is out of range (expected more than 0 and at most 10 × the size)")
        #expect(FieldRules.fontSize.refusal(0.5) == "0.5 is out of range (expected from 1 to 2000 px)")
        #expect(FieldRules.weight.refusal(950) == "950 is out of range (expected a whole number from 100 to 900)")
        #expect(!FieldRules.lineHeight.contains(0) && FieldRules.lineHeight.contains(FieldRules.lineHeight.range.lowerBound))
    }
}
