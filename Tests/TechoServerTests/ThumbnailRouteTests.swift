// The pages list's thumbnails: a page drawn at the thumbnail's height by the renderer itself (the
// same pixels as a render at that scale), kept by the page's render key so an unchanged page is
// drawn once, revalidated by its ETag (304 without a render), a new thumbnail after an edit,
// and bad requests refused with 4xx.
import Foundation
import TechoCodecs
import TechoModel
import Testing

@testable import TechoServer

@Suite struct ThumbnailRouteTests {
    func image(_ r: RawResponse) throws -> RGBAImage { try ImageDecoder.decodeStraight(r.body, name: "thumbnail").pixels }

    @Test func aThumbnailIsThePageDrawnSmallKeptAndRevalidated() throws {
        // 400x300 page pixels: a 120 px thumbnail is the page at scale 0.4.
        let s = try ServedJournal()
        try s.techo("add", "text", s.journal.path, "p1", "Monday", "--size", "40", "--at", "200,150")
        let r = try s.client.get("/api/pages/p1/thumbnail?h=120")
        #expect(r.status == 200, "\(r.text)")
        #expect(r.header("content-type") == "image/png")
        #expect(r.header("cache-control") == "private, no-cache")
        let thumb = try image(r)
        #expect(thumb.width == 160 && thumb.height == 120)
        // Drawn at that scale by the renderer: the very pixels of the page's render at 0.4.
        let render = try s.client.get("/api/pages/p1/render?scale=0.4")
        #expect(try image(render).bytes == thumb.bytes)
        // The default height is 160 px.
        let standard = try image(try s.client.get("/api/pages/p1/thumbnail"))
        #expect(standard.height == 160 && abs(standard.width - 213) <= 1)

        // The same page asked again: from the cache, never drawn twice; with its ETag, a 304.
        let etag = try #require(r.header("etag"))
        let made = s.server.renderQueueCounts.made
        let again = try s.client.get("/api/pages/p1/thumbnail?h=120")
        #expect(again.status == 200 && again.body == r.body && again.header("etag") == etag)
        let revalidated = try s.client.request("GET", "/api/pages/p1/thumbnail?h=120", headers: ["If-None-Match": etag])
        #expect(revalidated.status == 304)
        #expect(revalidated.body.isEmpty)
        #expect(s.server.renderQueueCounts.made == made, "an unchanged page's thumbnail was drawn again")

        // An edit: a new ETag and the new picture; the old ETag no longer answers 304.
        try s.techo("background", s.journal.path, "p1", "--color", "#335577")
        let edited = try s.client.request("GET", "/api/pages/p1/thumbnail?h=120", headers: ["If-None-Match": etag])
        #expect(edited.status == 200)
        #expect(edited.header("etag") != etag)
        let corner = try image(edited)
        #expect(Array(corner.bytes[0..<3]) == [0x33, 0x55, 0x77])
        // Undone: the first picture's key again, so the first ETag answers 304 once more.
        try s.techo("undo", s.journal.path)
        let undone = try s.client.request("GET", "/api/pages/p1/thumbnail?h=120", headers: ["If-None-Match": etag])
        #expect(undone.status == 304)
    }

    @Test func badThumbnailRequestsAreRefusedByName() throws {
        let s = try ServedJournal()
        let nope = try s.client.get("/api/pages/nope/thumbnail")
        #expect(nope.status == 404)
        #expect(nope.text.contains("nope"))
        for h in ["0", "15", "641", "abc", "1e3", "-5", "160.5", ""] {
            let r = try s.client.get("/api/pages/p1/thumbnail?h=\(h)")
            #expect(r.status == 400, "h=\(h): \(r.status)")
            #expect(r.text.contains("h: expected a whole number of pixels from 16 to 640"), "h=\(h): \(r.text)")
        }
        #expect(try s.client.request("POST", "/api/pages/p1/thumbnail").status == 404)
    }

    /// An endless strip far wider than tall is cut to four times the height, not drawn huge.
    @Test func aVeryWidePageMakesABoundedThumbnail() throws {
        let s = try ServedJournal(size: "4000x100")
        let r = try s.client.get("/api/pages/p1/thumbnail?h=100")
        #expect(r.status == 200, "\(r.text)")
        let t = try image(r)
        #expect(t.width == 400 && t.height == 10)
    }
}
