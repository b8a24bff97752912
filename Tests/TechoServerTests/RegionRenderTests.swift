// A zoomed-in editor asks for the part of the page on screen (`region=x,y,w,h`): the same pixels
// as that rectangle of the whole render, at a cost of that part, and refused with a clear error
// when malformed, too large or off the page.
import Foundation
import TechoCodecs
import TechoModel
import TechoTestSupport
import Testing

@testable import TechoServer

@Suite struct RegionRenderTests {
    /// A page with paper rulings, a tiled-free colour, text, a sticker and ink: everything a
    /// region has to place from the page's origin.
    func crowdedPage() throws -> ServedJournal {
        let s = try ServedJournal()
        try s.techo("background", s.journal.path, "p1", "--color", "#fdf6e3", "--paper", "dots", "--paper-margin", "12")
        try s.techo("add", "text", s.journal.path, "p1", "Kyoto", "--size", "40", "--color", "#5b3a29", "--rotate", "-8", "--at", "150,120")
        try s.techo("draw", s.journal.path, "p1", "--tool", "pencil", "--color", "#e07a5f", "--width", "6", "--points", "20,200 120,240,0.5 220,210")
        let png = try ServedJournal.png(80, 40)
        _ = try s.client.request("POST", "/api/pages/p1/elements?type=image&name=red.png&x=160&y=220", body: png)
        return s
    }

    @Test func aRegionIsThatRectangleOfTheWholeRender() throws {
        let s = try crowdedPage()
        let whole = try ImageDecoder.decodeStraight(try s.client.get("/api/pages/p1/render?scale=1.5").body, name: "whole").pixels
        // Page pixels 101.3,100.2 to 251.3,250.2 at scale 1.5: device pixels 151..377 by 150..376.
        let r = try s.client.get("/api/pages/p1/render?scale=1.5&region=101.3,100.2,150,150")
        #expect(r.status == 200, "\(r.text)")
        #expect(r.header("x-techo-region") == "151,150,226,226")
        let part = try ImageDecoder.decodeStraight(r.body, name: "region").pixels
        try #require(part.width == 226 && part.height == 226)
        var worst = 0, differing = 0
        for y in 0..<part.height {
            for x in 0..<part.width {
                let a = (y * part.width + x) * 4, b = ((y + 150) * whole.width + x + 151) * 4
                for c in 0..<4 {
                    let d = abs(Int(part.bytes[a + c]) - Int(whole.bytes[b + c]))
                    worst = max(worst, d)
                    if d > 0 { differing += 1 }
                }
            }
        }
        // The same pixels but for a few anti-aliased edge pixels (5 of 204,304 channels, by at
        // most 18 levels, where the region's own float arithmetic rounds a coverage differently).
        #expect(
            differing <= part.width * part.height * 4 / 5000 && worst <= 32,
            "a region pixel differs from the whole render by \(worst) (\(differing) channels differ)")
        // Something is drawn there (the sticker, ink and dots), not a bare page.
        var colours = Set<[UInt8]>()
        for i in stride(from: 0, to: part.bytes.count, by: 4) { colours.insert(Array(part.bytes[i..<i + 3])) }
        #expect(colours.count > 3, "the region shows \(colours.count) colours")
        // The region's render is cached apart from the whole page's.
        let hits = s.server.renderCacheCounts.hits
        #expect(try s.client.get("/api/pages/p1/render?scale=1.5&region=101.3,100.2,150,150").body == r.body)
        #expect(s.server.renderCacheCounts.hits == hits + 1)
    }

    @Test func aRegionOverTheEdgeIsClippedToThePage() throws {
        let s = try crowdedPage()
        let info = try json(try s.client.get("/api/pages/p1"))
        let w = try #require(info["width"]?.number), h = try #require(info["height"]?.number)
        let r = try s.client.get("/api/pages/p1/render?scale=2&region=-50,-50,100,100")
        #expect(r.status == 200, "\(r.text)")
        #expect(r.header("x-techo-region") == "0,0,100,100")
        let img = try ImageDecoder.decodeStraight(r.body, name: "corner").pixels
        #expect(img.width == 100 && img.height == 100)
        let far = try s.client.get("/api/pages/p1/render?scale=1&region=\(Int(w) - 10),\(Int(h) - 10),500,500")
        #expect(far.header("x-techo-region") == "\(Int(w) - 10),\(Int(h) - 10),10,10")
    }

    @Test func aBadRegionIsRefusedNamingTheParameter() throws {
        let s = try crowdedPage()
        for bad in ["", "1,2,3", "1,2,3,4,5", "a,b,c,d", "0,0,0,10", "0,0,10,-1", "nan,0,10,10", "0,0,inf,10", "1e9,0,10,10"] {
            let r = try s.client.get("/api/pages/p1/render?scale=1&region=\(bad)")
            #expect(r.status == 400, "region \(bad): \(r.status) \(r.text)")
            #expect(try json(r)["error"]?.string?.hasPrefix("region:") == true, "region \(bad): \(r.text)")
        }
        // Larger than a screen could show: 8192 px a side, 16 Mi pixels.
        let big = try s.client.get("/api/pages/p1/render?scale=4&region=0,0,2100,100")
        #expect(big.status == 400 && big.text.contains("8192"), "\(big.text)")
        let area = try s.client.get("/api/pages/p1/render?scale=4&region=0,0,1500,1500")
        #expect(area.status == 400 && area.text.contains("pixels"), "\(area.text)")
        // Off the page: refused, not an empty image.
        let off = try s.client.get("/api/pages/p1/render?scale=1&region=100000,100000,10,10")
        #expect(off.status == 400 && off.text.contains("region:") && off.text.contains("outside the page"), "\(off.status) \(off.text)")
    }
}
