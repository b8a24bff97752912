// The fuzz targets: the journal and manifest decoders, the SVG path parser, the PNG and JPEG
// readers, and text layout. Each returns a short outcome shape; any error is a fine outcome,
// a trap, hang or unbounded allocation is a finding.
import Foundation
import TechoCodecs
import TechoGeometry
import TechoModel
import TechoText

/// Small image limits, so a mutated header cannot make each run allocate hundreds of megabytes
/// (the limit checks themselves are what is fuzzed).
let fuzzImageLimits = ImageLimits(maxSide: 4096, maxPixels: 1 << 18, maxFileBytes: 1 << 20)

func shape(_ error: Error) -> String { "error: " + outcomeShape(String(describing: error)) }

public enum Targets {
    public static func all(scratch: URL) -> [FuzzTarget] {
        [json(scratch: scratch), inkfile, svg, png, jpeg, heif, webp, svgimage, text, editor(scratch: scratch), operations(scratch: scratch)]
    }

    static let jsonTokens = [
        "{", "}", "[", "]", ",", ":", "\"", "\\u0000", "\\ud800", "1e308", "-1e308", "NaN", "-0", "0.0000001",
        "1e-320", "123456789012345678901234567890", "null", "true", "false", "\"id\"", "\"type\"", "\"src\"",
        "\"/etc/passwd\"", "\"../x.png\"", "\"a.png\"", "\"points\"", "\"width\"", "\"size\"", "\"at\"",
        "\"elements\"", "\"pages\"", "\"text\"", "\"ink\"", "\"strokes\"", "\"gestures\"", "\"pinch\"",
        "\"rotate\"", "\"image\"", "\"photo\"", "\"washi\"", "\"template\"", "\"slots\"", "\"12mm\"",
        "\"#ff00ff80\"", "[[0,0],[1e308,1]]", "\"A5\"", "\"dpi\"", "9999999", "\"techo\"",
    ]

    /// Pages, journals and manifests, all from the same bytes.
    static func json(scratch: URL) -> FuzzTarget {
        // A manifest folder with two small files, so `src` can name something real.
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try? Data([0x89, 0x50, 0x4E, 0x47]).write(to: scratch.appendingPathComponent("a.png"))
        try? Data([0xFF, 0xD8, 0xFF]).write(to: scratch.appendingPathComponent("b.jpg"))
        let env = ManifestEnvironment(imageSize: { _ in (120, 80) })
        return FuzzTarget(
            name: "json", summary: "Page, Journal and Manifest decoding (journal files and manifests)",
            seeds: [
                Array(
                    #"{"techo":1,"title":"t","pages":[{"id":"p1","elements":[{"type":"text","text":"hi","size":40,"at":[10,10]},{"type":"image","src":"a.png","at":["10mm",20],"scale":0.5,"gestures":[{"pinch":1.5},{"rotate":30},{"pan":[1,2]},{"doubleTap":true}]},{"type":"ink","strokes":[{"tool":"pencil","width":4,"points":[[0,0],[10,10,0.5]]},{"tool":"path","path":"M0 0 L 10 10 Z"}]}]}]}"#
                        .utf8)
            ],
            extensions: ["json"], dictionary: jsonTokens.map { Array($0.utf8) }, maxLength: 64 << 10,
            run: { bytes in
                var out: [String] = []
                do {
                    let page = try Page.decode(bytes: bytes, file: "fuzz.json")
                    // What decodes must serialize to something that decodes again.
                    guard (try? Page.decode(bytes: page.serialized(), file: "again.json")) != nil else {
                        fatalError("a decoded page does not re-decode after serializing")
                    }
                    out.append("page ok")
                } catch { out.append(shape(error)) }
                do {
                    let j = try Journal.decode(bytes: bytes, file: "journal.json")
                    guard (try? Journal.decode(bytes: j.serialized())) != nil else { fatalError("a journal does not re-decode") }
                    out.append("journal ok")
                } catch { out.append(shape(error)) }
                do {
                    let value = try JSONParser.parse(bytes, file: "m.json")
                    let build = try Manifest.decode(value, folder: scratch, file: "m.json", environment: env)
                    for p in build.pages {
                        guard (try? Page.decode(bytes: p.serialized(), file: "again.json")) != nil else {
                            fatalError("a manifest page does not re-decode after serializing")
                        }
                    }
                    out.append("manifest ok \(min(build.pages.count, 3))")
                } catch { out.append(shape(error)) }
                return out.joined(separator: "|")
            })
    }

