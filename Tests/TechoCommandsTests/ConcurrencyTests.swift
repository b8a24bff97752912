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
}
