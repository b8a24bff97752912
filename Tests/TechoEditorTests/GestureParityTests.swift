// The live gesture's maths on its own, in the page's own modules, against techo's model. A table
// of input streams goes through input.js (GestureRecognizer, TapDetector) and live-gesture.js
// (GestureTrack, which composes each event with matrix.js), imported in the served editor page
// with `import()` through Runtime.evaluate; the replay the page would send then goes through
// TechoModel's GestureReplay onto the same Placement. Two comparisons:
//
// (a) the live matrix, and the matrix the overlay draws the sprite under, against the model's
//     placement after the same replay, within 1e-9 relative;
// (b) every incremental value the recogniser reported against the contract's definition,
//     computed here another way (the ratio of finger distances, the signed angle between the
//     finger vectors, their midpoint, its move), and every finger still over the element point
//     it went down on after each move.

import Foundation
import TechoModel
import Testing

/// One input of a stream: pointers in page pixels; taps in client pixels and milliseconds.
enum StreamInput {
    case down(Int, Double, Double)
    case move(Int, Double, Double)
    case up(Int)
    /// A press and a release at one place, at `down` and `up` ms.
    case tap(Int, Double, Double, down: Double, up: Double)
    /// A §3 event (JSON) applied as it is, as the flip buttons' effect.
    case event(String)

    var json: String {
        switch self {
        case .down(let id, let x, let y): return "[\"down\",\(id),\(x),\(y)]"
        case .move(let id, let x, let y): return "[\"move\",\(id),\(x),\(y)]"
        case .up(let id): return "[\"up\",\(id)]"
        case .tap(let id, let x, let y, let t0, let t1): return "[\"tap\",\(id),\(x),\(y),\(t0),\(t1)]"
        case .event(let e): return "[\"event\",\(e)]"
        }
    }
}

/// A row of the parity table.
struct ParityCase: CustomStringConvertible {
    let name: String
    let start: Placement
    let inputs: [StreamInput]
    /// The gestures the replay must hold, for streams the recogniser is not part of (taps, flips).
    var replay: [String]? = nil
    var description: String { name }
}

/// What the page did with one stream.
struct PageResult {
    let matrix: [Double]
    let sprite: [Double]
    /// The events the page would POST at the gesture's end, each as the page serialised it.
    let replay: [String]
    /// Per input, the events it produced.
    let reported: [[String]]
}

@Suite(.serialized) struct GestureParityTests {
    static let tolerance = 1e-9

    // MARK: the table

    static func twoFingers(
        steps: Int, mid: (Double) -> Point, half: (Double) -> Double, angle: (Double) -> Double
    ) -> [StreamInput] {
        func fingers(_ t: Double) -> (Point, Point) {
            let m = mid(t), r = half(t), a = angle(t)
            return (Point(m.x - r * cos(a), m.y - r * sin(a)), Point(m.x + r * cos(a), m.y + r * sin(a)))
        }
        let (a0, b0) = fingers(0)
        var out: [StreamInput] = [.down(1, a0.x, a0.y), .down(2, b0.x, b0.y)]
        // A browser reports each finger's move as its own pointermove, one after the other.
        for i in 1...steps {
            let (a, b) = fingers(Double(i) / Double(steps))
            out += [.move(1, a.x, a.y), .move(2, b.x, b.y)]
        }
        return out + [.up(1), .up(2)]
    }

    static func degrees(_ d: Double) -> Double { d * .pi / 180 }