    /// A page as a journal stores it: the page file and its ink file, given as one input, the
    /// two parts split at the first NUL byte (none: a page file alone).
    static let inkfile: FuzzTarget = {
        let sample =
            #"{"id":"p1","width":400,"height":300,"elements":[{"type":"text","id":"t","text":"hi","at":[10,10]},{"type":"ink","id":"ink-1","strokes":[{"tool":"pencil","width":4,"points":[[0,0,0.5],[10,10,0.7]]},{"tool":"line","from":[0,0],"to":[5,5],"width":2}]},{"type":"ink","id":"ink-2","opacity":0.5,"strokes":[{"tool":"highlighter","width":9,"points":[[3,4]]}]}]}"#
        var seeds: [[UInt8]] = []
        if let page = try? Page.decode(bytes: Array(sample.utf8)) {
            let (file, ink) = page.storedFiles()
            seeds.append(file + [0] + (ink ?? []))
            seeds.append(file)
        }
        return FuzzTarget(
            name: "inkfile", summary: "a page file joined with its ink file (Page.decode(pageFile:inkFile:id:))",
            seeds: seeds, extensions: [],
            dictionary: (jsonTokens + ["\"p1.ink.json\"", "\"layers\"", "\"bytes\"", "\n      \"strokes\": ", "\n    {"]).map { Array($0.utf8) },
            maxLength: 64 << 10,
            run: { bytes in
                let cut = bytes.firstIndex(of: 0)
                let file = Array(bytes[..<(cut ?? bytes.count)])
                let ink = cut.map { Array(bytes[($0 + 1)...]) }
                do {
                    let page = try Page.decode(pageFile: file, inkFile: ink, id: "p1")
                    // What reads must write as two files that read back as the same page.
                    let (f, i) = page.storedFiles()
                    guard let again = try? Page.decode(pageFile: f, inkFile: i, id: "p1"), again == page else {
                        fatalError("a page does not read back from the files techo writes for it")
                    }
                    return "page ok \(i == nil ? "whole" : "apart")"
                } catch { return shape(error) }
            })
    }()

    static let svg = FuzzTarget(
        name: "svg", summary: "SVG path data (Path(svgPathData:)), flattened",
        seeds: [
            "M 10 10 L 20 20 H 5 V 7 Z", "M0,0 C 10,0 10,10 0,10 S -10,20 0,20 Q 5 5 10 10 T 20 20",
            "M 50 50 A 25 25 0 1 1 100 100 a 10 5 30 0 0 -20 10 z", "m1-2.5.5.5e2l3 4h5v6z", "M 0 0 A 0 0 0 0 0 10 10",
            "M1e308 0 L -1e308 1e308", "M 0 0 c 1e20 1e20 -1e20 1e20 5 5",
        ].map { Array($0.utf8) },
        extensions: [],
        dictionary: [
            "M", "m", "L", "l", "H", "h", "V", "v", "C", "c", "S", "s", "Q", "q", "T", "t", "A", "a",
            "Z", "z", " ", ",", "-", ".", "e", "1e308", "1e-308", "0", "1", "360", "NaN", "inf",
            "99999999999", ".5.5", "0 0 1 1",
        ].map { Array($0.utf8) },
        maxLength: 4096,
        run: { bytes in
            do {
                let path = try Path(svgPathData: String(decoding: bytes, as: UTF8.self))
                let contours = path.flattened()
                return "ok \(min(contours.count, 4)) \(path.isFinite)"
            } catch { return shape(error) }
        })

