// A prepared draw applied later gives exactly the pixels of the direct call: fills and image
// draws through every transform class (identity, whole-pixel move, scale, rotation), filters,
// opacities, blend modes and clips, onto a busy background.
import TechoGeometry
import Testing

@testable import TechoRaster

private func background(_ w: Int, _ h: Int) -> Pixmap {
    var p = Pixmap(width: w, height: h)
    for y in 0..<h {
        for x in 0..<w {
            let a = UInt8(128 + (x + y) % 128)
            p.setPixel(x, y, (min(a, UInt8((x * 7) & 255)), min(a, UInt8((y * 5) & 255)), min(a, UInt8((x * y) & 255)), a))
        }
    }
    return p
}

private func picture(_ w: Int, _ h: Int) -> Pixmap {
    var p = Pixmap(width: w, height: h)
    p.fill(
        .circle(center: Point(Double(w) / 2, Double(h) / 2), radius: Double(min(w, h)) * 0.45),
        paint: Paint(color: Color(r: 0.8, g: 0.3, b: 0.2, a: 0.9)))
    p.fill(.rect(Rect(x: 2, y: 2, width: Double(w) / 3, height: Double(h) / 2)), paint: Paint(color: Color(r: 0.1, g: 0.5, b: 0.9)))
    return p
}

@Suite struct PreparedDrawTests {
    @Test func preparedImageDrawsMatchDirectDrawsByteForByte() {
        let (w, h) = (97, 83)
        let img = picture(60, 44)
        let clip = Mask(filling: .ellipse(in: Rect(x: 10, y: 5, width: 70, height: 60)), width: w, height: h)
        let transforms: [Transform] = [
            .identity, .translation(7, -3), .translation(12.5, 3.25), .scale(0.3).concatenating(.translation(20, 10)),
            .scale(1.7, 0.8).concatenating(.translation(-5, 9)),
            Transform.rotation(degrees: 23).concatenating(.scale(0.9)).concatenating(.translation(30, 4)),
            Transform.rotation(degrees: -61).concatenating(.scale(0.21)).concatenating(.translation(50, 40)),
        ]
        var checked = 0
        for t in transforms {
            for filter in ImageFilter.allCases {
                for (opacity, mode, mask) in [(1.0, BlendMode.sourceOver, nil as Mask?), (0.55, .multiply, clip), (0.8, .destinationOut, nil)] {
                    var direct = background(w, h)
                    direct.draw(img, transform: t, opacity: opacity, blendMode: mode, filter: filter, clip: mask)
                    var later = background(w, h)
                    later.apply(
                        PreparedDraw(
                            drawing: img, transform: t, opacity: opacity, blendMode: mode, filter: filter, clip: mask,
                            width: w, height: h))
                    #expect(later == direct, "transform \(t), \(filter), opacity \(opacity), \(mode)")
                    if direct != background(w, h) { checked += 1 }
                }
            }
        }
        #expect(checked > 40, "the draws should change the pixels")
    }

    @Test func preparedFillsMatchDirectFillsByteForByte() {
        let (w, h) = (120, 90)
        var path = Path.circle(center: Point(40, 40), radius: 30)
        path.append(.rect(Rect(x: 50, y: 20, width: 60, height: 50)))
        let clip = Mask(filling: .rect(Rect(x: 0, y: 30, width: 90, height: 50)), width: w, height: h)
        for rule in [FillRule.nonZero, .evenOdd] {
            for (paint, mask) in [
                (Paint(color: Color(r: 0.2, g: 0.6, b: 0.3, a: 0.7)), nil as Mask?),
                (Paint(color: .black, blendMode: .destinationOut), clip),
                (Paint(color: Color(r: 1, g: 0.9, b: 0.4), blendMode: .multiply), clip),
            ] {
                let t = Transform.rotation(degrees: 9).concatenating(.translation(3.3, -2.1))
                var direct = background(w, h)
                direct.fill(path, paint: paint, rule: rule, transform: t, clip: mask)
                var later = background(w, h)
                later.apply(PreparedDraw(filling: path, paint: paint, rule: rule, transform: t, clip: mask, width: w, height: h))
                #expect(later == direct)
                #expect(direct != background(w, h))
            }
        }
    }
}
