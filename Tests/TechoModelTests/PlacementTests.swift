import Foundation
import Testing

@testable import TechoModel

@Suite struct PlacementTests {
    @Test func derivedTransformMapsElementSpace() throws {
        let p = try Placement(center: Point(100, 50), scale: 2, rotation: 90, flipH: true)
        let t = p.transform
        // (1, 0) in element space: mirrored to (-1, 0), scaled (-2, 0), rotated 90° cw (0, -2), moved.
        #expect(near(t.apply(Point(1, 0)).x, 100) && near(t.apply(Point(1, 0)).y, 48))
        #expect(t.apply(.zero) == Point(100, 50))
        p.checkInvariants()
    }

    @Test func pinchAroundAPointKeepsItFixed() throws {
        var rng = SeededRNG(seed: 11)
        for _ in 0..<500 {
            let p = try Placement(
                center: Point(.random(in: -500...500, using: &rng), .random(in: -500...500, using: &rng)),
                scale: .random(in: 0.1...5, using: &rng), rotation: .random(in: -180...180, using: &rng),
                flipV: Bool.random(using: &rng))
            let q = Point(.random(in: -1000...1000, using: &rng), .random(in: -1000...1000, using: &rng))
            for g in [Gesture.pinch(scale: .random(in: 0.5...2, using: &rng), around: q), .rotate(degrees: .random(in: -90...90, using: &rng), around: q)] {
                let after = try p.applying(g)
                // The element-space point under q stays under q.
                guard let local = p.transform.inverted()?.apply(q) else { Issue.record("singular"); return }
                let moved = after.transform.apply(local)
                #expect(near(moved.x, q.x, 1e-7) && near(moved.y, q.y, 1e-7), "\(g)")
            }
        }
    }

    @Test func gestureSequencesEqualTheProductOfTheirMatrices() throws {
        var rng = SeededRNG(seed: 42)
        for _ in 0..<200 {
            var p = try Placement(center: Point(400, 300), scale: 0.8, rotation: 10)
            var expected = p.transform
            for _ in 0..<20 {
                let g = randomGesture(&rng)
                let before = p
                p = try p.applying(g)
                if case .flip(let axis) = g {
                    expected = (axis == .h ? Transform.scale(-1, 1) : Transform.scale(1, -1)).concatenating(expected)
                } else if let m = g.pageMatrix(center: before.center) {
                    expected = expected.concatenating(m)
                }
                #expect(near(p.transform, expected, 1e-6), "\(g)")
            }
        }
    }

    @Test func flipTwiceIsIdentityAndDoubleTapKeepsScaleAndPosition() throws {
        let p = try Placement(center: Point(10, 20), scale: 1.5, rotation: 33)
        #expect(try p.applying([.flip(.h), .flip(.h)]) == p)
        #expect(try p.applying([.flip(.v), .flip(.v)]) == p)
        let tapped = try p.applying(.doubleTap)
        #expect(tapped.center == p.center && tapped.scale == p.scale && tapped.rotation == 123)
        #expect(try p.applying([.doubleTap, .doubleTap, .doubleTap, .doubleTap]).rotation == 33)
    }

    @Test func tenThousandRandomGesturesStaySimilarities() throws {
        var rng = SeededRNG(seed: 2026)
        var p = try Placement(center: Point(874, 1240))
        var refused = 0
        for _ in 0..<10_000 {
            do { p = try p.applying(randomGesture(&rng)) } catch is GestureError { refused += 1 }
            p.checkInvariants()
        }
        let t = p.transform
        // A similarity: columns orthogonal and of equal length.
        let c1 = Point(t.a, t.b), c2 = Point(t.c, t.d)
        #expect(abs(c1.dot(c2)) <= 1e-9 * c1.lengthSquared)
        #expect(near(c1.length, c2.length, 1e-12) && near(c1.length, p.scale, 1e-12))
        #expect(near(t.maxScale, t.minScale, 1e-9))
        #expect(refused < 10_000)
    }

