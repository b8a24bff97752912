// `locked` behind every front end: `techo set --lock`, the editor's PATCH `{"locked": true}` and
// the library's `JournalEditor.set` write the same page bytes (an ink layer too, whose writer
// has a fast path of its own); a manifest's `"locked": true` builds a locked element; `techo show`
// and the page API say so; and a gesture on a locked element is refused alike by `techo gesture`
// (exit 1), the editor's POST (409) and the library (`.conflict`), changing nothing.
import Foundation
import Techo
import TechoCommands
import Testing

@testable import TechoModel

@Suite struct LockedTests {
    func journal(_ name: String = #function) throws -> ServedJournal {
        let s = try ServedJournal(name)
        try s.techo("add", "text", s.journal.path, "p1", "hi")
        try s.techo("draw", s.journal.path, "p1", "--tool", "pencil", "--points", "10,10 40,40")
        return s
    }

    /// The page's bytes whole: its page file joined with its ink file.
    func pageBytes(_ s: ServedJournal) throws -> [UInt8] { try #require(try JournalStore.open(s.journal).readWhole("pages/p1.json")?.bytes) }

    @Test(arguments: ["text-1", "ink-1"])
    func lockingWritesTheSameBytesFromEachFrontEndAndReadsBack(id: String) throws {
        let s = try journal()
        let before = try pageBytes(s)
        var pages: [[UInt8]] = []
        try ServedJournal.techo(["set", s.journal.path, "p1", id, "--lock"])
        pages.append(try pageBytes(s))
        try s.techo("undo", s.journal.path)
        let r = try s.client.request("PATCH", "/api/pages/p1/elements/\(id)", body: Array(#"{"locked": true}"#.utf8))
        #expect(r.status == 200, "\(r.text)")
        pages.append(try pageBytes(s))
        try s.techo("undo", s.journal.path)
        var patch = ElementPatch()
        patch.locked = true
        try JournalEditor.open(s.journal).set(patch, on: id, of: "p1")
        pages.append(try pageBytes(s))
        #expect(pages[0] != before)
        #expect(pages[0] == pages[1] && pages[1] == pages[2])
        #expect(String(decoding: pages[0], as: UTF8.self).contains("\"locked\": true"))
        #expect(try s.page().elements.first { $0.id == id }?.locked == true)
        // The page file reads back locked, and writes back the same bytes.
        let decoded = try Page.decode(bytes: pages[0])
        #expect(decoded.elements.first { $0.id == id }?.locked == true)
        #expect(decoded.serialized() == pages[0], "the page file reads and writes back the same bytes")
        // techo show and the page API say so.
        #expect(try s.techo("show", s.journal.path, "p1").contains("(locked)"))
        let api = try s.client.request("GET", "/api/pages/p1")
        let el = (try json(api)["elements"]?.array ?? []).first { $0["id"]?.string == id }
        #expect(el?["locked"] == .bool(true), "\(api.text)")
        // Unlocked again: the field is gone from the file.
        try ServedJournal.techo(["set", s.journal.path, "p1", id, "--unlock"])
        #expect(try pageBytes(s) == before)
    }

    @Test func aGestureOnALockedElementIsRefusedAlikeByEachFrontEnd() throws {
        let s = try journal()
        try ServedJournal.techo(["set", s.journal.path, "p1", "text-1", "--lock"])
        let before = try pageBytes(s)
        let words = "'text-1' is locked; no gesture moves it"
        var out = "", err = ""
        let code = TechoCommands.Techo.main(
            ["techo", "gesture", s.journal.path, "p1", "text-1", "--pan", "5,0"], io: CommandIO(out: { out += $0 }, err: { err += $0 }))
        #expect(code == 1, "\(err)")
        #expect(err.contains(words), "\(err)")
        let body = #"{"element": "text-1", "events": [{"gesture": "pan", "state": "changed", "translation": [5, 0]}]}"#
        let r = try s.client.request("POST", "/api/pages/p1/gesture", body: Array(body.utf8))
        #expect(r.status == 409, "\(r.text)")
        #expect(try json(r)["error"]?.string?.contains(words) == true, "\(r.text)")
        let flip = try s.client.request("POST", "/api/pages/p1/elements/text-1/flip", body: Array(#"{"axis": "h"}"#.utf8))
        #expect(flip.status == 409, "\(flip.text)")
        #expect(throws: PageEdits.isLocked("text-1")) { try JournalEditor.open(s.journal).apply([.pan(dx: 5, dy: 0)], to: "text-1", on: "p1") }
        #expect(try pageBytes(s) == before)
        // Unlocked, the same gesture moves it.
        try ServedJournal.techo(["set", s.journal.path, "p1", "text-1", "--unlock"])
        try ServedJournal.techo(["gesture", s.journal.path, "p1", "text-1", "--pan", "5,0"])
        #expect(try pageBytes(s) != before)
    }

    @Test func setRefusesLockAndUnlockTogether() throws {
        let s = try journal()
        var err = ""
        let code = TechoCommands.Techo.main(
            ["techo", "set", s.journal.path, "p1", "text-1", "--lock", "--unlock"], io: CommandIO(out: { _ in }, err: { err += $0 }))
        #expect(code == 64, "\(err)")
    }

    @Test func aManifestLocksAnElement() throws {
        let s = try ServedJournal()
        let manifest = s.dir.appendingPathComponent("m.json")
        try Data(
            #"{"pages":[{"id":"a","size":"200x100","elements":[{"type":"text","id":"t","text":"hi","at":[50,50],"locked":true},{"type":"text","id":"u","text":"ho","at":[150,50]}]}]}"#
                .utf8
        )
        .write(to: manifest)
        let built = s.dir.appendingPathComponent("built.techo")
        try ServedJournal.techo(["build", manifest.path, "--journal", built.path, "--no-export"])
        let shown = try ServedJournal.techo(["show", built.path, "a", "--json"])
        let page = try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any]
        let els = page?["elements"] as? [[String: Any]] ?? []
        #expect(els.first { $0["id"] as? String == "t" }?["locked"] as? Bool == true, "\(shown)")
        #expect(els.first { $0["id"] as? String == "u" }?["locked"] == nil, "\(shown)")
    }
}
