// The pure parts of the selection, in the page's own modules (imported in the served editor page
// with `import()`, as GestureParityTests does): snap.js (where a moving box snaps, and to which
// guide), handles.js (where the handles are, which one a point is on, and the §3 event a handle
// drag stands for) and drawn-pixels.js with hit-test.js (a sprite's alpha under a page point, and
// the pick that passes through what is not drawn), against values worked out here another way.

import Foundation
import TechoModel
import Testing

@Suite(.serialized) struct SnapAndHandlesTests {
    static func load(_ f: EditorFixture, _ body: String) throws -> [String: Any] {
        let js = """
            (async () => {
              const load = (f) => import(new URL(f, location.href).href);
              const [snap, handles, pixels, hit] = await Promise.all([load('snap.js'), load('handles.js'), load('drawn-pixels.js'), load('hit-test.js')]);
              return JSON.stringify(await (async () => { \(body) })());
            })()
            """
        guard let text = try f.tab.evaluate(js) as? String,
            let o = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        else { throw DevToolsError(description: "the page gave no result") }
        return o
    }

    @Test func aBoxSnapsToTheNearestLineOfEachAxisWithinTheThreshold() throws {
        let f = try EditorFixture()
        // A 600x800 page at 300 dpi: centre lines 300 and 400, margins 10 mm = 118.11 px in.
        let o = try Self.load(
            f,
            """
            const lines = snap.snapLines({ width: 600, height: 800, dpi: 300 }, [[350, 500, 450, 560]]);
            return {
              lines,
              // centre 297 → 300 (x); top 396 → 400 (y).
              centre: snap.snapBox([247, 396, 347, 446], lines, 6),
              // nothing within 6 px.
              none: snap.snapBox([150, 200, 250, 300], lines, 6),
              // left edge 122 → margin 118.11, the nearer of two candidates on x (right edge 455 → 450 is 5 away).
              nearer: snap.snapBox([122, 200, 455, 300], lines, 6),
              // the other element's bottom (560) for our top (557), its centre x (400) for our right edge (402), nearer than the page centre for our left (303).
              other: snap.snapBox([303, 557, 402, 600], lines, 6),
              // the same box with a threshold of 1 px: no snap.
              tight: snap.snapBox([247, 396, 347, 446], lines, 1),
              box: snap.boxOf([100, 50], [0, 1, -1, 0, 300, 400]),
            };
            """)
        let lines = try #require(o["lines"] as? [String: [Double]])
        let margin = 10 / 25.4 * 300
        #expect(lines["x"]!.prefix(3).map { ($0 * 1000).rounded() } == [300, margin, 600 - margin].map { ($0 * 1000).rounded() })
        func snapped(_ key: String) -> (Double, Double, [String]) {
            let s = o[key] as? [String: Any] ?? [:]
            let guides = (s["guides"] as? [[String: Any]] ?? []).map {
                "\($0["axis"] ?? "?")\(number($0["at"]).map { String(Int(($0 * 100).rounded())) } ?? "?")"
            }
            return (number(s["dx"]) ?? .nan, number(s["dy"]) ?? .nan, guides)
        }
        let centre = snapped("centre")
        #expect(centre.0 == 3 && centre.1 == 4 && centre.2 == ["x30000", "y40000"], "\(centre)")
        let none = snapped("none")
        #expect(none.0 == 0 && none.1 == 0 && none.2.isEmpty, "\(none)")
        let nearer = snapped("nearer")
        #expect(abs(nearer.0 - (margin - 122)) < 1e-9 && nearer.1 == 0, "\(nearer)")
        let other = snapped("other")
        #expect(other.0 == -2 && other.1 == 3 && other.2 == ["x40000", "y56000"], "\(other)")
        let tight = snapped("tight")
        #expect(tight.0 == 0 && tight.1 == 0, "\(tight)")
        // A box turned a quarter: 50 wide, 100 high about (300, 400).
        #expect((o["box"] as? [NSNumber] ?? []).map(\.doubleValue) == [275, 350, 325, 450])
    }

