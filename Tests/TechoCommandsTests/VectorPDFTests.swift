// The print-true PDF (docs/decisions/pdf.md), read back by the tools a print shop or a reader
// would use: qpdf checks the file's structure, poppler lists its images and fonts, extracts its
// text and renders its pages, which are compared with techo's own PNG export of the same pages.
import Foundation
import TechoCodecs
import TechoRaster
import TechoTestSupport
import Testing

/// Reading techo's PDFs back beyond what every suite needs (TechoTestSupport's `PDFTools`): the
/// images poppler lists, and poppler's renders against techo's own PNG export.
extension PDFTools {
    /// One row of `pdfimages -list`.
    struct ImageRow {
        var page: Int, type: String, width: Int, height: Int, encoding: String, object: Int
        /// Image pixels per inch of the page, across.
        var xppi: Int
    }

    static func images(_ pdf: String, in dir: URL) throws -> [ImageRow] {
        let r = try run("pdfimages", ["-list", pdf], in: dir)
        guard r.code == 0 else { throw FixtureError.unreadable(path: pdf, reason: "pdfimages: \(r.err)") }
        return r.out.split(separator: "\n").dropFirst(2).compactMap { line in
            let f = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard f.count >= 13, let page = Int(f[0]), let w = Int(f[3]), let h = Int(f[4]), let object = Int(f[10]), let xppi = Int(f[12])
            else { return nil }
            return ImageRow(page: page, type: f[2], width: w, height: h, encoding: f[8], object: object, xppi: xppi)
        }
    }

    /// Each page of `pdf` rendered by poppler at `dpi`, against techo's PNG export of the same
    /// journal at the same dpi: the PSNR of each page (over the area both cover).
    static func psnr(pdf: String, journal: String, dpi: Int, ws: Workspace) throws -> [Double] {
        let rendered = try run("pdftoppm", ["-r", "\(dpi)", "-png", pdf, "poppler"], in: ws.dir)
        guard rendered.code == 0 else { throw FixtureError.unreadable(path: pdf, reason: "pdftoppm: \(rendered.err)") }
        let export = try ws.run("export", journal, "--dpi", "\(dpi)", "-o", "raster")
        guard export.code == 0 else { throw FixtureError.unreadable(path: journal, reason: "export: \(export.err)") }
        let pngs = try FileManager.default.contentsOfDirectory(atPath: ws.url("raster").path).sorted()
        let popplers = try FileManager.default.contentsOfDirectory(atPath: ws.dir.path).filter { $0.hasPrefix("poppler-") }.sorted()
        guard pngs.count == popplers.count else {
            throw FixtureError.unreadable(path: pdf, reason: "\(popplers.count) pages rendered, \(pngs.count) exported")
        }
        return try zip(pngs, popplers).map { png, page in
            let a = try loadImage(ws.url("raster/" + png)), b = try loadImage(ws.url(page))
            // poppler rounds the page's size in points up to whole pixels: at most one more.
            guard abs(a.width - b.width) <= 1, abs(a.height - b.height) <= 1 else {
                throw FixtureError.unreadable(path: page, reason: "\(b.width)x\(b.height), the PNG is \(a.width)x\(a.height)")
            }
            let w = min(a.width, b.width), h = min(a.height, b.height)
            return compareImages(a.cropped(w, h), b.cropped(w, h)).psnr
        }
    }
}

extension Pixmap {
    /// The top-left `w`×`h` pixels.
    fileprivate func cropped(_ w: Int, _ h: Int) -> Pixmap {
        var out = [UInt8]()
        out.reserveCapacity(w * h * 4)
        for y in 0..<h { out += data[(y * width * 4)..<((y * width + w) * 4)] }
        return Pixmap(width: w, height: h, premultiplied: out)
    }
}