    static func cases() throws -> [ParityCase] {
        let sticker = try Placement(center: Point(200, 250), scale: 1.5)
        var rows: [ParityCase] = []
        // One pointer: pans only.
        var pan: [StreamInput] = [.down(1, 205, 262)]
        for i in 1...12 { pan.append(.move(1, 205 + 130.5 * Double(i) / 12, 262 + 109.25 * Double(i) / 12)) }
        rows.append(ParityCase(name: "pan", start: sticker, inputs: pan + [.up(1)]))
        rows.append(
            ParityCase(
                name: "pinch about a focal point off the centre", start: sticker,
                inputs: twoFingers(steps: 12, mid: { _ in Point(262, 318) }, half: { 40 + 30 * $0 }, angle: { _ in 0.3 })))
        rows.append(
            ParityCase(
                name: "rotation about a focal point", start: try Placement(center: Point(200, 250), scale: 1.5, rotation: 10),
                inputs: twoFingers(steps: 16, mid: { _ in Point(180, 290) }, half: { _ in 50 }, angle: { degrees(100 * $0) })))
        // The line between the fingers passes the horizontal: the angle at which the second
        // finger sees the first passes ±180°, where atan2 wraps.
        rows.append(
            ParityCase(
                name: "pinch, rotation and pan together", start: try Placement(center: Point(300, 400)),
                inputs: twoFingers(
                    steps: 24, mid: { Point(300 + 60 * $0, 400 - 70 * $0) }, half: { 40 + 24 * $0 }, angle: { degrees(-10 + 45 * $0) })))
        rows.append(
            ParityCase(
                name: "double tap", start: sticker, inputs: [.tap(1, 500, 400, down: 0, up: 70), .tap(1, 504, 402, down: 250, up: 320)],
                replay: ["doubleTap"]))
        rows.append(
            ParityCase(
                name: "two slow taps are no double tap", start: sticker,
                inputs: [.tap(1, 500, 400, down: 0, up: 70), .tap(1, 500, 400, down: 600, up: 670)], replay: []))
        let turned = try Placement(center: Point(200, 250), scale: 0.8, rotation: 30)
        rows.append(ParityCase(name: "flip h", start: turned, inputs: [.event("{\"gesture\":\"flip\",\"axis\":\"h\"}")], replay: ["flip"]))
        rows.append(
            ParityCase(
                name: "flip v, then a pinch and turn", start: turned,
                inputs: [.event("{\"gesture\":\"flip\",\"axis\":\"v\"}")]
                    + twoFingers(steps: 10, mid: { _ in Point(230, 260) }, half: { 30 + 15 * $0 }, angle: { degrees(-20 - 60 * $0) })))
        // Long streams of small increments: the page multiplies 9,000 deltas into one matrix, the
        // model keeps centre, scale and angle; they must not drift apart.
        var rng = SplitMix64(seed: 0x7465_6368_6f)
        let jitter = (0...1500).map { _ in (rng.uniform(-0.2...0.2), rng.uniform(-0.2...0.2)) }
        rows.append(
            ParityCase(
                name: "1,500 small two-finger steps", start: sticker,
                inputs: twoFingers(
                    steps: 1500,
                    mid: { t in
                        let j = jitter[Int((t * 1500).rounded())]
                        return Point(220 + 40 * t + j.0, 260 - 30 * t + j.1)
                    },
                    half: { 45 + 20 * sin(9 * $0) }, angle: { degrees(25 * sin(7 * $0) - 10 * $0) })))
        var crawl: [StreamInput] = [.down(7, 150, 150)]
        for i in 1...5000 { crawl.append(.move(7, 150 + 0.01 * Double(i), 150 - 0.007 * Double(i))) }
        rows.append(ParityCase(name: "5,000 pan steps of 0.01 px", start: sticker, inputs: crawl + [.up(7)]))
        // From an element already turned, scaled and mirrored.
        let mirrored = try Placement(center: Point(380, 520), scale: 0.6, rotation: -135, flipH: true)
        rows.append(
            ParityCase(
                name: "from turned, scaled, mirrored (h): pinch, turn, pan, double tap", start: mirrored,
                inputs: twoFingers(steps: 20, mid: { Point(390 - 50 * $0, 500 + 20 * $0) }, half: { 35 - 10 * $0 }, angle: { degrees(60 + 80 * $0) })
                    + [.tap(3, 700, 500, down: 5000, up: 5060), .tap(3, 701, 499, down: 5200, up: 5260)]))
        // A finger lifts mid-gesture; the other pans on, then a second one comes back.
        var lift = twoFingers(steps: 8, mid: { _ in Point(100, 600) }, half: { 50 + 10 * $0 }, angle: { degrees(200 * $0) })
        lift.removeLast(2)
        lift += [.up(2), .move(1, 60, 640), .move(1, 52, 655), .down(5, 120, 700), .move(5, 140, 690), .move(1, 40, 650), .up(1), .up(5)]
        rows.append(
            ParityCase(
                name: "from turned, scaled, mirrored (v): a finger lifts, the other pans on",
                start: try Placement(center: Point(110, 610), scale: 2.2, rotation: 120, flipV: true), inputs: lift))
        return rows
    }