    @Test func handlesSitOnTheDrawnCornersAndDragsAreTheGesturesTheyStandFor() throws {
        let f = try EditorFixture()
        let o = try Self.load(
            f,
            """
            // 100x80 at scale 1.5, turned 90° clockwise, about (200, 250); 2 screen px per page px.
            const m = [0, 1.5, -1.5, 0, 200, 250];
            const pts = handles.handlePoints([100, 80], m, 2);
            return {
              pts,
              onSe: handles.handleAt(pts, pts.se[0] + 10, pts.se[1] - 10, 2),
              outside: handles.handleAt(pts, pts.se[0] + 12, pts.se[1], 2),
              insideFar: handles.handleAt(pts, pts.se[0] + 8, pts.se[1], 2, true),
              insideNear: handles.handleAt(pts, pts.se[0] + 4, pts.se[1], 2, true),
              pinch: handles.cornerPinch('se', [100, 80], [1.5, 0, 0, 1.5, 200, 250], [275, 310], [350, 370]),
              centred: handles.cornerPinch('se', [100, 80], [1.5, 0, 0, 1.5, 200, 250], [275, 310], [350, 370], { fromCentre: true }),
              through: handles.cornerPinch('se', [100, 80], [1.5, 0, 0, 1.5, 200, 250], [275, 310], [100, 150]),
              turn: handles.knobRotation([1, 0, 0, 1, 200, 250], [200, 150], [300, 250]),
              snapped: handles.knobRotation([1, 0, 0, 1, 200, 250], [200, 150], [270, 200], { snap: true }),
              angle: handles.drawnAngle(m),
            };
            """)
        let pts = o["pts"] as? [String: [NSNumber]] ?? [:]
        func p(_ n: String) -> [Double] { (pts[n] ?? []).map { ($0.doubleValue * 1e6).rounded() / 1e6 } }
        // Turned 90° clockwise: the own top-left (-50, -40)·1.5 goes to (200 + 60, 250 - 75).
        #expect(p("nw") == [260, 175] && p("ne") == [260, 325] && p("se") == [140, 325] && p("sw") == [140, 175], "\(pts)")
        // The knob: 32 screen px = 16 page px beyond the top edge's middle, along the turned "up" (+x).
        #expect(p("rotate") == [276, 250], "\(pts)")
        #expect(o["onSe"] as? String == "se")
        #expect(o["outside"] is NSNull || o["outside"] == nil, "12 page px = 24 screen px off is outside the 44 px target")
        #expect(o["insideFar"] is NSNull || o["insideFar"] == nil, "inside the sticker only the dot takes a press")
        #expect(o["insideNear"] as? String == "se")
        #expect(number(o["angle"]).map { abs($0 - 90) < 1e-9 } == true, "\(String(describing: o["angle"]))")
        func event(_ key: String) -> [String: Any] { o[key] as? [String: Any] ?? [:] }
        // Corner se from (275, 310) to (350, 370), about the nw corner (125, 190): the projection
        // of (225, 180) on (150, 120) is 1.5.
        let pinch = event("pinch")
        #expect(pinch["gesture"] as? String == "pinch" && number(pinch["scale"]).map { abs($0 - 1.5) < 1e-12 } == true, "\(pinch)")
        #expect((pinch["location"] as? [NSNumber] ?? []).map(\.doubleValue) == [125, 190])
        // About the centre (200, 250): the projection of (150, 120) on (75, 60) is 2.
        let centred = event("centred")
        #expect(number(centred["scale"]).map { abs($0 - 2) < 1e-12 } == true && (centred["location"] as? [NSNumber] ?? []).map(\.doubleValue) == [200, 250])
        // Dragged through the anchor: the smallest scale, never a flip.
        #expect(number(event("through")["scale"]) == 0.02)
        // From straight above the centre to its right: +90°.
        #expect(number(event("turn")["rotation"]).map { abs($0 - .pi / 2) < 1e-12 } == true)
        // To atan2(-50, 70) + 90° ≈ 54.5°, snapped to 60°.
        let snapped = number(event("snapped")["rotation"]) ?? .nan
        let raw = (atan2(-50.0, 70.0) + .pi / 2) * 180 / .pi
        #expect(abs(snapped * 180 / .pi - 60) < 1e-9 && abs(raw - 54.46) < 0.01, "\(snapped * 180 / .pi)° for \(raw)°")
        // The replay a corner drag sends is one event the model applies as techo gesture --pinch --around does.
        var placement = try Placement(center: Point(200, 250), scale: 1.5)
        try placement.apply(.pinch(scale: 1.5, around: Point(125, 190)))
        #expect(abs(placement.scale - 2.25) < 1e-12 && abs(placement.center.x - 237.5) < 1e-9 && abs(placement.center.y - 280) < 1e-9)
    }

    @Test func aPickPassesThroughWhatASpriteDoesNotDraw() throws {
        let f = try EditorFixture()
        let o = try Self.load(
            f,
            """
            // A 4x2 sprite over the element-local rect [-20, -10, 40, 20]: only its right half drawn.
            const mask = { w: 4, h: 2, rect: [-20, -10, 40, 20], alpha: Uint8Array.from([0, 0, 255, 255, 0, 0, 255, 255]) };
            const at = (rotate, x, y) => pixels.alphaAt(mask, 100, 100, rotate, x, y);
            const els = [
              { id: 'under', type: 'image', size: [40, 20], transform: [1, 0, 0, 1, 100, 100] },
              { id: 'over', type: 'image', size: [40, 20], transform: [1, 0, 0, 1, 100, 100] },
            ];
            const covers = (el, x, y) => el.id !== 'over' || at(0, x, y) > 0;
            return {
              right: at(0, 110, 100), left: at(0, 90, 100), outside: at(0, 130, 100),
              // Turned 90° clockwise the drawn half is below the centre.
              below: at(90, 100, 110), above: at(90, 100, 90),
              pickRight: hit.topmostAt(els, 110, 100, covers).id, pickLeft: hit.topmostAt(els, 90, 100, covers).id,
              boxOnly: hit.topmostAt(els, 90, 100).id,
              look: pixels.lookKey({ at: [1, 2], rotate: 30, scale: 2, id: 'a' }) === pixels.lookKey({ id: 'a', scale: 2, at: [5, 6] }),
              lookScale: pixels.lookKey({ scale: 2 }) === pixels.lookKey({ scale: 3 }),
            };
            """)
        #expect(number(o["right"]) == 255 && number(o["left"]) == 0 && number(o["outside"]) == 0, "\(o)")
        #expect(number(o["below"]) == 255 && number(o["above"]) == 0, "\(o)")
        #expect(o["pickRight"] as? String == "over" && o["pickLeft"] as? String == "under", "\(o)")
        #expect(o["boxOnly"] as? String == "over")
        #expect(o["look"] as? Bool == true && o["lookScale"] as? Bool == false, "a move or turn keeps the sprite, a new scale fetches it")
    }
}
