// The template chooser's pictures: `GET /api/templates/NAME/thumbnail?h=H` is the page a new
// page from that built-in template would be, drawn small by the renderer (the very pixels of the
// thumbnail of a page then added from it), kept and revalidated by its ETag as a page's
// thumbnail is, and bad requests refused by name.
import Foundation
import TechoCodecs
import TechoModel
import Testing

@testable import TechoServer

@Suite struct TemplateThumbnailRouteTests {
    func image(_ r: RawResponse) throws -> RGBAImage { try ImageDecoder.decodeStraight(r.body, name: "thumbnail").pixels }

    @Test func eachTemplateIsDrawnAsThePageItWouldAddAndRevalidated() throws {
        let s = try ServedJournal()
        let names = try json(try s.client.get("/api/journal"))["templates"]?.array?.compactMap(\.string) ?? []
        #expect(names.count >= 3, "\(names)")
        for name in names {
            let r = try s.client.get("/api/templates/\(name)/thumbnail?h=120")
            #expect(r.status == 200, "\(name): \(r.text)")
            #expect(r.header("content-type") == "image/png")
            #expect(r.header("cache-control") == "private, no-cache")
            let thumb = try image(r)
            #expect(thumb.height == 120, "\(name): \(thumb.width)x\(thumb.height)")
            let etag = try #require(r.header("etag"))

            // Asked again: from the cache, not drawn again; with its ETag, a 304.
            let made = s.server.renderQueueCounts.made
            let again = try s.client.get("/api/templates/\(name)/thumbnail?h=120")
            #expect(again.status == 200 && again.body == r.body && again.header("etag") == etag)
            let revalidated = try s.client.request("GET", "/api/templates/\(name)/thumbnail?h=120", headers: ["If-None-Match": etag])
            #expect(revalidated.status == 304 && revalidated.body.isEmpty)
            #expect(s.server.renderQueueCounts.made == made, "\(name): drawn again")

            // A page added from it looks exactly like the picture.
            let added = try s.client.post("/api/pages", json: "{\"template\": \"\(name)\"}")
            #expect(added.status == 200, "\(added.text)")
            let id = try #require(try json(added)["id"]?.string)
            let page = try s.client.get("/api/pages/\(id)/thumbnail?h=120")
            #expect(page.status == 200)
            #expect(try image(page).bytes == thumb.bytes, "\(name): the template's picture is not the page it adds")
        }
        // Two templates are two different pictures.
        if names.count >= 2 {
            let a = try s.client.get("/api/templates/\(names[0])/thumbnail"), b = try s.client.get("/api/templates/\(names[1])/thumbnail")
            #expect(a.header("etag") != b.header("etag"))
            #expect(a.body != b.body)
        }
    }

    @Test func badTemplateThumbnailRequestsAreRefusedByName() throws {
        let s = try ServedJournal()
        // Only a built-in template's name: a file name or a path is no template here.
        for name in ["nope", "weekly.json", "Weekly", "a.b"] {
            let r = try s.client.get("/api/templates/\(name)/thumbnail")
            #expect(r.status == 404, "\(name): \(r.status) \(r.text)")
            #expect(r.text.contains("'\(name)'"), "\(name): \(r.text)")
        }
        // A path climbing out is refused before any route (400), as everywhere.
        for name in ["..", "%2Fetc%2Fpasswd"] {
            #expect(try s.client.get("/api/templates/\(name)/thumbnail").status == 400, "\(name)")
        }
        let nope = try s.client.get("/api/templates/nope/thumbnail")
        #expect(nope.text.contains("no built-in template 'nope'"), "\(nope.text)")
        #expect(nope.text.contains("weekly"), "the message lists the templates: \(nope.text)")
        for h in ["0", "15", "641", "abc", "160.5", ""] {
            let r = try s.client.get("/api/templates/weekly/thumbnail?h=\(h)")
            #expect(r.status == 400, "h=\(h): \(r.status)")
            #expect(r.text.contains("h: expected a whole number of pixels from 16 to 640"), "h=\(h): \(r.text)")
        }
        #expect(try s.client.request("POST", "/api/templates/weekly/thumbnail").status == 404)
    }
}
