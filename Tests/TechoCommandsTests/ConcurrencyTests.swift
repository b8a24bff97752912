// Many processes editing one journal at once: the journal's lock serialises them, so no update
// is lost, and a reader never sees a page half-written.
import Foundation
import Testing

@Suite struct ConcurrencyTests {
    @Test func parallelGesturesLoseNoUpdateAndReadersNeverSeeATornPage() throws {
        let ws = try Workspace()
        try ws.png("s.png", 10, 10, rgba: (0, 0, 0, 255))
        #expect(try ws.run("init", "j.techo", "--size", "400x400").code == 0)
        #expect(try ws.run("add", "image", "j.techo", "p1", "s.png", "--at", "20,30").code == 0)
        let writers = 8, each = 10
        final class Box: @unchecked Sendable {
            let lock = NSLock()
            var failures: [String] = []
            var reads = 0
            var done = false
            func fail(_ s: String) { lock.lock(); failures.append(s); lock.unlock() }
        }
        let box = Box()
        let readerDone = DispatchSemaphore(value: 0)
        Thread {
            // Keep reading until the writers are done: every read must succeed and decode.
            while true {
                box.lock.lock(); let stop = box.done; box.lock.unlock()
                if stop { break }
                do {
                    let r = try ws.run("show", "j.techo", "p1", "--json")
                    if r.code != 0 { box.fail("show exit \(r.code): \(r.err)") }
                    let obj = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
                    if (obj?["elements"] as? [Any])?.count != 1 { box.fail("torn read: \(r.out.prefix(200))") }
                    box.lock.lock(); box.reads += 1; box.lock.unlock()
                } catch { box.fail("read: \(error)") }
            }
            readerDone.signal()
        }.start()
        DispatchQueue.concurrentPerform(iterations: writers) { _ in
            for _ in 0..<each {
                do {
                    let r = try ws.run("gesture", "j.techo", "p1", "image-1", "--pan", "1,0")
                    if r.code != 0 { box.fail("gesture exit \(r.code): \(r.err)") }
                } catch { box.fail("gesture: \(error)") }
            }
        }
        box.lock.lock(); box.done = true; box.lock.unlock()
        readerDone.wait()
        #expect(box.failures.isEmpty, "\(box.failures.prefix(5))")
        #expect(box.reads > 0)
        let show = try ws.run("show", "j.techo", "p1", "image-1", "--json")
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(show.out.utf8)) as? [String: Any], "\(show.out)")
        let at = try #require(obj["at"] as? [Double], "\(obj)")
        #expect(at == [Double(20 + writers * each), 30])
        let history = try ws.run("history", "j.techo").out.split(separator: "\n")
        #expect(history.count == 1 + writers * each)
        #expect(try ws.run("check", "j.techo").code == 0)
    }

    /// Regression (issue 15): assets were written outside the journal's lock, and another
    /// process's clean-up of stray temp files (under the lock) deleted one in flight, so an add
    /// failed with "cannot rename into place". Four processes add the same sticker and their own
    /// stickers while a fifth undoes and redoes; every add must succeed and the journal check.
    @Test func concurrentImportsOfTheSameAndDifferentStickersAllSucceed() throws {
        let ws = try Workspace()
        let writers = 4, each = 10
        try ws.png("same.png", 8, 8, rgba: (0, 0, 0, 255))
        for w in 0..<writers {
            for i in 0..<each { try ws.png("own-\(w)-\(i).png", 8, 8, rgba: (UInt8(w * 50), UInt8(i * 20), 100, 255)) }
        }
        #expect(try ws.run("init", "j.techo", "--size", "400x400").code == 0)
        final class Box: @unchecked Sendable {
            let lock = NSLock()
            var failures: [String] = []
            var done = false
            var moves = 0
            func fail(_ s: String) { lock.lock(); failures.append(s); lock.unlock() }
        }
        let box = Box()
        let historian = DispatchSemaphore(value: 0)
        Thread {
            while true {
                box.lock.lock(); let stop = box.done; box.lock.unlock()
                if stop { break }
                for verb in ["undo", "redo"] {
                    do {
                        let r = try ws.run(verb, "j.techo")
                        // 1 is "nothing to undo/redo", which a race with the writers may give.
                        if r.code != 0 && !(r.code == 1 && r.err.contains("nothing to")) { box.fail("\(verb) exit \(r.code): \(r.err)") }
                        box.lock.lock(); box.moves += 1; box.lock.unlock()
                    } catch { box.fail("\(verb): \(error)") }
                }
            }
            historian.signal()
        }.start()
        DispatchQueue.concurrentPerform(iterations: writers) { w in
            for i in 0..<each {
                for file in ["same.png", "own-\(w)-\(i).png"] {
                    do {
                        let r = try ws.run("add", "image", "j.techo", "p1", file, "--at", "\(10 + w * 20),\(10 + i * 20)")
                        if r.code != 0 { box.fail("add \(file) exit \(r.code): \(r.err)") }
                    } catch { box.fail("add \(file): \(error)") }
                }
            }
        }
        box.lock.lock(); box.done = true; box.lock.unlock()
        historian.wait()
        #expect(box.failures.isEmpty, "\(box.failures.count) failures: \(box.failures.prefix(3))")
        #expect(box.moves > 0)
        let check = try ws.run("check", "j.techo")
        #expect(check.code == 0, "\(check.out) \(check.err)")
        // No temp file is left in the bundle.
        let assets = try FileManager.default.contentsOfDirectory(atPath: ws.url("j.techo/assets").path)
        #expect(assets.allSatisfy { !$0.hasPrefix(".") }, "\(assets)")
    }
}