    // MARK: running a stream in the page

    /// Feeds a stream through the page's own modules, as the select tool does: each pointer move
    /// to the recogniser and what it reports to the live track; a double tap as `doubleTap`.
    static let harness = """
        (async (c) => {
          const load = (f) => import(new URL(f, location.href).href);
          const [input, live] = await Promise.all([load('input.js'), load('live-gesture.js')]);
          const track = new live.GestureTrack(c.start, c.rotate);
          const recognizer = new input.GestureRecognizer();
          const taps = new input.TapDetector();
          const reported = [];
          for (const a of c.inputs) {
            let events = [];
            if (a[0] === 'down') recognizer.down(a[1], a[2], a[3]);
            else if (a[0] === 'move') events = recognizer.move(a[1], a[2], a[3]);
            else if (a[0] === 'up') recognizer.up(a[1]);
            else if (a[0] === 'tap') {
              taps.down(a[1], a[2], a[3], a[4]);
              if (taps.up(a[1], a[2], a[3], a[5], true)) events = [{ gesture: 'doubleTap' }];
            } else if (a[0] === 'event') events = [a[1]];
            if (events.length) track.apply(events);
            reported.push(events.map((e) => JSON.stringify(e)));
          }
          return JSON.stringify({ m: track.m, sprite: track.spriteMatrix(), replay: track.events.map((e) => JSON.stringify(e)), reported });
        })
        """

    static func run(_ c: ParityCase, in tab: BrowserTab) throws -> PageResult {
        let t = c.start.transform
        let start = [t.a, t.b, t.c, t.d, t.tx, t.ty].map { "\($0)" }.joined(separator: ",")
        let spec = "{\"start\":[\(start)],\"rotate\":\(c.start.rotation),\"inputs\":[\(c.inputs.map(\.json).joined(separator: ","))]}"
        guard let text = try tab.evaluate("\(harness)(\(spec))") as? String,
            let o = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let m = o["m"] as? [NSNumber], let sprite = o["sprite"] as? [NSNumber],
            let replay = o["replay"] as? [String], let reported = o["reported"] as? [[String]]
        else { throw DevToolsError(description: "\(c.name): the page gave no result") }
        return PageResult(matrix: m.map(\.doubleValue), sprite: sprite.map(\.doubleValue), replay: replay, reported: reported)
    }

    // MARK: measures

    /// The larger of the linear part's error relative to the expected scale and the translation's
    /// error relative to the expected translation (at least 1 px).
    static func relativeError(_ m: [Double], _ t: Transform) -> Double {
        let scale = sqrt(abs(t.determinant))
        let linear = zip(m[0..<4], [t.a, t.b, t.c, t.d]).map { abs($0 - $1) }.max() ?? .infinity
        let move = max(abs(m[4] - t.tx), abs(m[5] - t.ty)) / max(1, abs(t.tx), abs(t.ty))
        return max(linear / scale, move)
    }

    static func distance(_ p: Point, _ q: Point) -> Double { hypot(p.x - q.x, p.y - q.y) }

    static func event(_ json: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
    }

    static func point(_ v: Any?) -> Point? {
        guard let a = v as? [NSNumber], a.count == 2 else { return nil }
        return Point(a[0].doubleValue, a[1].doubleValue)
    }

    // MARK: (a) the page's matrices against the model

