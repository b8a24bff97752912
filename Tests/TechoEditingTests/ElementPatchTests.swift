// The typed patch every front end decodes `set` / PATCH into, and the one way an element is
// added or a stroke drawn: the rules (ranges, kinds, ink, ids, the default placement) hold here,
// with or without a front end in front.
import Foundation
import TechoEditing
import TechoModel
import TechoRender
import Testing

private func samplePage() throws -> Page {
    let asset = try AssetRef(sha256: String(repeating: "cd", count: 32), ext: "png")
    let picture = try ImageContent(asset: asset, naturalWidth: 400, naturalHeight: 300)
    let photo = try Element(id: "photo-1", content: .photo(PhotoContent(image: picture)), placement: Placement(center: Point(200, 200)))
    let text = try Element(id: "text-1", content: .text(TextContent(text: "hi")), placement: Placement(center: Point(500, 500)))
    let ink = try Element(id: "ink-1", content: .ink(InkContent(strokes: [Stroke(tool: .pencil, points: [StrokePoint(1, 1)])])))
    return try Page(id: "p1", size: PageSize(width: 1000, height: 800), dpi: 300, elements: [photo, text, ink])
}

private let renderer = PageRenderer(assetURL: { _ in URL(fileURLWithPath: "/nonexistent") })

@Suite struct ElementPatchTests {
    @Test func aPatchChangesOnlyWhatItSets() throws {
        var p = try samplePage()
        var patch = ElementPatch()
        patch.lineHeight = 2
        patch.maxWidth = .some(300)
        patch.at = Point(10, 20)
        #expect(patch.fieldsSet == ["at", "maxWidth", "lineHeight"])
        try PageEdits.set(patch, on: "text-1", of: &p)
        guard case .text(let t) = p.elements[1].content else { Issue.record("not text"); return }
        #expect(t.lineHeight == 2 && t.maxWidth == 300 && t.text == "hi" && t.size == 48)
        #expect(p.elements[1].placement.center == Point(10, 20) && p.elements[1].placement.scale == 1)
        var unwrap = ElementPatch()
        unwrap.maxWidth = .some(nil)
        try PageEdits.set(unwrap, on: "text-1", of: &p)
        guard case .text(let u) = p.elements[1].content else { return }
        #expect(u.maxWidth == nil && u.lineHeight == 2)
    }

