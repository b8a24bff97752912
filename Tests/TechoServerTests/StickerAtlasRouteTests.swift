// The sticker tray's atlas: the list names one picture holding every built-in sticker's
// thumbnail (a tile each, in the list), the tile is the sticker drawn at the tile's size, the
// picture is revalidated by its ETag and cached for good under its versioned URL.
import Foundation
import TechoCodecs
import TechoEditing
import TechoModel
import Testing

@testable import TechoServer

@Suite struct StickerAtlasRouteTests {
    @Test func theListNamesOneAtlasWithATilePerSticker() throws {
        let s = try ServedJournal()
        let list = try json(try s.client.get("/api/stickers"))
        let atlas = try #require(list["atlas"])
        let src = try #require(atlas["src"]?.string)
        #expect(src.hasPrefix("/api/stickers/atlas.png?v="))
        let side = try #require(atlas["tile"]?.number).rounded()
        let columns = Int(try #require(atlas["columns"]?.number))
        #expect(side == 96 && columns == 16)
        let stickers = (list["packs"]?.array ?? []).flatMap { $0["stickers"]?.array ?? [] }
        #expect(stickers.count >= 48)
        let tiles = stickers.compactMap { $0["tile"]?.number.map(Int.init) }
        #expect(tiles.count == stickers.count, "every built-in sticker (SVG) has a tile")
        #expect(Set(tiles) == Set(0..<stickers.count))
        #expect(stickers.allSatisfy { ($0["size"]?.array ?? []).count == 2 })

        let r = try s.client.get(src)
        #expect(r.status == 200)
        #expect(r.header("content-type") == "image/png")
        #expect(r.header("cache-control") == "private, max-age=31536000, immutable")
        let png = try ImageDecoder.decodeStraight(r.body, name: "atlas").pixels
        #expect(png.width == 96 * 16 && png.height == 96 * ((stickers.count + 15) / 16))
        // The daisy's tile is the daisy drawn at 96 x 96.
        let daisy = try #require(stickers.first { $0["sticker"]?.string == "flowers/daisy" })
        let t = try #require(daisy["tile"]?.number.map(Int.init))
        let (bytes, _) = try StickerPacks.bytes(of: try StickerRef(parsing: "flowers/daisy", what: "sticker"))
        let alone = try ImageDecoder.decodeStraight(
            try PNGEncoder.encode(try SVGRendering.render(bytes, name: "daisy", width: 96, height: 96), name: "daisy"), name: "daisy"
        ).pixels
        var worst = 0
        for y in 0..<96 {
            for x in 0..<96 {
                let a = ((t / 16 * 96 + y) * png.width + (t % 16) * 96 + x) * 4, b = (y * 96 + x) * 4
                for c in 0..<4 { worst = max(worst, abs(Int(png.bytes[a + c]) - Int(alone.bytes[b + c]))) }
            }
        }
        #expect(worst <= 1, "the daisy's tile differs from the daisy by \(worst)")
        #expect(alone.bytes.enumerated().contains { $0.offset % 4 == 3 && $0.element > 200 }, "the daisy draws something")

        // Revalidated: a 304 with the ETag; the same picture asked again is not drawn again.
        let etag = try #require(r.header("etag"))
        #expect(try s.client.request("GET", src, headers: ["If-None-Match": etag]).status == 304)
        let plain = try s.client.get("/api/stickers/atlas.png")
        #expect(plain.status == 200 && plain.body == r.body)
        #expect(plain.header("cache-control") == "private, no-cache")
        #expect(try s.client.get("/api/stickers/atlas.jpg").status == 404)
    }
}
