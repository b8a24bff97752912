// More claims of docs/editor-api.md and docs/contract.md (see ServerClaimsTests.swift): the
// render queue's bound and its workers' priority, the page answer's `bounds` and `drawn`
// boxes, an ink layer's sprite and a sprite in a slot, `techo serve`'s default port, and the
// library's changes in the history the commands read and undo.
import Foundation
import Techo
import TechoCodecs
import TechoRaster
import TechoTestSupport
import Testing

@testable import TechoModel
@testable import TechoServer

#if canImport(Glibc)
    import Glibc
#endif

extension ServerClaimsTests {
    // MARK: The render queue

    /// At most 128 render requests wait (3 here); the next, a new render or one that would join
    /// a waiting one, is a 503 at once, and nothing waiting is lost.
    @Test func pastTheWaitingRendersTheAnswerIs503() throws {
        let waiting = try ClaimDocs.number("At most ([0-9]+) render requests wait")
        let s = try ServedJournal()
        #expect(Double(s.server.renderQueue.maxWaiting) == waiting && Double(RenderQueue.defaultMaxWaiting) == waiting)
        #expect(waiting == 128, "the document's figure changed: \(waiting)")
        let q = RenderQueue(workers: 1, maxWaiting: 3)
        defer { q.stop() }
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let answers = LogLines()
        func ask(_ key: String, blocking: Bool) {
            Thread {
                let r = try? q.answer(key) {
                    if blocking {
                        started.signal()
                        release.wait()
                    }
                    return .error(200, key)
                }
                answers.append("\(key) \(r?.status ?? 0)")
            }.start()
        }
        ask("a", blocking: true)
        #expect(started.wait(timeout: .now() + 60) == .success, "the worker never started the first render")
        ask("b", blocking: false)
        ask("b", blocking: false)
        try waitUntil("three render requests to wait") { q.waitingRequests == 3 }
        for key in ["c", "b"] {
            let answered = DispatchSemaphore(value: 0)
            let outcome = LogLines()
            Thread {
                do {
                    _ = try q.answer(key) { .error(200, key) }
                    outcome.append("taken")
                } catch let e as APIError {
                    outcome.append("\(e.status) \(e.message)")
                } catch {
                    outcome.append("\(error)")
                }
                answered.signal()
            }.start()
            // A refusal comes at once; a request that was taken waits behind the held render.
            guard answered.wait(timeout: .now() + 30) == .success else {
                Issue.record("a fourth request (\(key)) was taken: it waits for a render")
                break
            }
            let got = outcome.lines.first ?? ""
            #expect(got.hasPrefix("503 ") && got.contains("3 renders are waiting"), "\(key): \(got)")
        }
        release.signal()
        try waitUntil("the waiting requests to be answered") { answers.lines.count == 3 }
        #expect(answers.lines.sorted() == ["a 200", "b 200", "b 200"])
        #expect(q.counts.made == 2 && q.counts.joined == 1)
        #expect(try q.answer("d") { .error(200, "d") }.status == 200)
    }

