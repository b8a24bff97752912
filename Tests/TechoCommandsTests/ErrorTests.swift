// End to end: bad input gets a clear message naming what is wrong, the documented exit code,
// and changes nothing.
import Foundation
import Testing

@Suite struct ErrorTests {
    func journal(_ ws: Workspace) throws {
        try ws.png("s.png", 10, 10, rgba: (0, 0, 0, 255))
        #expect(try ws.run("init", "j.techo", "--size", "200x200").code == 0)
        #expect(try ws.run("add", "image", "j.techo", "p1", "s.png").code == 0)
    }

    @Test func missingFileIsNoInput() throws {
        let ws = try Workspace()
        try journal(ws)
        let before = try ws.bytes("j.techo/pages/p1.json")
        let r = try ws.run("add", "image", "j.techo", "p1", "nope.png")
        #expect(r.code == 66)
        #expect(r.err == "techo: error: nope.png: no such file\n")
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
    }

    @Test func badColourIsUsageQuotingTheValue() throws {
        let ws = try Workspace()
        try journal(ws)
        let r = try ws.run("add", "text", "j.techo", "p1", "hi", "--color", "#12345")
        #expect(r.code == 64)
        #expect(r.err.hasPrefix("techo: error: --color (argument 7): "))
        #expect(r.err.contains("\"#12345\""))
        #expect(try ws.run("history", "j.techo").out == "* 1\tadd image s.png\n")
    }

    @Test func unknownElementIdNamesTheIdsThereAre() throws {
        let ws = try Workspace()
        try journal(ws)
        let r = try ws.run("gesture", "j.techo", "p1", "image-9", "--pan", "1,1")
        #expect(r.code == 66)
        #expect(r.err == "techo: error: ID (argument 4): no element 'image-9' on page p1; elements: image-1\n")
        let p = try ws.run("show", "j.techo", "p7")
        #expect(p.code == 66)
        #expect(p.err == "techo: error: PAGE (argument 3): no page 'p7'; pages: p1\n")
    }

    @Test func usageErrors() throws {
        let ws = try Workspace()
        try journal(ws)
        #expect(try ws.run("frobnicate").code == 64)
        #expect(try ws.run("add", "image", "j.techo", "p1", "s.png", "--sclae", "2").err.contains("did you mean '--scale'?"))
        #expect(try ws.run("add", "image", "j.techo").err == "techo: error: add image: missing PAGE; usage: techo add image JOURNAL PAGE FILE\n")
        #expect(try ws.run("draw", "j.techo", "p1", "--tool", "crayon", "--points", "1,1").code == 64)
        #expect(try ws.run("draw", "j.techo", "p1", "--tool", "pencil", "--points", "1,1 2").err.contains("point 2 '2' is not x,y"))
        #expect(try ws.run("draw", "j.techo", "p1", "--tool", "path", "--path", "M 10 10 L 20").err.contains("offset"))
        #expect(try ws.run("export", "j.techo", "--scale", "nan").code == 64)
    }

    @Test func singularGestureIsRefusedAndChangesNothing() throws {
        let ws = try Workspace()
        try journal(ws)
        let before = try ws.bytes("j.techo/pages/p1.json")
        let r = try ws.run("gesture", "j.techo", "p1", "image-1", "--pan", "5,5", "--pinch", "0")
        #expect(r.code == 65)
        #expect(r.err.hasPrefix("techo: error: --pinch: refused, nothing changed: "))
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
        try "{\"gesture\":\"pinch\",\"scale\":1.1}\n{\"gesture\":\"pinch\",\"scale\":1e308}\n{\"gesture\":\"pinch\",\"scale\":1e308}\n".write(
            to: ws.url("g.jsonl"), atomically: true, encoding: .utf8)
        let replay = try ws.run("gesture", "j.techo", "p1", "image-1", "--replay", "g.jsonl")
        #expect(replay.code == 65)
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
    }

    @Test func notAnImageIsRefusedByContent() throws {
        let ws = try Workspace()
        try journal(ws)
        try Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8).write(to: ws.url("fake.png"))
        let r = try ws.run("add", "image", "j.techo", "p1", "fake.png")
        #expect(r.code == 65)
        #expect(r.err.hasPrefix("techo: error: fake.png: "))
        #expect(r.err.contains("GIF"))
    }

    @Test func existingJournalIsNotOverwritten() throws {
        let ws = try Workspace()
        try journal(ws)
        let r = try ws.run("init", "j.techo")
        #expect(r.code == 73)
        #expect(try ws.run("show", "j.techo", "p1").out.contains("image-1"))
    }
}
