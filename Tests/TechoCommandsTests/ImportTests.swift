// End to end: what importing a photo keeps and what it removes.
import Foundation
import TechoCodecs
import TechoModel
import TechoRaster
import Testing

@Suite struct ImportTests {
    /// A JPEG whose EXIF holds orientation 6 and a GPS latitude, as a phone writes it.
    static func phoneJPEG() throws -> [UInt8] {
        var pm = Pixmap(width: 40, height: 20)
        pm.fill(r: 200, g: 120, b: 40, a: 255)
        let jpeg = try JPEGEncoder.encode(pm, quality: 90, name: "phone.jpg")
        var t: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]
        func u16(_ v: Int) { t += [UInt8(v & 0xff), UInt8(v >> 8 & 0xff)] }
        func u32(_ v: Int) { t += [UInt8(v & 0xff), UInt8(v >> 8 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 24 & 0xff)] }
        u16(2)
        u16(0x0112); u16(3); u32(1); u16(6); u16(0)
        u16(0x8825); u16(4); u32(1); u32(8 + 2 + 24 + 4)
        u32(0)
        u16(2)
        u16(0x0001); u16(2); u32(2); t += [0x4E, 0, 0, 0]
        u16(0x0002); u16(5); u32(3); u32(8 + 2 + 24 + 4 + 2 + 24 + 4)
        u32(0)
        for (n, d) in [(35, 1), (0, 1), (4200, 100)] { u32(n); u32(d) }
        let exif = Array("Exif".utf8) + [0, 0] + t
        let n = exif.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(n >> 8), UInt8(n & 0xff)] + exif + jpeg[2...]
    }

    func assetBytes(_ ws: Workspace) throws -> [UInt8] {
        let page = try ws.storedPage("j.techo/pages/p1.json")
        guard case .photo(let p) = try #require(page.elements.last).content else { throw CocoaError(.fileReadCorruptFile) }
        return try ws.bytes("j.techo/" + p.image.asset.path)
    }

    @Test func photosLoseTheirLocationButKeepTheirOrientation() throws {
        let ws = try Workspace()
        let phone = try Self.phoneJPEG()
        #expect(JPEGMetadata.containsGPS(phone))
        try Data(phone).write(to: ws.url("IMG_0001.jpg"))
        #expect(try ws.run("init", "j.techo", "--size", "200x200").code == 0)
        #expect(try ws.run("add", "photo", "j.techo", "p1", "IMG_0001.jpg").code == 0)
        let stored = try assetBytes(ws)
        #expect(!JPEGMetadata.containsGPS(stored))
        #expect(JPEGMetadata.orientation(in: stored).rawValue == 6)
        // The natural size is the displayed one: 40x20 stored, turned a quarter by EXIF 6.
        #expect(try ws.run("show", "j.techo", "p1", "photo-1").out.contains("20x40"))

        #expect(try ws.run("add", "photo", "j.techo", "p1", "IMG_0001.jpg", "--keep-gps").code == 0)
        #expect(JPEGMetadata.containsGPS(try assetBytes(ws)))
    }

    @Test func theSameFileIsStoredOnce() throws {
        let ws = try Workspace()
        try ws.png("s.png", 8, 8, rgba: (1, 2, 3, 255))
        #expect(try ws.run("init", "j.techo", "--size", "100x100").code == 0)
        for _ in 0..<3 { #expect(try ws.run("add", "image", "j.techo", "p1", "s.png").code == 0) }
        let assets = try FileManager.default.contentsOfDirectory(atPath: ws.url("j.techo/assets").path)
        #expect(assets.count == 1)
        #expect(assets[0].hasSuffix(".png"))
    }
}
