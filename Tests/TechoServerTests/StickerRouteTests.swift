// The sticker tray's routes: the packs listed, a sticker's picture with its ETag (a 304 when the
// browser has it), a sticker added at a point as `techo add sticker` adds it (one history step),
// and bad requests refused with 4xx, changing nothing.
import Foundation
import TechoModel
import TechoTestSupport
import Testing

@testable import TechoServer

@Suite struct StickerRouteTests {
    @Test func thePacksAndAPictureWithItsETag() throws {
        let s = try ServedJournal()
        let list = try s.client.get("/api/stickers")
        #expect(list.status == 200)
        let packs = try #require(try json(list)["packs"]?.array)
        #expect(packs.count >= 4)
        let names = packs.flatMap { p in (p["stickers"]?.array ?? []).compactMap { $0["sticker"]?.string } }
        #expect(names.count >= 48)
        #expect(names.contains("flowers/daisy"))

        let daisy = try s.client.get("/api/stickers/flowers/daisy")
        #expect(daisy.status == 200)
        #expect(daisy.header("content-type") == "image/svg+xml")
        #expect(daisy.text.hasPrefix("<svg"))
        #expect(daisy.header("content-security-policy")?.contains("sandbox") == true)
        let etag = try #require(daisy.header("etag"))
        let again = try s.client.request("GET", "/api/stickers/flowers/daisy", headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        let other = try s.client.request("GET", "/api/stickers/flowers/daisy", headers: ["If-None-Match": "\"0\""])
        #expect(other.status == 200)
        #expect(other.body == daisy.body)

        #expect(try s.client.get("/api/stickers/flowers/nope").status == 404)
        #expect(try s.client.get("/api/stickers/Flowers/daisy").status == 400)
    }

    @Test func aStickerAddedAtAPointIsOneStepLikeTheCLI() throws {
        let s = try ServedJournal()
        let r = try s.client.post("/api/pages/p1/stickers", json: #"{"sticker": "flowers/daisy", "at": [100, 80], "width": 60}"#)
        #expect(r.status == 200, "\(r.text)")
        #expect(try json(r)["id"]?.string == "image-1")
        let e = try #require(try s.page().elements.first)
        #expect(e.placement.center.x == 100 && e.placement.center.y == 80)
        #expect(abs(e.placement.scale - 60.0 / 240) < 1e-12)
        #expect(try JournalStore.open(s.journal).history().last?.description == "add sticker flowers/daisy")

        let bad: [(String, String, Int, String)] = [
            ("p1", #"{"sticker": "daisy"}"#, 400, "expected PACK/NAME"),
            ("p1", #"{"sticker": "flowers/nope"}"#, 404, "pack 'flowers' has no sticker 'nope'; it has: clover"),
            ("p1", #"{"sticker": "nopack/x"}"#, 404, "no sticker pack 'nopack'"),
            ("p1", #"{"sticker": "flowers/daisy", "width": 0}"#, 400, "width"),
            ("p1", #"{"sticker": "flowers/daisy", "at": "middle"}"#, 400, "at"),
            ("p1", #"{"at": [1, 2]}"#, 400, "sticker"),
            ("nope", #"{"sticker": "flowers/daisy"}"#, 404, "no page 'nope'"),
        ]
        for (page, body, status, message) in bad {
            let b = try s.client.post("/api/pages/\(page)/stickers", json: body)
            #expect(b.status == status, "\(body): \(b.status) \(b.text)")
            #expect(try json(b)["error"]?.string?.contains(message) == true, "\(body): \(b.text)")
        }
        #expect(try s.page().elements.count == 1)
        #expect(try s.historyCount() == 1)
    }
}
