// Whatever is accepted renders: a value the renderer would refuse is refused when it is written,
// by the CLI and a manifest alike, in the same words; a text's font is an installed family or a
// font file imported into the journal, never a path read when the page renders.
import Foundation
import TechoModel
import TechoTestSupport
import Testing

@Suite struct OneWayInTests {
    static let lineHeightWords = "50 is out of range (expected more than 0 and at most 10 × the size)"
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    func journalWithText(_ ws: Workspace) throws -> [UInt8] {
        #expect(try ws.run("init", "j.techo").code == 0)
        #expect(try ws.run("add", "text", "j.techo", "p1", "hello").code == 0)
        return try ws.bytes("j.techo/pages/p1.json")
    }

    func manifest(_ ws: Workspace, _ text: String) throws -> URL {
        let url = ws.url("m.json")
        try Data(#"{"techo": 1, "pages": [{"id": "a", "size": "400x300", "elements": [\#(text)]}]}"#.utf8).write(to: url)
        return url
    }

    /// `lineHeight 50` used to be taken by the CLI, `check` and the editor and then refused by
    /// every export (the text engine allows 10).
    @Test func aLineHeightTheRendererRefusesIsRefusedWhenWritten() throws {
        let ws = try Workspace()
        let before = try journalWithText(ws)
        for args in [["add", "text", "j.techo", "p1", "hi", "--line-height", "50"], ["set", "j.techo", "p1", "text-1", "--line-height", "50"]] {
            let r = try ws.run(args)
            #expect(r.code == 64, "\(args): \(r.err)")
            #expect(r.err.contains("--line-height") && r.err.contains(OneWayInTests.lineHeightWords), "\(r.err)")
        }
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
        _ = try manifest(ws, #"{"type": "text", "text": "hi", "lineHeight": 50}"#)
        let r = try ws.run("build", "m.json")
        #expect(r.code == 65 && r.err.contains("pages[0].elements[0].lineHeight: " + OneWayInTests.lineHeightWords), "\(r.err)")
        #expect(!ws.exists("m.techo"))
        // The largest allowed value renders.
        #expect(try ws.run("set", "j.techo", "p1", "text-1", "--line-height", "10").code == 0)
        #expect(try ws.run("export", "j.techo", "-o", "out.png").code == 0)
        #expect(try ws.run("check", "j.techo").code == 0)
    }

    /// A font naming a file was accepted, passed `check`, and broke every render until an undo;
    /// its error even told whether the file existed.
    @Test func aFontPathIsRefusedAndSaysNothingAboutTheFile() throws {
        let ws = try Workspace()
        let before = try journalWithText(ws)
        var messages: [String] = []
        for path in ["/etc/passwd", "/proc/self/environ", "nonexistent/x.ttf", "Hand.otf"] {
            for args in [["add", "text", "j.techo", "p1", "hi", "--font", path], ["set", "j.techo", "p1", "text-1", "--font", path]] {
                let r = try ws.run(args)
                #expect(r.code == 64, "\(args): \(r.err)")
                #expect(r.err.contains("is a file path, not a family"), "\(r.err)")
                messages.append(r.err.replacingOccurrences(of: path, with: "PATH"))
            }
        }
        // The same words whether or not the file exists.
        for parity in [0, 1] {
            #expect(Set(messages.enumerated().filter { $0.offset % 2 == parity }.map(\.element)).count == 1, "\(messages)")
        }
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
        _ = try manifest(ws, #"{"type": "text", "text": "hi", "font": "/etc/passwd"}"#)
        let r = try ws.run("build", "m.json")
        #expect(r.code == 65 && r.err.contains("pages[0].elements[0]") && r.err.contains("is a file path"), "\(r.err)")
    }

    @Test func anUnknownFamilyIsRefusedNamingCloseOnes() throws {
        let ws = try Workspace()
        let before = try journalWithText(ws)
        let r = try ws.run("set", "j.techo", "p1", "text-1", "--font", "DejaVu Snas")
        #expect(r.code == 65, "\(r.err)")
        #expect(r.err.contains("no installed family 'DejaVu Snas'") && r.err.contains("close: DejaVu Sans"), "\(r.err)")
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
        _ = try manifest(ws, #"{"type": "text", "text": "hi", "font": "No Such Family Techo"}"#)
        let b = try ws.run("build", "m.json")
        #expect(b.code == 65 && b.err.contains("no installed family 'No Such Family Techo'"), "\(b.err)")
        // Installed families (any case) and generic names are taken.
        for family in ["DejaVu Sans", "dejavu serif", "monospace", "Noto Sans CJK JP"] {
            #expect(try ws.run("set", "j.techo", "p1", "text-1", "--font", family).code == 0, "\(family)")
        }
    }

    /// A font of one's own travels with the journal: it is copied in, content-addressed, and the
    /// text draws with it on a machine that does not have it.
    @Test func aFontFileIsImportedIntoTheJournal() throws {
        let ws = try Workspace()
        _ = try journalWithText(ws)
        try FileManager.default.copyItem(atPath: OneWayInTests.dejaVu, toPath: ws.url("Mine.ttf").path)
        let r = try ws.run("add", "text", "j.techo", "p1", "mine", "--font-file", "Mine.ttf", "--size", "60")
        #expect(r.code == 0, "\(r.err)")
        let page = try JSONParser.parse(try ws.bytes("j.techo/pages/p1.json"))
        guard case .object(let o) = page, case .array(let elements)? = o["elements"], case .object(let text)? = elements.last,
            case .string(let file)? = text["fontFile"]
        else {
            Issue.record("no fontFile in \(page)")
            return
        }
        #expect(file.hasPrefix("assets/") && file.hasSuffix(".ttf"))
        #expect(try ws.bytes("j.techo/" + file) == [UInt8](try Data(contentsOf: URL(fileURLWithPath: OneWayInTests.dejaVu))))
        // The file outside the journal can go: the journal renders from its own copy.
        try FileManager.default.removeItem(at: ws.url("Mine.ttf"))
        #expect(try ws.run("export", "j.techo", "-o", "out.png").code == 0)
        #expect(try ws.run("check", "j.techo").code == 0)
        #expect(try ws.run("gc", "j.techo").code == 0)
        #expect(ws.exists("j.techo/" + file), "gc kept the font a page uses")
        // Not a font: refused naming the file, nothing stored.
        try ws.png("cat.png", 8, 8, rgba: (1, 2, 3, 255))
        let bad = try ws.run("add", "text", "j.techo", "p1", "x", "--font-file", "cat.png")
        #expect(bad.code == 65 && bad.err.contains("cat.png") && bad.err.contains("not a font file"), "\(bad.err)")
        // A manifest names a font file relative to itself.
        try FileManager.default.copyItem(atPath: OneWayInTests.dejaVu, toPath: ws.url("Hand.ttf").path)
        _ = try manifest(ws, #"{"type": "text", "text": "hi", "fontFile": "Hand.ttf"}"#)
        let m = try ws.run("build", "m.json")
        #expect(m.code == 0, "\(m.err)")
        let assets = try FileManager.default.contentsOfDirectory(atPath: ws.url("m.techo/assets").path)
        #expect(assets.contains { $0.hasSuffix(".ttf") }, "\(assets)")
    }

    /// The font a page file names is never opened as a path, even in a page written by hand.
    @Test func aHandWrittenPageWithAFontPathDoesNotLoad() throws {
        let ws = try Workspace()
        _ = try journalWithText(ws)
        let path = ws.url("j.techo/pages/p1.json")
        let text = try String(contentsOf: path, encoding: .utf8).replacingOccurrences(of: "\"sans-serif\"", with: "\"/etc/passwd\"")
        try Data(text.utf8).write(to: path)
        let check = try ws.run("check", "j.techo")
        #expect(check.code != 0 && check.err.contains("is a file path"), "\(check.err)")
        let export = try ws.run("export", "j.techo", "-o", "out.png")
        #expect(export.code == 65 && export.err.contains("font"), "\(export.err)")
    }
}
