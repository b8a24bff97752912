import Foundation
import TechoGeometry
import TechoTestSupport
import Testing

@testable import TechoRaster

/// Small journal-like scenes compared with committed PNGs, exactly: the raster core is pure
/// integer and float arithmetic, so any change in output is a change in behaviour.
/// `journal_scene.png` was recorded from techo's own output (`TECHO_RECORD=1` rewrites it, and
/// fails): a change detector, not a reference. That the raster core draws what it should is
/// checked against independent references, cairo's renders of the same scenes
/// (`PrimitiveSceneTests`) and the scalar kernels (`ReferenceKernelTests`).
@Suite struct ReferenceSceneTests {
    static func sticker() -> Pixmap {
        var s = Pixmap(width: 48, height: 48)
        s.fill(.roundedRect(Rect(x: 2, y: 2, width: 44, height: 44), radius: 10), paint: Paint(color: Color(r: 0.95, g: 0.8, b: 0.3)))
        s.fill(.circle(center: Point(24, 24), radius: 12), paint: Paint(color: Color(r: 0.8, g: 0.2, b: 0.3)))
        return s
    }

    static func journalScene() -> Pixmap {
        var page = Pixmap(width: 128, height: 128)
        page.fill(r: 246, g: 240, b: 228, a: 255)
        // Dot paper.
        for y in stride(from: 8.0, to: 128, by: 12) {
            for x in stride(from: 8.0, to: 128, by: 12) {
                page.fill(.circle(center: Point(x, y), radius: 0.9), paint: Paint(color: Color(r8: 203, g8: 191, b8: 174)))
            }
        }
        // A sticker with a soft shadow, rotated.
        let sticker = sticker()
        var shadow = Pixmap(width: 72, height: 72)
        shadow.draw(sticker.tinted(Color(r: 0, g: 0, b: 0, a: 0.35)), transform: .translation(12, 12))
        let t = Transform.translation(-24, -24).concatenating(.rotation(degrees: -12)).concatenating(.translation(44, 46))
        page.draw(
            shadow.blurred(radius: 2.5),
            transform: Transform.translation(-36, -36).concatenating(.rotation(degrees: -12))
                .concatenating(.translation(47, 50)))
        page.draw(sticker, transform: t)
        // Washi tape, multiplied, clipped to a strip.
        let tape = Path.polyline([Point(70, 10), Point(124, 26), Point(119, 42), Point(65, 26)], closed: true)
        page.fill(tape, paint: Paint(color: Color(r: 0.55, g: 0.8, b: 0.9, a: 0.8), blendMode: .multiply))
        // An ink layer: a translucent pencil loop, then an eraser through it.
        var ink = Pixmap(width: 128, height: 128)
        var loop = Path()
        loop.move(to: Point(20, 100)); loop.cubic(to: Point(110, 100), control1: Point(40, 60), control2: Point(130, 140))
        loop.cubic(to: Point(60, 80), control1: Point(90, 60), control2: Point(60, 120))
        ink.stroke(loop, style: StrokeStyle(width: 5), paint: Paint(color: Color(r: 0.88, g: 0.48, b: 0.37, a: 0.7)))
        ink.stroke(
            .polyline([Point(80, 70), Point(95, 125)]), style: StrokeStyle(width: 6),
            paint: Paint(color: .black, blendMode: .destinationOut))
        page.composite(ink, x: 0, y: 0, opacity: 0.9)
        // A photo-like gradient clipped to a circle.
        var photo = Pixmap(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 { photo.setPixel(x, y, (UInt8(x * 4), UInt8(y * 4), 160, 255)) } }
        let clip = Mask(filling: .circle(center: Point(100, 100), radius: 18), width: 128, height: 128)
        page.draw(photo, transform: Transform.scale(0.6).concatenating(.translation(81, 81)), clip: clip)
        return page
    }

    @Test func journalSceneIsUnchangedSinceRecorded() {
        let check = checkReference(
            Self.journalScene(), reference: Fixtures.url("References/raster/journal_scene.png"),
            name: "raster-journal_scene", tolerance: 0)
        #expect(check.passed, Comment(rawValue: check.message))
    }

    @Test func comparisonCountsPixelsAndLeavesEvidence() throws {
        var a = Pixmap(width: 8, height: 8)
        a.fill(r: 10, g: 10, b: 10, a: 255)
        var b = a
        b.setPixel(1, 1, (30, 10, 10, 255))
        b.setPixel(2, 2, (11, 10, 10, 255))
        let d = compareImages(b, a, tolerance: 1)
        #expect(d.differingPixels == 1 && d.maxChannelDelta == 20 && d.pixelCount == 64)
        #expect(compareImages(a, a).psnr.isInfinite)
        // Straight space: a faint translucent pixel differs by a lot once un-premultiplied.
        var c = Pixmap(width: 1, height: 1), e = Pixmap(width: 1, height: 1)
        c.setPixel(0, 0, (1, 0, 0, 2)); e.setPixel(0, 0, (0, 0, 0, 2))
        #expect(compareImages(c, e).maxChannelDelta == 1)
        #expect(compareImages(c, e, space: .straight).maxChannelDelta == 128)
        // A failed reference check names a folder holding actual, expected and diff PNGs.
        let dir = Fixtures.artifactsDirectory("support-selftest")
        let ref = dir.appendingPathComponent("ref.png")
        let rec = checkReference(a, reference: ref, name: "support-selftest", record: true)
        #expect(!rec.passed && rec.message.contains("recorded"))
        #expect(checkReference(a, reference: ref, name: "support-selftest", record: false).passed)
        let fail = checkReference(b, reference: ref, name: "support-selftest", tolerance: 0, record: false)
        #expect(!fail.passed)
        #expect(fail.message.contains(Fixtures.artifactsDirectory("support-selftest").path))
        for f in ["actual.png", "expected.png", "diff.png"] {
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(f).path), "\(f)")
        }
        let back = try loadImage(dir.appendingPathComponent("actual.png"))
        #expect(back == b)
        // The seeded generator is deterministic.
        var r1 = SplitMix64(seed: 1), r2 = SplitMix64(seed: 1)
        #expect((0..<5).map { _ in r1.next() } == (0..<5).map { _ in r2.next() })
        #expect(SplitMix64(seed: 0).state == 0)
    }

    @Test func tintAndAlphaMask() {
        var p = Pixmap(width: 2, height: 1)
        p.setPixel(0, 0, (200, 100, 0, 255)); p.setPixel(1, 0, (50, 0, 0, 128))
        let t = p.tinted(Color(r: 0, g: 0, b: 1, a: 0.5))
        #expect(t.pixel(0, 0) == (0, 0, 128, 128))
        #expect(t.pixel(1, 0) == (0, 0, 64, 64))
        let m = Mask(alphaOf: p, x: 3, y: 4)
        #expect(m.coverage(3, 4) == 255 && m.coverage(4, 4) == 128 && m.coverage(0, 0) == 0)
    }
}