@Suite struct VectorPDFTests {
    /// A journal with everything the PDF has to carry: photos (an unchanged JPEG, the same JPEG
    /// cropped and adjusted, a HEIC with a frame and a shadow), SVG and PNG stickers, pressure
    /// ink with a highlighter and an eraser, washi, and text in Latin, CJK and emoji.
    static func journal(_ ws: Workspace) throws {
        let fixtures = Fixtures.url("Fixtures/pdf")
        for f in ["photo.jpg", "quad.heic", "tomato.png", "sticker.svg"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(f), to: ws.url(f))
        }
        let manifest = """
            {"techo": 1, "title": "PDF check 印刷",
             "page": {"size": "A5", "dpi": 150, "background": {"color": "#f6f0e4", "paper": {"pattern": "dots", "color": "#cbbfae"}}},
             "pages": [
              {"id": "first", "elements": [
                {"type": "text", "text": "Hello 京都 🌸", "font": "DejaVu Sans", "size": 40, "color": "#5b3a29", "at": [437, 90], "align": "center"},
                {"type": "photo", "src": "photo.jpg", "at": [200, 260]},
                {"type": "photo", "src": "photo.jpg", "at": [620, 260], "crop": [30, 20, 150, 110], "radius": 12},
                {"type": "photo", "src": "photo.jpg", "at": [220, 520], "scale": 0.5, "rotate": -4, "grayscale": 1, "contrast": 0.2},
                {"type": "photo", "src": "quad.heic", "at": [620, 560], "width": 220, "rotate": 5, "frame": "polaroid", "shadow": true},
                {"type": "image", "src": "sticker.svg", "at": [250, 860], "scale": 2.5, "rotate": 10},
                {"type": "image", "src": "tomato.png", "at": [650, 880], "scale": 1.2},
                {"type": "washi", "from": [120, 700], "to": [360, 690], "width": "12mm", "color": "#f3a5a8c0", "ends": "torn"},
                {"type": "text", "text": "二行目 second line", "font": "Noto Sans CJK JP", "size": 30, "color": "#2f5d62", "at": [437, 1010]},
                {"type": "ink", "id": "ink", "strokes": [
                  {"tool": "highlighter", "color": "#ffe066", "width": 30, "opacity": 0.55, "points": [[120, 1100], [500, 1096], [760, 1102]]},
                  {"tool": "pencil", "color": "#e07a5f", "width": 6, "points": [[120, 1160, 0.3], [300, 1180, 0.8], [500, 1170, 1], [760, 1150, 0.5]]},
                  {"tool": "rect", "color": "#3d405b", "width": 3, "from": [100, 1060], "to": [780, 1200], "fill": "#00000010"},
                  {"tool": "eraser", "width": 40, "points": [[300, 1080], [320, 1140], [340, 1190]]},
                  {"tool": "pencil", "color": "#3d405b", "width": 4, "points": [[300, 1130], [420, 1135], [560, 1128]]},
                  {"tool": "dash", "color": "#9c8a7a", "width": 3, "from": [100, 1220], "to": [780, 1220], "dash": [12, 8]}
                ]}
              ]},
              {"id": "second", "elements": [
                {"type": "photo", "src": "photo.jpg", "at": [437, 400], "scale": 2},
                {"type": "image", "src": "sticker.svg", "at": [437.5, 1000], "scale": 2},
                {"type": "text", "text": "The same photo, once in the file.", "font": "DejaVu Serif", "size": 28, "color": "#333333", "at": [437, 700]}
              ]}
             ]}
            """
        try Data(manifest.utf8).write(to: ws.url("journal.json"))
        let r = try ws.run("build", "journal.json", "--journal", "j.techo", "-o", "built")
        guard r.code == 0 else { throw FixtureError.unreadable(path: "journal.json", reason: r.err) }
    }

    @Test func theFilePassesQPDFsChecks() throws {
        let ws = try Workspace()
        try Self.journal(ws)
        let r = try ws.run("export", "j.techo", "-o", "j.pdf")
        #expect(r.code == 0, "\(r.err)")
        let check = try PDFTools.run("qpdf", ["--check", "j.pdf"], in: ws.dir)
        #expect(check.code == 0, "qpdf --check: \(check.out)\(check.err)")
        #expect(!check.out.contains("WARNING") && !check.err.contains("WARNING"), "\(check.out)\(check.err)")
        // Pages exactly their size in points: A5 at 150 dpi is 874 x 1240 px, 419.52 x 595.2 pt.
        let info = try PDFTools.info("j.pdf", in: ws.dir)
        #expect(info["Pages"] == "2", "\(info)")
        #expect(info["Page size"] == "419.52 x 595.2 pts", "\(info)")
        #expect(info["MediaBox"] == "0.00 0.00 419.52 595.20", "\(info)")
        #expect(info["TrimBox"] == "0.00 0.00 419.52 595.20", "\(info)")
        #expect(info["Title"] == "PDF check 印刷", "\(info)")
        // Page ids as page labels (what a viewer shows for the page number).
        let pdf = String(decoding: try ws.bytes("j.pdf"), as: UTF8.self)
        #expect(pdf.contains("/PageLabels") && pdf.contains("/P (first)") && pdf.contains("/P (second)"))
    }

    @Test func bleedExtendsTheBackgroundWithATrimBox() throws {
        let ws = try Workspace()
        try Self.journal(ws)
        let r = try ws.run("export", "j.techo", "-o", "b.pdf", "--bleed", "3")
        #expect(r.code == 0, "\(r.err)")
        let check = try PDFTools.run("qpdf", ["--check", "b.pdf"], in: ws.dir)
        #expect(check.code == 0 && !check.out.contains("WARNING") && !check.err.contains("WARNING"), "\(check.out)\(check.err)")
        // 3 mm = 8.504 pt on each side of 419.52 x 595.2 pt; the TrimBox is the page itself.
        let info = try PDFTools.info("b.pdf", in: ws.dir)
        #expect(info["MediaBox"] == "0.00 0.00 436.53 612.21", "\(info)")
        #expect(info["TrimBox"] == "8.50 8.50 428.02 603.70", "\(info)")
        // The background's colour reaches the sheet's corner; the trimmed page matches the export.
        #expect(
            try PDFTools.run(
                "pdftoppm", ["-r", "150", "-f", "1", "-l", "1", "-x", "0", "-y", "0", "-W", "4", "-H", "4", "-png", "b.pdf", "corner"], in: ws.dir
            ).code == 0)
        let corner = try loadImage(ws.url("corner-1.png"))
        let px = corner.pixel(1, 1)
        #expect(abs(Int(px.r) - 0xf6) <= 2 && abs(Int(px.g) - 0xf0) <= 2 && abs(Int(px.b) - 0xe4) <= 2, "\(px)")
        // --bleed is the vector PDF's: with --raster, or for PNG, it is a usage error.
        #expect(try ws.run("export", "j.techo", "-o", "x.pdf", "--raster", "--bleed", "3").code == 64)
        #expect(try ws.run("export", "j.techo", "--page", "first", "-o", "x.png", "--bleed", "3").code == 64)
        #expect(!ws.exists("x.pdf") && !ws.exists("x.png"))
    }

    @Test func photosAreEmbeddedOnceAtTheirOwnResolution() throws {
        let ws = try Workspace()
        try Self.journal(ws)
        #expect(try ws.run("export", "j.techo", "-o", "j.pdf").code == 0)
        let rows = try PDFTools.images("j.pdf", in: ws.dir)
        // photo.jpg unchanged, cropped (a clip, not new pixels) and on the second page: one
        // object, its own bytes (DCT) at its own 227 x 149 pixels.
        let source = rows.filter { $0.type == "image" && $0.width == 227 && $0.height == 149 }
        #expect(Set(source.map(\.object)).count == 1, "\(source)")
        #expect(source.allSatisfy { $0.encoding == "jpeg" }, "\(source)")
        #expect(Set(source.map(\.page)) == [1, 2], "\(source)")
        let bytes = try ws.bytes("photo.jpg")
        let pdf = try ws.bytes("j.pdf")
        #expect(pdf.firstRange(of: bytes) != nil, "the JPEG's own bytes are in the PDF")
        // The HEIC photo at its own 64 x 48 pixels.
        #expect(rows.contains { $0.type == "image" && $0.width == 64 && $0.height == 48 }, "\(rows)")
        // No picture of a whole page (874 x 1240 at the export resolution).
        let big = rows.filter { $0.width >= 874 * 9 / 10 && $0.height >= 1240 * 9 / 10 }
        #expect(big.isEmpty, "full-page images: \(big)")
    }

    @Test func textIsTextInEmbeddedSubsetFonts() throws {
        let ws = try Workspace()
        try Self.journal(ws)
        #expect(try ws.run("export", "j.techo", "-o", "j.pdf").code == 0)
        let fonts = try PDFTools.run("pdffonts", ["j.pdf"], in: ws.dir)
        #expect(fonts.code == 0, "\(fonts.err)")
        let rows = fonts.out.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        // DejaVu Sans, DejaVu Serif, Noto Sans CJK JP (京都 falls back to it too).
        let names = Set(rows.compactMap { $0.first?.split(separator: "+").last.map(String.init) })
        #expect(names.isSuperset(of: ["DejaVuSans", "DejaVuSerif", "NotoSansCJKjp-Regular"]), "\(fonts.out)")
        for r in rows {
            // name, type (one or more words), encoding, then emb sub uni and the object id.
            #expect(r.count >= 6 && Array(r.suffix(5).prefix(3)) == ["yes", "yes", "yes"], "embedded, subset, with a ToUnicode map: \(r)")
            let tagged = r.first.map { $0.count > 7 && $0.prefix(6).allSatisfy(\.isUppercase) && $0.dropFirst(6).first == "+" } ?? false
            #expect(tagged, "a subset's six-letter tag: \(r)")
        }
        // Every text sticker's text, in order (content order: a rotated line stays whole), CJK
        // and the emoji's text included; spaces are the reader's to infer from the gaps.
        let text = try PDFTools.run("pdftotext", ["-raw", "-enc", "UTF-8", "j.pdf", "-"], in: ws.dir)
        #expect(text.code == 0, "\(text.err)")
        let squeezed = text.out.filter { !$0.isWhitespace }
        let expected = ["Hello京都🌸", "二行目secondline", "Thesamephoto,onceinthefile."]
        var at = squeezed.startIndex
        for e in expected {
            guard let r = squeezed.range(of: e, range: at..<squeezed.endIndex) else {
                Issue.record("'\(e)' is not in the extracted text after what came before: \(text.out)")
                continue
            }
            at = r.upperBound
        }
    }

    /// Hebrew and Arabic text stickers (Noto Sans Hebrew and Arabic, from fonts-noto-core, which
    /// the setup installs) read back in logical order: poppler's reading-order extraction turns
    /// the right-to-left glyph runs back into the text as typed, between embedding marks.
    @Test func rightToLeftTextIsExtractedInLogicalOrder() throws {
        let fonts = ["/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf", "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf"]
        try #require(fonts.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "fonts-noto-core is not installed: run scripts/setup-deps.sh")
        let ws = try Workspace()
        let manifest = """
            {"techo": 1, "title": "RTL", "page": {"size": "A5", "dpi": 150}, "pages": [{"id": "p", "elements": [
              {"type": "text", "text": "שלום עולם", "font": "Noto Sans Hebrew", "size": 40, "color": "#000000", "at": [437, 200], "align": "center"},
              {"type": "text", "text": "مرحبا بالعالم", "font": "Noto Sans Arabic", "size": 40, "color": "#000000", "at": [437, 400], "align": "center"}
            ]}]}
            """
        try Data(manifest.utf8).write(to: ws.url("rtl.json"))
        let built = try ws.run("build", "rtl.json", "--journal", "rtl.techo", "-o", "built")
        #expect(built.code == 0, "\(built.err)")
        #expect(try ws.run("export", "rtl.techo", "-o", "rtl.pdf").code == 0)
        let fontRows = try PDFTools.run("pdffonts", ["rtl.pdf"], in: ws.dir).out
        #expect(fontRows.contains("NotoSansHebrew") && fontRows.contains("NotoSansArabic"), "\(fontRows)")
        let text = try PDFTools.run("pdftotext", ["-enc", "UTF-8", "rtl.pdf", "-"], in: ws.dir)
        #expect(text.code == 0, "\(text.err)")
        // Embedding marks (RLE, PDF) aside, each line as typed.
        let lines = text.out.split(separator: "\n").map { $0.unicodeScalars.filter { $0 != "\u{202B}" && $0 != "\u{202C}" } }
            .map { String(String.UnicodeScalarView($0)).trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        #expect(lines == ["שלום עולם", "مرحبا بالعالم"], "\(text.out.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func anSVGStickerStaysSharpAtEightTimes() throws {
        let ws = try Workspace()
        try Self.journal(ws)
        #expect(try ws.run("export", "j.techo", "-o", "j.pdf").code == 0)
        // Page 2's sticker: 120 page pixels across centred on (437.5, 1000), its square's left
        // edge at x = 387.5, between two pixels at 150 dpi. At 8x (1200 dpi) a row through its
        // middle crosses that edge at x = 3100: a vector edge stays within two pixels, a 150 dpi
        // picture of it (what --raster writes) takes eight.
        let r = try PDFTools.run(
            "pdftoppm", ["-r", "1200", "-f", "2", "-l", "2", "-x", "3036", "-y", "7980", "-W", "120", "-H", "1", "-png", "j.pdf", "edge"], in: ws.dir)
        #expect(r.code == 0, "\(r.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: ws.dir.path).filter { $0.hasPrefix("edge") }
        let row = try loadImage(ws.url(try #require(names.first)))
        let reds = (0..<row.width).map { Int(row.pixel($0, 0).r) }
        // Paper on the left, the square's blue on the right.
        let paper = reds[0], ink = try #require(reds.last)
        #expect(paper - ink > 150, "the row crosses the edge: \(reds)")
        let between = reds.filter { abs($0 - paper) > (paper - ink) / 10 && abs($0 - ink) > (paper - ink) / 10 }
        #expect(between.count <= 2, "edge \(between.count) px wide at 8x: \(reds)")
    }

    /// `jpeg` with an EXIF block whose only tag is Orientation = `orientation`, as a phone
    /// writes a photo taken with the camera turned (APP1 right after SOI, little-endian TIFF).
    static func withOrientation(_ jpeg: [UInt8], _ orientation: UInt16) -> [UInt8] {
        var tiff: [UInt8] = Array("II".utf8) + [42, 0, 8, 0, 0, 0]  // header, IFD0 at 8
        tiff += [1, 0]  // one entry
        tiff += [0x12, 0x01, 3, 0, 1, 0, 0, 0, UInt8(orientation & 0xFF), UInt8(orientation >> 8), 0, 0]  // 0x0112 SHORT × 1
        tiff += [0, 0, 0, 0]  // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
    }

    /// A JPEG turned by its EXIF orientation and shown without any other change goes in as its
    /// own bytes (DCT, at its stored 227 x 149 pixels), turned by the image's matrix: poppler's
    /// rendering of the page matches the PNG export, which draws the photo upright.
    @Test func anEXIFRotatedJPEGGoesInAsItsOwnBytesTurnedByItsMatrix() throws {
        let ws = try Workspace()
        let source = try [UInt8](Data(contentsOf: Fixtures.url("Fixtures/pdf/photo.jpg")))
        try Data(Self.withOrientation(source, 6)).write(to: ws.url("turned.jpg"))
        let manifest = """
            {"techo": 1, "title": "EXIF", "page": {"size": "A6", "dpi": 150, "background": {"color": "#ffffff"}},
             "pages": [{"id": "p", "elements": [
               {"type": "photo", "src": "turned.jpg", "at": [310, 300], "scale": 2.5}
             ]}]}
            """
        try Data(manifest.utf8).write(to: ws.url("exif.json"))
        let built = try ws.run("build", "exif.json", "--journal", "e.techo", "-o", "built")
        #expect(built.code == 0, "\(built.err)")
        #expect(try ws.run("export", "e.techo", "-o", "e.pdf").code == 0)
        let rows = try PDFTools.images("e.pdf", in: ws.dir).filter { $0.type == "image" }
        // The stored grid, not the displayed 149 x 227, and DCT: no pixel was decoded.
        #expect(rows.count == 1 && rows.allSatisfy { $0.width == 227 && $0.height == 149 && $0.encoding == "jpeg" }, "\(rows)")
        let asset = try FileManager.default.contentsOfDirectory(atPath: ws.url("e.techo/assets").path).filter { $0.hasSuffix(".jpg") }
        #expect(asset.count == 1, "\(asset)")
        let bytes = try ws.bytes("e.techo/assets/" + (asset.first ?? ""))
        #expect(try ws.bytes("e.pdf").firstRange(of: bytes) != nil, "the JPEG's own bytes are in the PDF")
        // The right way up: a photo sideways or mirrored would differ from the PNG over most of
        // its area.
        let psnr = try PDFTools.psnr(pdf: "e.pdf", journal: "e.techo", dpi: 150, ws: ws)
        #expect(psnr.count == 1 && psnr.allSatisfy { $0 >= 30 }, "PSNR \(psnr)")
    }

    @Test func popplerRendersWhatThePNGExportShows() throws {
        let ws = try Workspace()
        try Self.journal(ws)
        #expect(try ws.run("export", "j.techo", "-o", "j.pdf").code == 0)
        let psnr = try PDFTools.psnr(pdf: "j.pdf", journal: "j.techo", dpi: 150, ws: ws)
        #expect(psnr.count == 2)
        for (i, p) in psnr.enumerated() { #expect(p >= 30, "page \(i + 1): PSNR \(p) dB") }
    }
}

/// The demo journal (Resources/demo/kyoto.json, its pictures painted by techo-assets) as a PDF.
@Suite struct DemoPDFTests {
    @Test func theDemoJournalsPDFIsCleanWithAllItsTextAndFonts() throws {
        let ws = try Workspace()
        let paint = try ChildProcess.run(BuiltProducts.url("techo-assets"), ["demo", ws.url("assets").path], in: ws.dir)
        #expect(paint.code == 0, "\(paint.err)")
        let manifest = Fixtures.url("../../Resources/demo/kyoto.json")
        try FileManager.default.copyItem(at: manifest, to: ws.url("kyoto.json"))
        let built = try ws.run("build", "kyoto.json", "--journal", "k.techo", "-o", "built")
        #expect(built.code == 0, "\(built.err)")
        let r = try ws.run("export", "k.techo", "-o", "k.pdf")
        #expect(r.code == 0, "\(r.err)")

        let check = try PDFTools.run("qpdf", ["--check", "k.pdf"], in: ws.dir)
        #expect(check.code == 0 && !check.out.contains("WARNING") && !check.err.contains("WARNING"), "\(check.out)\(check.err)")
        let fonts = try PDFTools.run("pdffonts", ["k.pdf"], in: ws.dir)
        let rows = fonts.out.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(rows.count >= 5, "\(fonts.out)")
        for row in rows { #expect(row.count >= 6 && Array(row.suffix(5).prefix(3)) == ["yes", "yes", "yes"], "\(row)") }

        // Every text element's text, page by page, in order (spaces aside).
        let text = try PDFTools.run("pdftotext", ["-raw", "-enc", "UTF-8", "k.pdf", "-"], in: ws.dir)
        let squeezed = text.out.filter { !$0.isWhitespace }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any]
        let pages = json?["pages"] as? [[String: Any]] ?? []
        let texts = pages.flatMap { ($0["elements"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "text" } }
            .compactMap { $0["text"] as? String }
        #expect(texts.count >= 10)
        var at = squeezed.startIndex
        for t in texts {
            let want = t.filter { !$0.isWhitespace }
            guard let found = squeezed.range(of: want, range: at..<squeezed.endIndex) else {
                Issue.record("'\(t)' is not in the extracted text after what came before")
                continue
            }
            at = found.upperBound
        }

        // No picture of a whole page (A5 at 300 dpi is 1748 x 2480).
        let images = try PDFTools.images("k.pdf", in: ws.dir)
        let big = images.filter { $0.width >= 1748 * 9 / 10 && $0.height >= 2480 * 9 / 10 }
        #expect(big.isEmpty, "full-page images: \(big)")
        // Every JPEG in the file is either a photo's own pixels (its source size) or pixels made
        // for the PDF (adjusted photos) at the export resolution, 300 dpi: not the decoder's
        // power-of-two reduction of the source, which can be up to twice as fine.
        let sources = try FileManager.default.contentsOfDirectory(atPath: ws.url("k.techo/assets").path).compactMap { name in
            try? ImageProbe.check(contentsOf: ws.url("k.techo/assets/" + name).path)
        }.map { [$0.width, $0.height] }
        let jpegs = images.filter { $0.encoding == "jpeg" }
        #expect(jpegs.count >= 10, "\(jpegs)")
        let made = jpegs.filter { !Set(sources).contains([$0.width, $0.height]) }
        #expect(made.count >= 8, "adjusted photos: \(made)")
        for row in made { #expect(row.xppi <= 302, "page \(row.page): a \(row.width) x \(row.height) JPEG at \(row.xppi) ppi") }

        // The size budget: the journal's assets' bytes plus 600 KB for fonts, vectors and the
        // effects drawn at the export resolution (docs/decisions/pdf.md).
        let assetBytes = try FileManager.default.contentsOfDirectory(atPath: ws.url("k.techo/assets").path).reduce(0) { sum, name in
            sum + ((try FileManager.default.attributesOfItem(atPath: ws.url("k.techo/assets/" + name).path)[.size] as? NSNumber)?.intValue ?? 0)
        }
        let pdfBytes = try ws.bytes("k.pdf").count
        #expect(assetBytes > 0 && pdfBytes <= assetBytes + 600 * 1024, "the PDF is \(pdfBytes / 1024) KB, its budget \((assetBytes + 600 * 1024) / 1024) KB")

        // Each page as poppler renders it at 150 dpi against the PNG export at 150 dpi.
        let psnr = try PDFTools.psnr(pdf: "k.pdf", journal: "k.techo", dpi: 150, ws: ws)
        #expect(psnr.count == 6, "\(psnr)")
        for (i, p) in psnr.enumerated() { #expect(p >= 30, "page \(i + 1): PSNR \(p) dB") }
    }
}