    @Test(arguments: [
        Gesture.pinch(scale: 0, around: nil), .pinch(scale: .nan, around: nil), .pinch(scale: -2, around: nil),
        .pinch(scale: 1e9, around: nil), .pinch(scale: 1e-9, around: nil), .pan(dx: .infinity, dy: 0), .pan(dx: 2e7, dy: 0),
        .rotate(degrees: .nan, around: nil), .pinch(scale: 2, around: Point(.nan, 0)), .pinch(scale: 1000, around: Point(1e5, 0)),
    ])
    func singularOrOverflowingGesturesAreRefusedUnchanged(g: Gesture) throws {
        var p = try Placement(center: Point(10, 10), scale: 1, rotation: 5)
        let before = p
        #expect(throws: GestureError.self) { try p.apply(g) }
        #expect(p == before)
    }

    @Test func aFailingSequenceChangesNothing() throws {
        let p = try Placement(center: Point(10, 10))
        #expect(throws: GestureError.self) { try p.applying([.pan(dx: 5, dy: 5), .pinch(scale: 0, around: nil)]) }
    }

    @Test func replayAGestureStream() throws {
        let text = """
            {"gesture":"pinch","state":"began","scale":1,"location":[100,100]}
            {"gesture":"pinch","state":"changed","scale":2,"location":[100,100]}

            {"gesture":"rotation","state":"changed","rotation":\(Double.pi / 2)}
            {"gesture":"pan","state":"changed","translation":[3,-1]}
            {"gesture":"pan","state":"cancelled","translation":[300,300]}
            {"gesture":"doubleTap"}
            {"gesture":"flip","axis":"v"}
            """
        let gestures = try GestureReplay.parse(text)
        #expect(gestures.count == 6)
        let p = try Placement(center: Point(0, 0)).applying(gestures)
        // Pinch ×2 about (100,100) moves the centre to (-100,-100); rotation and double-tap turn
        // it about its own centre; then the pan.
        #expect(near(p.center.x, -97) && near(p.center.y, -101))
        #expect(p.scale == 2 && near(p.rotation, 180) && p.flipV)
    }

    @Test func aRefusedReplayEventNamesItsLineAndChangesNothing() throws {
        let text = "{\"gesture\":\"pan\",\"translation\":[5,5]}\n\n{\"gesture\":\"pinch\",\"scale\":1000}\n{\"gesture\":\"pinch\",\"scale\":1000}\n"
        let p = try Placement(center: Point(1, 1))
        do { _ = try GestureReplay.replay(text, onto: p); Issue.record("replayed") } catch let e as GestureReplayError {
            #expect(e.line == 4 && e.message.contains("scale"), "\(e)")
        }
    }

    @Test(arguments: [
        ("{\"gesture\":\"pinch\"}", 2, "scale"), ("not json", 2, "column 1"), ("{\"gesture\":\"wave\"}", 2, "unknown gesture"),
        ("{\"gesture\":\"pan\",\"translation\":[1]}", 2, "expected [x, y]"), ("{\"gesture\":\"pan\",\"translation\":[1,2],\"x\":1}", 2, "unknown field"),
    ])
    func badReplayLinesNameTheLine(line: String, number: Int, message: String) {
        let text = "{\"gesture\":\"doubleTap\"}\n" + line + "\n"
        do { _ = try GestureReplay.parse(text); Issue.record("parsed") } catch let e as GestureReplayError {
            #expect(e.line == number)
            #expect(e.description.contains(message), "\(e)")
        } catch { Issue.record("\(error)") }
    }
}

func randomGesture(_ rng: inout SeededRNG) -> Gesture {
    let around: Point? = Bool.random(using: &rng) ? Point(.random(in: 0...2000, using: &rng), .random(in: 0...2000, using: &rng)) : nil
    switch Int.random(in: 0..<6, using: &rng) {
    case 0: return .pan(dx: .random(in: -50...50, using: &rng), dy: .random(in: -50...50, using: &rng))
    case 1: return .pinch(scale: .random(in: 0.8...1.25, using: &rng), around: around)
    case 2: return .rotate(degrees: .random(in: -45...45, using: &rng), around: around)
    case 3: return .doubleTap
    case 4: return .flip(Bool.random(using: &rng) ? .h : .v)
    default: return .rotate(degrees: .random(in: -2...2, using: &rng), around: nil)
    }
}