    /// The ranges are `FieldRules`' own, checked whoever builds the patch (the library too).
    @Test func aValueOutOfItsRangeIsRefusedNamingTheFieldAndChangesNothing() throws {
        var p = try samplePage()
        let before = p
        var patch = ElementPatch()
        patch.opacity = 0.5
        patch.lineHeight = 50
        #expect(throws: EditError(.invalid, field: "lineHeight", "50 is out of range (expected more than 0 and at most 10 × the size)")) {
            try PageEdits.set(patch, on: "text-1", of: &p)
        }
        patch = ElementPatch()
        patch.adjustments["brightness"] = 3
        do { try PageEdits.set(patch, on: "photo-1", of: &p) } catch {
            #expect(error.field == "brightness" && error.message.hasPrefix("brightness: 3 is out of range"), "\(error)")
        }
        patch.adjustments = ["sharpness": 0.1]
        do { try PageEdits.set(patch, on: "photo-1", of: &p) } catch {
            #expect(error.field == "sharpness" && error.message.contains("no such field"), "\(error)")
        }
        patch = ElementPatch()
        patch.weight = 950
        do { try PageEdits.set(patch, on: "text-1", of: &p) } catch {
            #expect(error.message == "weight: 950 is out of range (expected a whole number from 100 to 900)")
        }
        #expect(p == before)
    }

    @Test func aFieldOfAnotherKindIsRefusedByName() throws {
        var p = try samplePage()
        var patch = ElementPatch()
        patch.frame = .polaroid
        #expect(throws: EditError(.invalid, field: "frame", "applies to photo elements; 'text-1' is text")) { try PageEdits.set(patch, on: "text-1", of: &p) }
        patch = ElementPatch()
        patch.size = 20
        #expect(throws: EditError(.invalid, field: "size", "applies to text elements; 'photo-1' is photo")) { try PageEdits.set(patch, on: "photo-1", of: &p) }
        patch = ElementPatch()
        patch.outline = .some(nil)
        do { try PageEdits.set(patch, on: "ink-1", of: &p) } catch { #expect(error.field == "outline", "\(error)") }
    }

    @Test func inkTakesOpacityButNoPlacement() throws {
        var p = try samplePage()
        var patch = ElementPatch()
        patch.rotate = 30
        do { try PageEdits.set(patch, on: "ink-1", of: &p) } catch {
            #expect(error.field == "rotate" && error.message == "rotate: " + PageEdits.inkHasNoTransform("ink-1").message, "\(error)")
        }
        patch = ElementPatch()
        patch.opacity = 0.25
        patch.hidden = true
        try PageEdits.set(patch, on: "ink-1", of: &p)
        #expect(p.elements[2].opacity == 0.25 && p.elements[2].hidden && p.elements[2].placement == .identity)
    }

    @Test func aFrontEndNamesTheFieldItsOwnWay() {
        let e = EditError(.invalid, field: "lineHeight", "50 is out of range")
        #expect(e.relabelled { "--" + $0 }.message == "--lineHeight: 50 is out of range")
        #expect(e.relabelled { _ in "x" }.kind == .invalid)
        let plain = EditError(.notFound, "no page 'p9'")
        #expect(plain.relabelled { _ in "x" } == plain)
        #expect(plain.relabelled(field: "page").message == "page: no page 'p9'")
    }

    @Test func addingChecksTheIdTheKindAndTheContent() throws {
        var p = try samplePage()
        let before = p
        #expect(throws: EditError(.invalid, field: "id", "page p1 already has an element 'text-1'")) {
            try PageEdits.add(NewElement(id: "text-1", content: .text(TextContent(text: "x"))), to: &p, renderer: renderer)
        }
        #expect(throws: EditError.self) { try PageEdits.add(NewElement(id: "no spaces", content: .text(TextContent(text: "x"))), to: &p, renderer: renderer) }
        #expect(throws: EditError.self) { try PageEdits.add(NewElement(content: .ink(InkContent())), to: &p, renderer: renderer) }
        var tall = TextContent(text: "x")
        tall.lineHeight = 11
        #expect(throws: EditError.self) { try PageEdits.add(NewElement(content: .text(tall)), to: &p, renderer: renderer) }
        #expect(throws: EditError.self) { try PageEdits.add(NewElement(content: .text(TextContent(text: "x")), opacity: 2), to: &p, renderer: renderer) }
        #expect(p == before)
        #expect(try PageEdits.add(NewElement(content: .text(TextContent(text: "x"))), to: &p, renderer: renderer) == "text-2")
        #expect(p.elements.last?.placement.center == Point(500, 400))
    }

    /// Fitted, a phone photo on a small page comes in at 80 % of it and a small sticker at its
    /// size; not fitted, both at their natural size.
    @Test func theDefaultPlacementFitsALargePictureWhenAsked() throws {
        var p = try samplePage()
        let asset = try AssetRef(sha256: String(repeating: "ef", count: 32), ext: "jpg")
        let big = try ImageContent(asset: asset, naturalWidth: 4000, naturalHeight: 3000)
        let id = try PageEdits.add(NewElement(content: .photo(PhotoContent(image: big)), fitToPage: true), to: &p, renderer: renderer)
        let placed = try #require(p.elements.first { $0.id == id }).placement
        #expect(abs(placed.scale - 0.2) < 1e-12 && placed.center == Point(500, 400))
        let natural = try PageEdits.add(NewElement(content: .photo(PhotoContent(image: big))), to: &p, renderer: renderer)
        #expect(p.elements.first { $0.id == natural }?.placement.scale == 1)
        let small = try ImageContent(asset: asset, naturalWidth: 100, naturalHeight: 100)
        let at = try PageEdits.add(NewElement(content: .image(small), center: Point(50, 60), fitToPage: true), to: &p, renderer: renderer)
        #expect(p.elements.last?.id == at && p.elements.last?.placement.scale == 1 && p.elements.last?.placement.center == Point(50, 60))
    }

    @Test func drawingUsesTheTopInkLayerOrANewOne() throws {
        var p = try samplePage()
        let stroke = try Stroke(tool: .pencil, points: [StrokePoint(5, 5), StrokePoint(9, 9)])
        #expect(try PageEdits.draw(stroke, on: &p) == "ink-1")
        #expect(try PageEdits.draw(stroke, on: &p, newLayer: true) == "ink-2")
        #expect(throws: EditError(.invalid, field: "id", "page p1 already has an element 'ink-2'")) {
            try PageEdits.draw(stroke, on: &p, newLayer: true, id: "ink-2")
        }
        #expect(throws: EditError.self) { try PageEdits.draw(stroke, on: &p, id: "ink-9") }
        #expect(try PageEdits.draw(stroke, on: &p) == "ink-2")
        guard case .ink(let one) = p.elements[2].content, case .ink(let two) = p.elements[3].content else { Issue.record("layers"); return }
        #expect(one.strokes.count == 2 && two.strokes.count == 2)
    }
}

@Suite struct BackgroundPatchTests {
    func page() throws -> Page { try Page(id: "p1", size: PageSize(width: 600, height: 400), dpi: 300) }

    @Test func paperFillsInFromThePaperThereIsThenTheDefaults() throws {
        var p = try page()
        var patch = BackgroundPatch()
        patch.paper = .grid
        try PageEdits.setBackground(patch, of: &p)
        #expect(p.background.paper == (try Paper(pattern: .grid, spacing: Paper.defaultSpacing.pixels(dpi: 300))))
        patch = BackgroundPatch()
        patch.paperMargin = 20
        try PageEdits.setBackground(patch, of: &p)
        #expect(p.background.paper?.pattern == .grid && p.background.paper?.margin == 20)
        patch = BackgroundPatch()
        patch.paper = .blank
        try PageEdits.setBackground(patch, of: &p)
        #expect(p.background.paper == nil)
    }

    @Test func aModeOrOpacityNeedsAnImageAndNothingChanges() throws {
        var p = try page()
        let before = p
        var patch = BackgroundPatch()
        patch.color = .some(nil)
        patch.opacity = 0.5
        #expect(throws: EditError(.invalid, field: "opacity", "needs a background image")) { try PageEdits.setBackground(patch, of: &p) }
        patch = BackgroundPatch()
        patch.paperSpacing = 0.5
        #expect(throws: EditError(.invalid, field: "paper.spacing", FieldRules.paperSpacing.refusal(0.5))) { try PageEdits.setBackground(patch, of: &p) }
        #expect(p == before)
        let asset = try AssetRef(sha256: String(repeating: "ab", count: 32), ext: "png")
        patch = BackgroundPatch()
        patch.image = asset
        patch.opacity = 0.5
        try PageEdits.setBackground(patch, of: &p)
        #expect(p.background.image == (try BackgroundImage(asset: asset, mode: .tile, opacity: 0.5)))
        patch = BackgroundPatch()
        patch.mode = .cover
        try PageEdits.setBackground(patch, of: &p)
        #expect(p.background.image?.mode == .cover && p.background.image?.opacity == 0.5)
    }
}
