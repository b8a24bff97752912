// The library's example, compiled and run: a journal made, edited and rendered through the
// public API of the Techo product alone (no @testable, no other techo module imported).
import Foundation
import Techo
import Testing

@Suite struct LibraryExampleTests {
    /// A fixture from the codec tests' device corpus.
    static func device(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../TechoCodecsTests/Fixtures/devices/\(name)").standardizedFileURL
    }

    static func scratch(_ name: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-library-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func makeEditAndRenderAJournal() throws {
        let dir = try Self.scratch("example")
        defer { try? FileManager.default.removeItem(at: dir) }

        // Create a 300x200 journal, add an SVG sticker and a HEIC photo.
        let journal = try JournalEditor.create(
            at: dir.appendingPathComponent("trip.techo"), size: "300x200",
            background: try RGBA(parsing: "#f6f0e4"))
        #expect(try journal.pageIDs() == ["p1"])
        let star = try journal.addPicture(Self.device("svg/star.svg"), to: "p1", at: Point(x: 60, y: 60))
        let photo = try journal.addPicture(
            Self.device("quad-orient6.heic"), to: "p1", photo: true,
            at: Point(x: 200, y: 120), width: 128)
        #expect(star == "image-1" && photo == "photo-1")

        // Gestures, as a phone's recognisers report them: one history step.
        try journal.apply(
            [.pinch(scale: 1.5, around: nil), .rotate(degrees: 15, around: nil), .pan(dx: 10, dy: 0)],
            to: star, on: "p1")
        let placed = try journal.page("p1").elements[0].placement
        #expect(abs(placed.scale - 1.5) < 1e-9 && abs(placed.center.x - 70) < 1e-9)

        // A pencil stroke goes to a new ink layer.
        let ink = try journal.draw(
            try Stroke(
                tool: .pencil, color: try RGBA(parsing: "#e07a5f"), width: 6,
                points: [StrokePoint(20, 180), StrokePoint(120, 170), StrokePoint(280, 185)]),
            on: "p1")
        #expect(ink == "ink-1")

        // Render: PNG bytes, and an RGBA buffer at twice the size.
        let png = try journal.renderPNG(page: "p1")
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let rgba = try journal.renderRGBA(page: "p1", scale: 2)
        #expect(rgba.width == 600 && rgba.height == 400 && rgba.bytes.count == 600 * 400 * 4)
        let background = rgba.pixel(2, 2)
        #expect(background.r == 0xF6 && background.g == 0xF0 && background.b == 0xE4 && background.a == 255)
        // The photo's top-left quadrant (red) is upright: 32 px left of and 24 px above its centre.
        let red = rgba.pixel((200 - 32) * 2, (120 - 24) * 2)
        #expect(red.r > 230 && red.g < 30 && red.b < 30, "\(red)")

        // Undo the stroke and redo it.
        #expect(try journal.undo())
        #expect(try journal.page("p1").elements.count == 2)
        #expect(try journal.redo())
        #expect(try journal.page("p1").elements.count == 3)

        // Reopened, it is the same journal.
        let again = try JournalEditor.open(journal.url)
        #expect(try again.renderPNG(page: "p1") == png)
        #expect(try again.addPage() == "p2")
    }

    @Test func misuseIsATypedError() throws {
        let dir = try Self.scratch("errors")
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = try JournalEditor.create(at: dir.appendingPathComponent("j.techo"), size: "100x100")
        #expect(throws: EditError(.notFound, "no page 'p9'; pages: p1")) { try journal.renderPNG(page: "p9") }
        let bad = dir.appendingPathComponent("cut.heic")
        try Data(try Data(contentsOf: Self.device("quad.heic")).prefix(200)).write(to: bad)
        #expect(throws: (any Error).self) { try journal.addPicture(bad, to: "p1") }
        #expect(try journal.page("p1").elements.isEmpty)
        let sticker = try journal.addPicture(Self.device("quad-lossless.webp"), to: "p1")
        #expect(throws: (any Error).self) { try journal.apply([.pinch(scale: 0, around: nil)], to: sticker, on: "p1") }
        #expect(try journal.page("p1").elements[0].placement.scale == 1)
    }

    /// The library refuses what the CLI and the editor refuse, in the same words.
    @Test func textRulesAreTheCLIsRules() throws {
        let dir = try Self.scratch("text")
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = try JournalEditor.create(at: dir.appendingPathComponent("j.techo"), size: "400x300")
        var tall = TextContent(text: "hi")
        tall.lineHeight = 50
        #expect(throws: EditError(.invalid, field: "lineHeight", "50 is out of range (expected more than 0 and at most 10 × the size)")) {
            try journal.addText(tall, to: "p1")
        }
        var path = TextContent(text: "hi")
        path.font = "/etc/passwd"
        #expect(throws: EditError.self) { try journal.addText(path, to: "p1") }
        var unknown = TextContent(text: "hi")
        unknown.font = "No Such Family Techo"
        do { _ = try journal.addText(unknown, to: "p1"); Issue.record("accepted") } catch {
            #expect(error.kind == .invalid && error.message.contains("no installed family 'No Such Family Techo'"), "\(error)")
        }
        #expect(try journal.page("p1").elements.isEmpty)
        var fine = TextContent(text: "hi")
        fine.font = "DejaVu Sans"
        fine.lineHeight = 10
        #expect(try journal.addText(fine, to: "p1") == "text-1")
        _ = try journal.renderPNG(page: "p1")
    }
}