    /// Recomputes every chunk CRC, so mutations reach the chunk parsers behind libpng's check.
    static func fixPNGCRCs(_ b: inout [UInt8], _ rng: inout SplitMix64) {
        var i = 8
        while i + 12 <= b.count {
            let len = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard len >= 0, i + 12 + len <= b.count else { return }
            let crc = crc32(b[(i + 4)..<(i + 8 + len)])
            for k in 0..<4 { b[i + 8 + len + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(k))) }
            i += 12 + len
        }
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }

    static func imageRun(_ bytes: [UInt8]) -> String {
        var out = ""
        do {
            let info = try ImageDecoder.info(of: bytes, name: "fuzz", limits: fuzzImageLimits)
            out = "info \(info.format) "
        } catch { out = shape(error) + " " }
        do {
            let d = try ImageDecoder.decode(bytes, name: "fuzz", limits: fuzzImageLimits, minimumSize: nil)
            guard d.pixels.width >= 1, d.pixels.height >= 1 else { fatalError("decoded an image with no pixels") }
            out += "ok \(d.info.format) \(d.notes.isEmpty)"
        } catch { return out + shape(error) }
        // Drawn smaller than its pixels: the reduced decodes (a JPEG's DCT scaling, a HEIC's own
        // tile decoder) must give the size they promise, whatever the file says.
        do {
            let info = try ImageDecoder.info(of: bytes, name: "fuzz", limits: fuzzImageLimits)
            let need = (max(1, info.naturalWidth / 4), max(1, info.naturalHeight / 4))
            let d = try ImageDecoder.decode(bytes, name: "fuzz", limits: fuzzImageLimits, minimumSize: need)
            let s = d.scaleDenominator
            guard d.pixels.width >= 1, d.pixels.height >= 1, d.pixels.width * s * d.pixels.height * s >= need.0 * need.1 else {
                fatalError("a reduced decode came out too small")
            }
            return out + " reduced 1/\(s)"
        } catch { return out + " reduced " + shape(error) }
    }

    static let png = FuzzTarget(
        name: "png", summary: "PNG reading (ImageDecoder.info and decode)",
        seeds: [], extensions: ["png"],
        dictionary: ["IHDR", "IDAT", "IEND", "PLTE", "tRNS", "gAMA", "iCCP", "zTXt", "acTL", "fcTL", "eXIf", "\u{0}\u{0}\u{0}\u{0}"].map { Array($0.utf8) },
        maxLength: 64 << 10, repair: { b, rng in fixPNGCRCs(&b, &rng) }, run: imageRun)

    static let jpeg = FuzzTarget(
        name: "jpeg", summary: "JPEG reading (ImageDecoder.info and decode, EXIF orientation, GPS removal)",
        // The JPEG fixtures small enough to fuzz carry no GPS, so the GPS traps below would
        // never run without this seed: SOI, an EXIF block whose IFD0 points to a GPS IFD, EOI.
        seeds: [
            [
                0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x34, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00, 0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,
                0x00, 0x01, 0x88, 0x25, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x1A, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
                0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x04, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xD9,
            ]
        ],
        extensions: ["jpg", "jpeg"],
        dictionary: [
            [0xFF, 0xD8], [0xFF, 0xD9], [0xFF, 0xC0], [0xFF, 0xC2], [0xFF, 0xC4], [0xFF, 0xDA], [0xFF, 0xDB], [0xFF, 0xDD],
            [0xFF, 0xE1], [0xFF, 0xE2], [0xFF, 0xEE], Array("Exif\u{0}\u{0}MM\u{0}*".utf8), Array("II*\u{0}".utf8),
            [0x01, 0x12, 0x00, 0x03], [0x88, 0x25, 0x00, 0x04],
        ],
        maxLength: 64 << 10,
        run: { bytes in
            let r = imageRun(bytes)
            // The import's promise, as a trap.
            if let problem = jpegGPSProblem(original: bytes, stripped: JPEGMetadata.removingGPS(bytes)) { fatalError(problem) }
            return JPEGMetadata.containsGPS(bytes) ? r + " gps removed" : r
        })

    /// The jpeg target's GPS trap: nil when `stripped` keeps the import's promise for
    /// `original` (a file with GPS comes out without it; a file without comes back byte for
    /// byte), else what is broken. `techo-fuzz jpeg --check-gps` runs it on two files.
    public static func jpegGPSProblem(original: [UInt8], stripped: [UInt8]) -> String? {
        guard JPEGMetadata.containsGPS(original) else { return stripped == original ? nil : "removing GPS changed a JPEG that has none" }
        return JPEGMetadata.containsGPS(stripped) ? "removing GPS left GPS data in the JPEG" : nil
    }

    /// The heif target's GPS trap: nil when `stripped` (the removal's result for `original`,
    /// which has GPS) has none and the same size (the EXIF item is edited in place), else what
    /// is broken. `techo-fuzz heif --check-gps` runs it on two files.
    public static func heifGPSProblem(original: [UInt8], stripped: [UInt8]) -> String? {
        guard HEIFMetadata.containsGPS(original) else { return nil }
        if HEIFMetadata.containsGPS(stripped) { return "removing GPS left GPS data in the HEIF file" }
        return stripped.count == original.count ? nil : "removing GPS changed the HEIF file's size"
    }

    static let heif = FuzzTarget(
        name: "heif", summary: "HEIC/HEIF and AVIF reading (libheif), EXIF GPS removal in the meta box",
        seeds: [], extensions: ["heic", "heif", "avif"],
        dictionary: [
            "ftyp", "heic", "avif", "mif1", "meta", "hdlr", "pitm", "iloc", "iinf", "infe", "iref", "iprp", "ipco",
            "ipma", "ispe", "irot", "imir", "clap", "hvcC", "av1C", "auxC", "idat", "mdat", "Exif", "mime", "grid",
        ].map { Array($0.utf8) },
        maxLength: 64 << 10,
        run: { bytes in
            let r = imageRun(bytes)
            guard HEIFMetadata.containsGPS(bytes) else { return r }
            // Removing GPS must leave a file without it, edited in place (same size), or refuse
            // with an error; anything else traps.
            let stripped: [UInt8]
            do { stripped = try HEIFMetadata.removingGPS(bytes, file: "fuzz") } catch { return r + " " + shape(error) }
            if let problem = heifGPSProblem(original: bytes, stripped: stripped) { fatalError(problem) }
            return r + " gps removed"
        })

    static let webp = FuzzTarget(
        name: "webp", summary: "WebP reading (libwebp, WebPDemux for animations)",
        seeds: [], extensions: ["webp"],
        dictionary: ["RIFF", "WEBP", "VP8 ", "VP8L", "VP8X", "ALPH", "ANIM", "ANMF", "EXIF", "ICCP", "\u{0}\u{0}\u{0}\u{0}"].map { Array($0.utf8) },
        maxLength: 64 << 10, run: imageRun)

    static let svgimage = FuzzTarget(
        name: "svgimage", summary: "SVG stickers (librsvg natural size and rendering, the <use> budget)",
        seeds: [], extensions: ["svg"],
        dictionary: [
            "<svg", "</svg>", "<use href=\"#a\"/>", " id=\"a\"", "<g>", "</g>", "viewBox=\"0 0 1e9 1\"", "width=\"100%\"",
            "<!ENTITY a \"&a;\">", "<image href=\"/etc/passwd\"/>", "<filter", "<text>", "url(#a)", "<![CDATA[",
        ].map { Array($0.utf8) },
        maxLength: 64 << 10, run: imageRun)

    static let fonts = ["sans-serif", "serif", "monospace", "Noto Sans CJK JP", "Noto Color Emoji", "DejaVu Sans", "/no/such/font.ttf"]

    /// Text layout: the first bytes choose the style (including sizes out of range), the rest is
    /// the text, decoded as UTF-8 with replacement.
    static let text = FuzzTarget(
        name: "text", summary: "Text layout (TextLayout.layout) with styles chosen by the input",
        seeds: [
            "\u{0}\u{20}\u{0}\u{0}\u{0}Hello, world", "\u{3}\u{40}\u{1}\u{10}\u{0}京都の旅 · Kyoto Day 1 🌸",
            "\u{0}\u{30}\u{2}\u{8}\u{4}مرحبا بالعالم hello שלום", "\u{1}\u{20}\u{0}\u{4}\u{0}「こんにちは。」、ありがとう！",
            "\u{4}\u{20}\u{0}\u{0}\u{0}👩‍👩‍👧‍👦🏳️‍🌈 e\u{301}\u{302}\u{303}", "\u{2}\u{ff}\u{1}\u{1}\u{0}line\nbreak\r\n\ttab\u{2028}sep",
        ].map { Array($0.utf8) },
        extensions: [],
        dictionary: ["\n", " ", "🌸", "\u{200d}", "\u{301}", "京", "。", "「", "\u{202e}", "\u{fffd}", "\u{0}", "ا", "\u{feff}"].map { Array($0.utf8) },
        maxLength: 2048,
        run: { bytes in
            let p = bytes + [UInt8](repeating: 0, count: max(0, 5 - bytes.count))
            let sizes: [Double] = [0, 0.5, 1, 12, 32, 96, 400, 2000, 2001, .nan, .infinity, -5]
            var style = TextStyle(font: fonts[Int(p[0]) % fonts.count], weight: 100 * (1 + Int(p[0] >> 4) % 9), italic: p[0] & 8 != 0)
            style.size = p[1] < 200 ? Double(p[1]) / 2 + 1 : sizes[Int(p[1]) % sizes.count]
            style.align = TextAlign.allCases[Int(p[2]) % 3]
            style.maxWidth = p[3] == 0 ? nil : (p[3] < 250 ? Double(p[3]) * 8 : [0, -1, Double.nan, 1e308, 0.001][Int(p[3]) % 5])
            style.letterSpacing = p[4] < 250 ? Double(Int(p[4]) - 125) / 4 : [Double.nan, 1e308, -1e308, .infinity, 0][Int(p[4]) % 5]
            style.lineHeight = [1.2, 0, 10, 11, 0.1, .nan][Int(p[2] >> 2) % 6]
            let text = String(decoding: p.dropFirst(5), as: UTF8.self)
            do {
                let laid = try TextLayout.layout(text, style: style)
                laid.checkInvariants()
                guard laid.width.isFinite, laid.height.isFinite else { fatalError("text box is not finite") }
                var outlined = 0
                for g in laid.glyphs.prefix(8) where g.path != nil { outlined += 1 }
                return "ok \(style.align) \(min(laid.glyphs.count, 3)) \(outlined > 0)"
            } catch { return shape(error) }
        })
}