    @Test func liveMatrixMatchesTheModel() throws {
        let f = try EditorFixture()
        var worst = 0.0
        for c in try GestureParityTests.cases() {
            let r = try GestureParityTests.run(c, in: f.tab)
            if let names = c.replay {
                #expect(r.replay.map { GestureParityTests.event($0)["gesture"] as? String ?? "?" } == names, "\(c.name): replay \(r.replay)")
            } else {
                #expect(!r.replay.isEmpty, "\(c.name): the stream made no events")
            }
            let end = try GestureReplay.replay(r.replay.joined(separator: "\n"), onto: c.start)
            let matrixError = GestureParityTests.relativeError(r.matrix, end.transform)
            // The sprite is the element scaled and mirrored as it was when the gesture began.
            let s0 = c.start.scale
            let sprite = Transform.scale((c.start.flipH ? -1 : 1) / s0, (c.start.flipV ? -1 : 1) / s0).concatenating(end.transform)
            let spriteError = GestureParityTests.relativeError(r.sprite, sprite)
            print(
                "parity (a) \(c.name): \(r.replay.count) events, matrix \(String(format: "%.1e", matrixError)), sprite \(String(format: "%.1e", spriteError))"
            )
            #expect(matrixError <= GestureParityTests.tolerance, "\(c.name): page \(r.matrix) vs model \(end.transform)")
            #expect(spriteError <= GestureParityTests.tolerance, "\(c.name): sprite \(r.sprite) vs model \(sprite)")
            worst = max(worst, matrixError, spriteError)
        }
        print("parity (a) worst relative error: \(String(format: "%.1e", worst))")
    }

    // MARK: (b) the recogniser's values against the contract

    /// The largest error of one kind in a stream, and where it first went over the tolerance
    /// (one issue per case and kind, not one per event).
    struct Worst {
        var error = 0.0
        var first: String?

        mutating func note(_ err: Double, _ what: @autoclosure () -> String) {
            let e = err.isNaN ? .infinity : err
            error = max(error, e)
            if e > GestureParityTests.tolerance && first == nil { first = what() }
        }
    }

