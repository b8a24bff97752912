// End to end: every product limit (docs/contract.md §10) is refused with an error naming the file,
// JSON path or argument, a non-zero exit, before allocating, and nothing changes.
import Foundation
import Testing

@Suite struct HostileLimitsTests {
    /// A journal with one 10×10 sticker on a 200×200 page; returns the page file's bytes.
    @discardableResult
    func journal(_ ws: Workspace) throws -> [UInt8] {
        try ws.png("s.png", 10, 10, rgba: (0, 0, 0, 255))
        #expect(try ws.run("init", "j.techo", "--size", "200x200").code == 0)
        #expect(try ws.run("add", "image", "j.techo", "p1", "s.png").code == 0)
        return try ws.bytes("j.techo/pages/p1.json")
    }

    /// Runs and expects a refusal: the exit code, and stderr naming `names` (all of them). The
    /// time limit only catches a hang, generously, since the suite shares a loaded machine; that
    /// limits are refused before allocating is checked by what the refusal says, not by a clock.
    func refused(_ ws: Workspace, _ args: [String], code: Int32, naming names: [String], within seconds: Double = 120) throws {
        let (r, timedOut) = try ws.run(timeout: seconds, args)
        let shown = args.map { $0.count > 40 ? String($0.prefix(40)) + "…" : $0 }
        #expect(!timedOut, "\(shown) hung")
        #expect(r.code == code, "\(shown): exit \(r.code), \(r.err.prefix(400))")
        for n in names { #expect(r.err.contains(n), "\(shown): error does not name \(n): \(r.err.prefix(400))") }
    }

    @Test(arguments: [(UInt32(100_000), UInt32(100_000)), (UInt32(40_000), UInt32(10)), (UInt32(20_000), UInt32(20_000))])
    func hugePNGHeaderIsRefusedAtOnce(w: UInt32, h: UInt32) throws {
        let ws = try Workspace()
        let before = try journal(ws)
        try ws.write("huge.png", LyingFiles.png(width: w, height: h, idat: LyingFiles.zlibZeros(4096)))
        try refused(ws, ["add", "image", "j.techo", "p1", "huge.png"], code: 65, naming: ["huge.png", "limit"])
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
    }

    @Test func decompressionBombIsRefusedByItsHeader() throws {
        // 600 bytes that inflate to 400 MB: 10000×10000 RGBA is 100 000 000 pixels, the limit is
        // 100 megapixels, so 10001×10000 is over it. The header must stop it before inflating.
        let ws = try Workspace()
        let before = try journal(ws)
        let bomb = LyingFiles.png(width: 10_001, height: 10_000, idat: LyingFiles.zlibZeros(1 << 20))
        #expect(bomb.count < 8192)
        try ws.write("bomb.png", bomb)
        try refused(ws, ["add", "image", "j.techo", "p1", "bomb.png"], code: 65, naming: ["bomb.png", "megapixel"])
        try ws.write("m.json", #"{"pages":[{"id":"a","elements":[{"type":"image","src":"bomb.png"}]}]}"#)
        try refused(ws, ["build", "m.json"], code: 65, naming: ["bomb.png"])
        #expect(!ws.exists("m.techo"))
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
    }

    @Test func hugeJPEGHeaderIsRefusedAtOnce() throws {
        let ws = try Workspace()
        let before = try journal(ws)
        try ws.jpeg("small.jpg", 16, 16, rgb: (1, 2, 3))
        try ws.write("huge.jpg", LyingFiles.resizingJPEG(try ws.bytes("small.jpg"), width: 60_000, height: 60_000))
        try refused(ws, ["add", "photo", "j.techo", "p1", "huge.jpg"], code: 65, naming: ["huge.jpg", "limit"])
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
    }

    @Test func jsonOverTheSizeLimitIsRefused() throws {
        let ws = try Workspace()
        let pad = String(repeating: " ", count: 8 << 20)
        try ws.write("big.json", #"{"pages":[{"id":"a"}]}"# + pad)
        try refused(ws, ["build", "big.json"], code: 65, naming: ["big.json", "limit"])
        #expect(!ws.exists("big.techo"))
    }

    @Test func jsonDeeperThanTheLimitIsRefused() throws {
        let ws = try Workspace()
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        try ws.write("deep.json", #"{"pages":[{"id":"a","elements":[{"type":"text","text":"x","at":"# + deep + "}]}]}")
        try refused(ws, ["build", "deep.json"], code: 65, naming: ["deep.json", "deep"])
        #expect(!ws.exists("deep.techo"))
    }

    @Test func textOverTheLimitIsRefused() throws {
        let ws = try Workspace()
        let before = try journal(ws)
        try refused(ws, ["add", "text", "j.techo", "p1", String(repeating: "a", count: 100_001)], code: 64, naming: ["100001", "limit of 100000"])
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
        // The limit itself is fine.
        let ok = try ws.run("add", "text", "j.techo", "p1", String(repeating: "a ", count: 50_000), "--max-width", "180", "--size", "1")
        #expect(ok.code == 0, "\(ok.err)")
    }

    @Test(arguments: ["0", "0.5", "2001", "nan", "inf", "-12", "1e308"])
    func fontSizesOutsideTheRangeAreRefused(size: String) throws {
        let ws = try Workspace()
        let before = try journal(ws)
        try refused(ws, ["add", "text", "j.techo", "p1", "hi", "--size", size], code: 64, naming: ["--size", "'\(size)'"])
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
    }

    @Test func strokeWithTooManyPointsIsRefused() throws {
        let ws = try Workspace()
        let before = try journal(ws)
        // 1 000 001 points: 6 MB of JSON, under the 8 MB limit, so the points limit decides.
        var s = "["
        s.reserveCapacity(6_100_000)
        for _ in 0..<1_000_001 { s += "[1,2]," }
        s.removeLast()
        s += "]"
        try ws.write("pts.json", s)
        try refused(
            ws, ["draw", "j.techo", "p1", "--tool", "pencil", "--points-file", "pts.json"], code: 65,
            naming: ["pts.json", "1000000"], within: 120)
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
    }

    @Test func thousandsOfProblemsAreSummarised() throws {
        let ws = try Workspace()
        let bad = Array(repeating: #"{"type":"text","text":"x","size":-1}"#, count: 3000).joined(separator: ",")
        try ws.write("m.json", #"{"pages":[{"id":"a","elements":["# + bad + "]}]}")
        let r = try ws.run(timeout: 60, ["build", "m.json"]).result
        #expect(r.code == 65)
        #expect(r.err.hasPrefix("techo: error: m.json: 3000 problems:\n"), "\(r.err.prefix(300))")
        #expect(r.err.contains("pages[0].elements[49].size"))
        #expect(!r.err.contains("pages[0].elements[50].size"))
        #expect(r.err.hasSuffix("techo: error:   … and 2950 more\n"), "\(r.err.suffix(200))")
    }

    @Test func pageOverTheElementLimitIsRefused() throws {
        let ws = try Workspace()
        let one = #"{"type":"ink","strokes":[{"tool":"pencil","width":1,"points":[[0,0],[1,1]]}]}"#
        let many = Array(repeating: one, count: 10_001).joined(separator: ",")
        try ws.write("m.json", #"{"page":{"size":"200x200"},"pages":[{"id":"a","elements":["# + many + "]}]}")
        // (Generous times: 10 000 elements take a while in a debug build under a sanitizer.)
        try refused(ws, ["build", "m.json", "--no-export"], code: 65, naming: ["10001 elements, over the limit of 10000"], within: 240)
        #expect(!ws.exists("m.techo"))
        // At the limit it builds; one more through a command is refused and changes nothing.
        let full = Array(repeating: one, count: 10_000).joined(separator: ",")
        try ws.write("m.json", #"{"page":{"size":"200x200"},"pages":[{"id":"a","elements":["# + full + "]}]}")
        let b = try ws.run(timeout: 240, ["build", "m.json", "--no-export"]).result
        #expect(b.code == 0, "\(b.err)")
        let before = try ws.bytes("m.techo/pages/a.json")
        try refused(
            ws, ["add", "text", "m.techo", "a", "one too many"], code: 65,
            naming: ["pages/a.json", "10001 elements, over the limit of 10000"], within: 240)
        #expect(try ws.bytes("m.techo/pages/a.json") == before)
    }

    @Test(arguments: [
        (["init", "big.techo", "--size", "16385x100"], "--size"),
        (["init", "big.techo", "--size", "12000x9000"], "--size"),
    ])
    func pagesOverTheLimitAreRefused(args: [String], names: String) throws {
        let ws = try Workspace()
        try refused(ws, args, code: 64, naming: [names])
        #expect(!ws.exists("big.techo"))
    }

    @Test(arguments: [["--scale", "41"], ["--scale", "64"], ["--dpi", "9600"]])
    func exportScaleOverTheLimitIsRefused(args: [String]) throws {
        // 400×400 at 41× is 16400 px on a side; at 9600 dpi (32×) 12800 px and 164 megapixels.
        let ws = try Workspace()
        #expect(try ws.run("init", "j.techo", "--size", "400x400").code == 0)
        try refused(ws, ["export", "j.techo", "-o", "out.png"] + args, code: 65, naming: ["p1", "limit"])
        #expect(!ws.exists("out.png"))
        #expect(ws.snapshot(".").keys.allSatisfy { !$0.hasPrefix(".out.png") })
    }

    @Test(arguments: [
        (["add", "image", "j.techo", "p1", "s.png", "--width", "nan"], "--width"),
        (["add", "image", "j.techo", "p1", "s.png", "--width", "-5"], "--width"),
        (["add", "image", "j.techo", "p1", "s.png", "--scale", "1e308"], "--scale"),
        (["add", "image", "j.techo", "p1", "s.png", "--at", "1e308,0"], "--at"),
        (["add", "image", "j.techo", "p1", "s.png", "--at", "0,-inf"], "--at"),
        (["add", "image", "j.techo", "p1", "s.png", "--rotate", "nan"], "--rotate"),
        (["add", "image", "j.techo", "p1", "s.png", "--opacity", "inf"], "--opacity"),
        (["gesture", "j.techo", "p1", "image-1", "--pinch", "inf"], "--pinch"),
        (["gesture", "j.techo", "p1", "image-1", "--pinch", "nan"], "--pinch"),
        (["gesture", "j.techo", "p1", "image-1", "--pan", "1e308,0"], "--pan"),
        (["gesture", "j.techo", "p1", "image-1", "--rotate", "1e308"], "--rotate"),
        (["gesture", "j.techo", "p1", "image-1", "--rotate", "5", "--around", "nan,0"], "--around"),
        (["draw", "j.techo", "p1", "--tool", "pencil", "--width", "nan", "--points", "1,1 2,2"], "--width"),
        (["draw", "j.techo", "p1", "--tool", "pencil", "--width", "-3", "--points", "1,1 2,2"], "--width"),
        (["draw", "j.techo", "p1", "--tool", "pencil", "--points", "1,1 1e308,2"], "--points"),
        (["draw", "j.techo", "p1", "--tool", "line", "--from", "0,0", "--to", "nan,1"], "--to"),
        (["set", "j.techo", "p1", "image-1", "--opacity", "nan"], "--opacity"),
        (["set", "j.techo", "p1", "image-1", "--scale", "-inf"], "--scale"),
        (["export", "j.techo", "--scale", "inf"], "--scale"),
        (["export", "j.techo", "--dpi", "-300"], "--dpi"),
    ])
    func nonFiniteAndAbsurdArgumentsAreRefused(args: [String], name: String) throws {
        let ws = try Workspace()
        let before = try journal(ws)
        let (r, timedOut) = try ws.run(timeout: 20, args)
        #expect(!timedOut)
        #expect(r.code == 64 || r.code == 65, "\(args): exit \(r.code) \(r.err)")
        #expect(r.err.contains(name), "\(args): \(r.err)")
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
        #expect(!ws.exists("j-pages"))
    }

    @Test(arguments: [
        (#"{"type":"text","text":"x","at":[1e308,0]}"#, "pages[0].elements[0].at"),
        (#"{"type":"text","text":"x","size":1e308}"#, "pages[0].elements[0].size"),
        (#"{"type":"text","text":"x","size":-4}"#, "pages[0].elements[0].size"),
        (#"{"type":"image","src":"s.png","scale":1e308}"#, "pages[0].elements[0].scale"),
        (#"{"type":"image","src":"s.png","width":-10}"#, "pages[0].elements[0].width"),
        (#"{"type":"image","src":"s.png","rotate":1e308}"#, "pages[0].elements[0].rotate"),
        (#"{"type":"image","src":"s.png","gestures":[{"pinch":1e308}]}"#, "pages[0].elements[0].gestures[0]"),
        (#"{"type":"ink","strokes":[{"tool":"pencil","width":1e308,"points":[[0,0],[1,1]]}]}"#, "pages[0].elements[0].strokes[0].width"),
        (#"{"type":"ink","strokes":[{"tool":"pencil","points":[[0,0],[1e308,1]]}]}"#, "pages[0].elements[0].strokes[0].points[1]"),
        (#"{"type":"ink","strokes":[{"tool":"path","path":"M 0 0 L 1e308 1e308"}]}"#, "pages[0].elements[0].strokes[0]"),
    ])
    func absurdNumbersInManifestsNameTheField(element: String, path: String) throws {
        let ws = try Workspace()
        try ws.png("s.png", 10, 10, rgba: (0, 0, 0, 255))
        try ws.write("m.json", #"{"page":{"size":"200x200"},"pages":[{"id":"a","elements":["# + element + "]}]}")
        let (r, timedOut) = try ws.run(timeout: 20, ["build", "m.json"])
        #expect(!timedOut)
        #expect(r.code == 65, "\(element): exit \(r.code) \(r.err)")
        #expect(r.err.contains(path), "\(element): \(r.err)")
        #expect(!ws.exists("m.techo"))
        #expect(!ws.exists("m-pages"))
    }

    @Test func absurdNumbersInAPageFileAreReportedByCheckAndCommands() throws {
        let ws = try Workspace()
        try journal(ws)
        var text = String(decoding: try ws.bytes("j.techo/pages/p1.json"), as: UTF8.self)
        let at = try #require(text.range(of: #""at": ["#) ?? text.range(of: #""at":["#))
        text.insert(contentsOf: "1e308, ", at: at.upperBound)
        // The first number after "at": is now 1e308 (the array keeps a third number, also wrong).
        try ws.write("j.techo/pages/p1.json", text)
        let c = try ws.run(timeout: 20, ["check", "j.techo"]).result
        #expect(c.code != 0)
        #expect(c.out.contains("pages/p1.json") || c.err.contains("pages/p1.json"), "\(c.out) \(c.err)")
        let s = try ws.run(timeout: 20, ["show", "j.techo", "p1"]).result
        #expect(s.code == 65)
        #expect(s.err.contains("pages/p1.json"), "\(s.err)")
    }
}