    /// Two workers, each at a lower priority (a higher nice value) than the threads that answer
    /// requests and make the changes; a render runs on one of them; both render at once.
    @Test func twoRenderWorkersRunBelowTheRequestsPriority() throws {
        let doc = try ClaimDocs.text("docs/editor-api.md")
        #expect(doc.contains("wait in one queue for two worker threads, which run at a lower scheduling priority than the requests"))
        let base = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let s = try ServedJournal()
        let q = s.server.renderQueue
        #expect(q.workers == 2 && RenderQueue.defaultWorkers == 2)
        try waitUntil("the render workers to start") { q.workerThreadIDs.count == q.workers }
        let workers = q.workerThreadIDs
        #expect(Set(workers).count == 2 && !workers.contains(0), "\(workers)")
        func nice(_ tid: pid_t) -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid)) }
        for tid in workers { #expect(nice(tid) == min(19, base + 10) && nice(tid) > base, "worker \(tid): nice \(nice(tid)), requests \(base)") }
        // A request's thread (one waiting for an upload's body) runs at the priority it was made
        // with, the same as the thread that started the server.
        let held = try RawConnection(port: s.port, timeout: 60)
        try held.send(s.client.head("POST", "/api/pages/p1/draw", length: 10))
        try waitUntil("the upload to be handed to a request thread") { s.server.daemonGateStatistics.handedOver == 1 }
        // The library names its connection thread from inside it, a moment after the hand-over.
        var connectionThreads: [pid_t] = []
        try waitUntil("a request thread to be named") {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            connectionThreads = tasks.compactMap(pid_t.init).filter {
                ((try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)) ?? "").hasPrefix("MHD-connection")
            }
            return !connectionThreads.isEmpty
        }
        for tid in connectionThreads { #expect(nice(tid) < nice(workers[0]), "request thread \(tid): nice \(nice(tid))") }
        shutdown(held.fd, Int32(SHUT_RDWR))
        // Two renders are made at once, each on a worker.
        let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let ran = LogLines()
        for key in ["x", "y"] {
            Thread {
                _ = try? q.answer(key) {
                    ran.append(String(RenderQueue.currentThreadID()))
                    inside.signal()
                    release.wait()
                    return .error(200, key)
                }
                ran.append("done")
            }.start()
        }
        let both = inside.wait(timeout: .now() + 60) == .success && inside.wait(timeout: .now() + 60) == .success
        #expect(both, "two renders were not made at once")
        release.signal()
        release.signal()
        try waitUntil("both renders to end") { ran.lines.filter { $0 == "done" }.count == 2 }
        #expect(Set(ran.lines.filter { $0 != "done" }.compactMap(pid_t.init)) == Set(workers))
    }

    // MARK: The page answer's boxes

    /// Decoded pixels of a PNG answer.
    func pixels(_ r: RawResponse) throws -> RGBAImage { try ImageDecoder.decodeStraight(r.body, name: "render").pixels }

    /// The box of the pixels that differ from `ground`: (minX, minY, maxX + 1, maxY + 1).
    func box(of image: RGBAImage, differingFrom ground: [UInt8]) -> (Int, Int, Int, Int)? {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = (y * image.width + x) * 4
                if Array(image.bytes[i..<(i + 4)]) != ground {
                    x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
                }
            }
        }
        return x1 < 0 ? nil : (x0, y0, x1 + 1, y1 + 1)
    }

    func numbers(_ v: JSONValue?) -> [Double] { (v?.array ?? []).compactMap(\.number) }

    /// `bounds` is the axis-aligned page box of the element's turned and scaled box; `drawn`
    /// holds every pixel it draws (its die-cut outline, a photo's frame and shadow) and no more.
    @Test func boundsIsTheTurnedBoxAndDrawnHoldsEverythingDrawn() throws {
        let s = try ServedJournal()
        let grey: [UInt8] = [128, 128, 128, 255]
        let sticker = s.dir.appendingPathComponent("sticker.png")
        try Data(try ServedJournal.png(40, 20)).write(to: sticker)
        try s.techo("background", s.journal.path, "p1", "--color", "#808080")
        try s.techo("add", "image", s.journal.path, "p1", sticker.path, "--at", "150,120", "--scale", "2", "--rotate", "30", "--outline", "#0000ff,6")
        try s.techo("page", "add", s.journal.path, "--id", "p2")
        try s.techo("background", s.journal.path, "p2", "--color", "#808080")
        try s.techo("add", "photo", s.journal.path, "p2", sticker.path, "--at", "150,120", "--scale", "3", "--frame", "polaroid", "--shadow")
        for (page, turned) in [("p1", true), ("p2", false)] {
            let e = try #require(try json(try s.client.get("/api/pages/\(page)"))["elements"]?.array?.first)
            let t = numbers(e["transform"]), size = numbers(e["size"]), bounds = numbers(e["bounds"]), drawn = numbers(e["drawn"])
            try #require(t.count == 6 && size.count == 2 && bounds.count == 4 && drawn.count == 4, "\(e)")
            // The corners of `size` about the centre, through `transform`: their box is `bounds`.
            let corners = [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { (sx, sy) -> (Double, Double) in
                let x = sx * size[0] / 2, y = sy * size[1] / 2
                return (t[0] * x + t[2] * y + t[4], t[1] * x + t[3] * y + t[5])
            }
            let xs = corners.map(\.0), ys = corners.map(\.1)
            let expected = [xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!]
            #expect(zip(bounds, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(page): bounds \(bounds), the quad's box \(expected)")
            if turned {
                // And from the stored placement alone: 40×20 at scale 2, turned 30°, about 150,120.
                let c = cos(Double.pi / 6), sn = sin(Double.pi / 6)
                let hx = 2 * (20 * c + 10 * sn), hy = 2 * (20 * sn + 10 * c)
                let mine = [150 - hx, 120 - hy, 2 * hx, 2 * hy]
                #expect(zip(bounds, mine).allSatisfy { abs($0 - $1) < 1e-6 }, "bounds \(bounds), by hand \(mine)")
            }
            // `drawn` holds what the page shows of it, and reaches past `bounds` (outline, frame, shadow).
            let image = try pixels(try s.client.get("/api/pages/\(page)/render?scale=1"))
            let seen = try #require(box(of: image, differingFrom: grey), "\(page): nothing drawn")
            let (dx0, dy0, dx1, dy1) = (drawn[0], drawn[1], drawn[0] + drawn[2], drawn[1] + drawn[3])
            #expect(Double(seen.0) >= dx0.rounded(.down) && Double(seen.1) >= dy0.rounded(.down), "\(page): drawn \(drawn), pixels \(seen)")
            #expect(Double(seen.2) <= dx1.rounded(.up) && Double(seen.3) <= dy1.rounded(.up), "\(page): drawn \(drawn), pixels \(seen)")
            #expect(
                dx0 < bounds[0] && dy0 < bounds[1] && dx1 > bounds[0] + bounds[2] && dy1 > bounds[1] + bounds[3],
                "\(page): drawn \(drawn), bounds \(bounds)")
            // And not much more: the box of a round-cornered outline or a fading shadow is a few
            // pixels larger than what shows.
            let slack = [Double(seen.0) - dx0, Double(seen.1) - dy0, dx1 - Double(seen.2), dy1 - Double(seen.3)]
            #expect(slack.allSatisfy { $0 < 8 }, "\(page): drawn \(drawn), pixels \(seen)")
        }
    }

    /// An ink layer's sprite covers the whole page (`0,0,W,H` in page coordinates), drawn where
    /// the page draws its strokes; its transform is the identity and its boxes its strokes' box.
    @Test func anInkLayersSpriteIsTheWholePage() throws {
        let s = try ServedJournal()
        try s.techo("background", s.journal.path, "p1", "--color", "#ffffff")
        try s.techo("draw", s.journal.path, "p1", "--tool", "pencil", "--color", "#e07a5f", "--width", "8", "--points", "60,50 200,150 330,240")
        for scale in [1.0, 2.0] {
            let r = try s.client.get("/api/pages/p1/elements/ink-1/render?scale=\(numberText(scale))")
            #expect(r.status == 200, "\(r.text)")
            #expect(r.header("X-Techo-Sprite") == "0,0,400,300", "scale \(scale): \(r.header("X-Techo-Sprite") ?? "none")")
            let sprite = try pixels(r)
            #expect(sprite.width == Int(400 * scale) && sprite.height == Int(300 * scale))
            // Over white, the sprite is the page's render.
            let page = try pixels(try s.client.get("/api/pages/p1/render?scale=\(numberText(scale))"))
            try #require(page.width == sprite.width && page.height == sprite.height)
            var worst = 0, inked = 0
            for i in stride(from: 0, to: page.bytes.count, by: 4) {
                let a = Int(sprite.bytes[i + 3])
                if a > 200 { inked += 1 }
                for k in 0..<3 {
                    let over = (Int(sprite.bytes[i + k]) * a + 255 * (255 - a) + 127) / 255
                    worst = max(worst, abs(over - Int(page.bytes[i + k])))
                }
            }
            #expect(inked > 500 && worst <= 2, "scale \(scale): \(inked) inked pixels, largest difference \(worst)")
        }
        let e = try #require(try json(try s.client.get("/api/pages/p1"))["elements"]?.array?.first)
        #expect(numbers(e["transform"]) == [1, 0, 0, 1, 0, 0])
        let bounds = numbers(e["bounds"])
        #expect(bounds == numbers(e["drawn"]) && numbers(e["size"]) == Array(bounds.suffix(2)))
        #expect(bounds.count == 4 && bounds[0] <= 56 && bounds[1] <= 46 && bounds[0] + bounds[2] >= 334 && bounds[1] + bounds[3] >= 244, "\(bounds)")
    }

    /// A photo in a slot is clipped to it on the page, but its sprite is the whole picture: the
    /// part outside the slot is drawn in the sprite and not on the page.
    @Test func aSpriteIgnoresTheSlotClip() throws {
        let s = try ServedJournal()
        let template = s.dir.appendingPathComponent("one-slot.json")
        let slotTemplate =
            ##"{"name": "one slot", "size": "400x300", "dpi": 100, "background": {"color": "#ffffff"}, "##
            + ##""slots": [{"name": "s", "kind": "photo", "rect": [150, 100, 100, 100]}]}"##
        try Data(slotTemplate.utf8).write(to: template)
        try s.techo("page", "add", s.journal.path, "--id", "t", "--template", template.path)
        // 200×50: the left 20 columns red, the rest blue. Covering the 100×100 slot it is 400×100,
        // so its ends lie outside the slot.
        let w = 200, h = 50
        let rgba = (0..<(w * h)).flatMap { i -> [UInt8] in i % w < 20 ? [255, 0, 0, 255] : [0, 0, 255, 255] }
        let file = s.dir.appendingPathComponent("wide.png")
        try Data(try PNGEncoder.encode(Pixmap(width: w, height: h, straightRGBA: rgba), name: "wide.png")).write(to: file)
        try s.techo("add", "photo", s.journal.path, "t", file.path, "--slot", "s", "--frame", "none")
        let stored = try #require(try s.page("t").elements.first)
        #expect(stored.clip != nil, "the photo is not clipped to its slot")
        let centre = stored.placement.center, scale = stored.placement.scale
        #expect(abs(centre.x - 200) < 1e-9 && abs(centre.y - 150) < 1e-9 && abs(scale - 2) < 1e-9, "\(stored.placement)")
        let r = try s.client.get("/api/pages/t/elements/\(stored.id)/render?scale=1")
        #expect(r.status == 200, "\(r.text)")
        let rect = (r.header("X-Techo-Sprite") ?? "").split(separator: ",").compactMap { Double($0) }
        try #require(rect.count == 4, "\(r.headers)")
        #expect(rect[2] >= 400 && rect[3] >= 100, "the sprite \(rect) is not the whole picture")
        let sprite = try pixels(r)
        func at(_ img: RGBAImage, _ x: Double, _ y: Double) -> [UInt8] {
            let i = (Int(y) * img.width + Int(x)) * 4
            return Array(img.bytes[i..<(i + 4)])
        }
        // 190 page pixels left of the centre: the red end, outside the slot.
        #expect(at(sprite, -190 - rect[0], -rect[1]) == [255, 0, 0, 255], "the sprite's left end: \(at(sprite, -190 - rect[0], -rect[1]))")
        #expect(at(sprite, -rect[0], -rect[1]) == [0, 0, 255, 255])
        let page = try pixels(try s.client.get("/api/pages/t/render?scale=1"))
        #expect(at(page, 200 - 190, 150) == [255, 255, 255, 255], "the page shows the picture outside the slot: \(at(page, 10, 150))")
        #expect(at(page, 200, 150) == [0, 0, 255, 255])
    }

    // MARK: The default port

    /// `techo serve` listens on 7373 unless `--port` says otherwise: the figure of the README,
    /// the contract and the help is the options' default and the port the command asks for. The
    /// command is run on an address this machine does not have, so its refusal names the
    /// address and port it tried, and nothing ever listens on 7373.
    @Test func serveUsesPort7373UnlessTold() throws {
        let readme = try ClaimDocs.figure("techo serve kyoto.techo \\[--port ([0-9]+)\\]", in: "README.md")
        let contract = try ClaimDocs.figure("The port is ([0-9]+) unless `--port` says otherwise", in: "docs/contract.md")
        #expect(readme == "7373" && contract == "7373")
        #expect(ServerOptions().port == 7373 && ServerOptions().host == "127.0.0.1")
        func run(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
            let p = Process()
            p.executableURL = ServerProcess.binary
            p.arguments = args
            let out = Pipe(), err = Pipe()
            p.standardOutput = out
            p.standardError = err
            try p.run()
            let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
        }
        let help = try run(["serve", "--help"])
        #expect(help.status == 0 && help.out.contains("default 7373"), "\(help.out)")
        let (dir, journal) = try scratchJournal()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 192.0.2.1 is kept for documentation (RFC 5737): no machine has it, so listening fails.
        let plain = try run(["serve", journal.path, "--host", "192.0.2.1"])
        #expect(plain.status != 0 && plain.out.isEmpty, "\(plain)")
        #expect(plain.err.contains("cannot listen on 192.0.2.1:7373"), "\(plain.err)")
        let told = try run(["serve", journal.path, "--host", "192.0.2.1", "--port", "7374"])
        #expect(told.status != 0 && told.err.contains("cannot listen on 192.0.2.1:7374"), "\(told.err)")
    }

    // MARK: The library and the commands' history

    /// A change made with the library is a step of the history the commands read: `techo
    /// history` lists it in the words the command's own change has, `techo undo` undoes it and
    /// `techo redo` makes it again; the library's undo is seen by the commands too.
    @Test func aLibraryChangeIsAStepTheCommandsListAndUndo() throws {
        let (dir, journal) = try scratchJournal()
        defer { try? FileManager.default.removeItem(at: dir) }
        let j = journal.path
        try ServedJournal.techo(["add", "text", j, "p1", "hi"])
        func pageBytes() throws -> [UInt8] { try #require(try JournalStore.open(journal).readWhole("pages/p1.json")?.bytes) }
        func history() throws -> [(n: Int, description: String, applied: Bool)] {
            let list = try JSONParser.parse(Array(try ServedJournal.techo(["history", j, "--json"]).utf8)).array ?? []
            return list.map { (Int($0["step"]?.number ?? -1), $0["description"]?.string ?? "", $0["applied"] == .bool(true)) }
        }
        let before = try pageBytes()
        let library = try JournalEditor.open(journal)
        var patch = ElementPatch()
        patch.text = "from the library"
        try library.set(patch, on: "text-1", of: "p1")
        let after = try pageBytes()
        #expect(after != before)
        var steps = try history()
        #expect(steps.count == 2 && steps.last?.n == 2 && steps.last?.applied == true, "\(steps)")
        let libraryWords = steps.last?.description ?? ""
        #expect(try ServedJournal.techo(["history", j]).hasSuffix("* 2\t\(libraryWords)\n"))
        // The command's undo takes the library's step back; its redo makes it again.
        #expect(try ServedJournal.techo(["undo", j]) == "undid 2: \(libraryWords)\n")
        #expect(try pageBytes() == before)
        #expect(try history().last?.applied == false)
        #expect(try ServedJournal.techo(["redo", j]) == "redid 2: \(libraryWords)\n")
        #expect(try pageBytes() == after)
        // The library's undo is a step the command sees undone.
        #expect(try library.undo())
        steps = try history()
        #expect(steps.count == 2 && steps.last?.applied == false, "\(steps)")
        // The same change by the command is described in the same words.
        try ServedJournal.techo(["set", j, "p1", "text-1", "--text", "from the library"])
        #expect(try pageBytes() == after)
        steps = try history()
        #expect(steps.count == 2 && steps.last?.description == libraryWords && steps.last?.applied == true, "\(steps)")
        // A drawing and a gesture from the library: one step each, undone by the command one at a time.
        let stroke = try Stroke(tool: .pencil, color: try RGBA(parsing: "#e07a5f"), width: 6, points: [StrokePoint(10, 10), StrokePoint(60, 40)])
        let drawn0 = try pageBytes()
        try library.draw(stroke, on: "p1")
        let drawn1 = try pageBytes()
        try library.apply([.pinch(scale: 1.5, around: nil)], to: "text-1", on: "p1")
        #expect(try history().count == 4)
        #expect(try ServedJournal.techo(["undo", j]).hasPrefix("undid 4: "))
        #expect(try pageBytes() == drawn1)
        #expect(try ServedJournal.techo(["undo", j]).hasPrefix("undid 3: "))
        #expect(try pageBytes() == drawn0)
    }
}