    @Test func recogniserReportsWhatTheContractSays() throws {
        let f = try EditorFixture()
        var worstValue = 0.0, worstFinger = 0.0
        for c in try GestureParityTests.cases() {
            let r = try GestureParityTests.run(c, in: f.tab)
            var fingers: [(id: Int, at: Point)] = []  // down, in the order they went down
            var under: [Int: Point] = [:]  // element point under each of the first two fingers
            var placement = c.start
            var began = Set<String>()
            var form = Worst(), values = Worst(), focals = Worst(), stays = Worst()
            for (i, input) in c.inputs.enumerated() {
                let events = r.reported[i]
                if !events.isEmpty { placement = try GestureReplay.replay(events.joined(separator: "\n"), onto: placement) }
                let inverse = try #require(placement.transform.inverted())
                switch input {
                case .down, .up:
                    if case .down(let id, let x, let y) = input { fingers.append((id, Point(x, y))) }
                    if case .up(let id) = input {
                        fingers.removeAll { $0.id == id }
                        under[id] = nil
                    }
                    form.note(events.isEmpty ? 0 : .infinity, "#\(i): a press or lift reported \(events)")
                case .move(let id, let x, let y):
                    guard let k = fingers.firstIndex(where: { $0.id == id }) else { break }
                    let old = fingers[k].at, new = Point(x, y)
                    fingers[k].at = new
                    // What the contract says this move reports.
                    var pan = Point(new.x - old.x, new.y - old.y), scale = 1.0, rotation = 0.0
                    var focal: Point?
                    if k >= 2 {
                        pan = .zero
                    } else if fingers.count >= 2 {
                        let other = fingers[1 - k].at
                        let v0 = Point(other.x - old.x, other.y - old.y), v1 = Point(other.x - new.x, other.y - new.y)
                        pan = Point((new.x - old.x) / 2, (new.y - old.y) / 2)
                        scale = hypot(v1.x, v1.y) / hypot(v0.x, v0.y)
                        rotation = atan2(v0.x * v1.y - v0.y * v1.x, v0.x * v1.x + v0.y * v1.y)
                        focal = Point((new.x + other.x) / 2, (new.y + other.y) / 2)
                    }
                    // What the page reported: at most one of each, in the order pan, pinch,
                    // rotation, each "began" the first time and "changed" after; one pointer only pans.
                    let got = events.map(GestureParityTests.event)
                    let kinds = got.map { $0["gesture"] as? String ?? "?" }
                    let ranks = kinds.map { ["pan", "pinch", "rotation"].firstIndex(of: $0) ?? -1 }
                    let states = got.map { $0["state"] as? String ?? "none" }
                    var expectedStates: [String] = []
                    for kind in kinds {
                        expectedStates.append(began.contains(kind) ? "changed" : "began")
                        began.insert(kind)
                    }
                    let wellFormed =
                        ranks.allSatisfy { $0 >= 0 } && ranks == Array(Set(ranks)).sorted() && (focal != nil || kinds.allSatisfy { $0 == "pan" })
                        && states == expectedStates
                    form.note(wellFormed ? 0 : .infinity, "#\(i): reported \(kinds) \(states)")
                    var gotPan = Point.zero, gotScale = 1.0, gotRotation = 0.0
                    for e in got {
                        let kind = e["gesture"] as? String ?? "?"
                        switch kind {
                        case "pan": gotPan = GestureParityTests.point(e["translation"]) ?? Point(.nan, .nan)
                        case "pinch": gotScale = (e["scale"] as? NSNumber)?.doubleValue ?? .nan
                        default: gotRotation = (e["rotation"] as? NSNumber)?.doubleValue ?? .nan
                        }
                        if kind != "pan" {
                            // The focal point: the fingers' midpoint in page pixels.
                            let at = GestureParityTests.point(e["location"])
                            let err = at.map { GestureParityTests.distance($0, focal ?? .zero) / max(1, hypot(focal?.x ?? 0, focal?.y ?? 0)) } ?? .infinity
                            focals.note(err, "#\(i): \(kind) location \(at.map { "\($0)" } ?? "missing"), the midpoint is \(focal.map { "\($0)" } ?? "none")")
                        }
                    }
                    values.note(GestureParityTests.distance(gotPan, pan) / max(1, hypot(pan.x, pan.y)), "#\(i): pan \(gotPan), the contract's \(pan)")
                    values.note(abs(gotScale - scale) / scale, "#\(i): scale \(gotScale), the contract's \(scale)")
                    values.note(abs(gotRotation - rotation), "#\(i): rotation \(gotRotation), the contract's \(rotation)")
                case .tap, .event:
                    break
                }
                // The element stays under the fingers: the point each of the first two went down
                // on (or became one of the two on) is still under it.
                for finger in fingers.prefix(2) {
                    guard let e = under[finger.id] else {
                        under[finger.id] = inverse.apply(finger.at)
                        continue
                    }
                    let now = placement.transform.apply(e)
                    stays.note(
                        GestureParityTests.distance(now, finger.at) / max(1, hypot(finger.at.x, finger.at.y)),
                        "#\(i): finger \(finger.id) at \(finger.at) is over \(now)")
                }
            }
            print(
                "parity (b) \(c.name): recogniser values \(String(format: "%.1e", values.error)), focal points \(String(format: "%.1e", focals.error)), under the fingers \(String(format: "%.1e", stays.error))"
            )
            #expect(form.first == nil, "\(c.name): \(form.first ?? "")")
            #expect(values.first == nil, "\(c.name): \(values.first ?? "")")
            #expect(focals.first == nil, "\(c.name): \(focals.first ?? "")")
            #expect(stays.first == nil, "\(c.name): \(stays.first ?? "")")
            worstValue = max(worstValue, values.error, focals.error)
            worstFinger = max(worstFinger, stays.error)
        }
        print(
            "parity (b) worst: recogniser values and focal points \(String(format: "%.1e", worstValue)), under the fingers \(String(format: "%.1e", worstFinger))"
        )
    }
}
