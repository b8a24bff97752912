import Foundation
// A minimal PDF 1.4 writer for exported pages: one page per journal page, its MediaBox the
// page's physical size (pixels × 72 / dpi points), holding the page as one lossless image.
//
// The image is the IDAT stream of an RGB PNG, which is exactly PDF's FlateDecode with PNG
// predictors (/Predictor 15), so the pixels are compressed once, by libpng, and never re-coded.
import TechoCodecs
import TechoRaster

public enum PDFWriter {
    public struct PageImage: Sendable {
        var width: Int
        var height: Int
        /// Concatenated IDAT payloads of an 8-bit RGB, non-interlaced PNG.
        var flate: [UInt8]
        var dpi: Double
    }

    /// The page flattened onto white paper, as PDF image data.
    public static func pageImage(_ pixmap: Pixmap, dpi: Double, name: String) throws -> PageImage {
        var flat = pixmap
        if !flat.isOpaque { flat.flattenOntoWhite() }
        let png = try PNGEncoder.encode(flat, level: 6, name: name)
        return PageImage(width: pixmap.width, height: pixmap.height, flate: try idat(of: png), dpi: dpi)
    }

    /// The IDAT data of a PNG we just wrote (8-bit RGB, not interlaced).
    static func idat(of png: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var i = 8
        func be32(_ at: Int) -> Int { Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3]) }
        guard png.count > 33, png[25] == 2, png[24] == 8, png[28] == 0 else { throw ExportError(cannotCreate: false, "PDF export: unexpected PNG layout") }
        while i + 8 <= png.count {
            let len = be32(i)
            let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
            guard i + 12 + len <= png.count else { break }
            if type == "IDAT" { out += png[(i + 8)..<(i + 8 + len)] }
            i += 12 + len
        }
        return out
    }

    /// The whole PDF file.
    public static func document(_ pages: [PageImage], title: String) -> [UInt8] {
        var out: [UInt8] = Array("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8)
        var offsets: [Int] = []
        func object(_ body: [UInt8]) {
            offsets.append(out.count)
            out += Array("\(offsets.count) 0 obj\n".utf8) + body + Array("\nendobj\n".utf8)
        }
        let n = pages.count
        // Objects: 1 catalog, 2 pages, 3 info, then per page: page, content, image.
        let pageIDs = (0..<n).map { 4 + 3 * $0 }
        object(Array("<< /Type /Catalog /Pages 2 0 R >>".utf8))
        object(Array("<< /Type /Pages /Count \(n) /Kids [\(pageIDs.map { "\($0) 0 R" }.joined(separator: " "))] >>".utf8))
        object(Array("<< /Producer (techo) /Title \(pdfString(title)) >>".utf8))
        for (k, p) in pages.enumerated() {
            let w = points(p.width, dpi: p.dpi), h = points(p.height, dpi: p.dpi)
            let page = pageIDs[k]
            object(
                Array(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(w) \(h)] /Resources << /XObject << /Im0 \(page + 2) 0 R >> >> /Contents \(page + 1) 0 R >>"
                        .utf8))
            let content = Array("q \(w) 0 0 \(h) 0 0 cm /Im0 Do Q".utf8)
            object(Array("<< /Length \(content.count) >>\nstream\n".utf8) + content + Array("\nendstream".utf8))
            object(
                Array(
                    "<< /Type /XObject /Subtype /Image /Width \(p.width) /Height \(p.height) /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns \(p.width) >> /Length \(p.flate.count) >>\nstream\n"
                        .utf8) + p.flate + Array("\nendstream".utf8))
        }
        let xref = out.count
        out += Array("xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n".utf8)
        for o in offsets { out += Array((String(repeating: "0", count: max(0, 10 - String(o).count)) + "\(o) 00000 n \n").utf8) }
        out += Array("trailer\n<< /Size \(offsets.count + 1) /Root 1 0 R /Info 3 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }

    /// Page length in PDF points, 3 decimals.
    static func points(_ px: Int, dpi: Double) -> String {
        let v = (Double(px) * 72 / dpi * 1000).rounded() / 1000
        return v == v.rounded() ? String(Int(v)) : String(v)
    }

    /// A PDF literal string; non-ASCII titles become UTF-16BE hex strings.
    static func pdfString(_ s: String) -> String {
        if s.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 32 }) {
            return "(" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "(", with: "\\(").replacingOccurrences(of: ")", with: "\\)")
                + ")"
        }
        var hex = "<FEFF"
        for u in s.utf16 { hex += String(format: "%04X", u) }
        return hex + ">"
    }
}

extension Pixmap {
    /// Composites the pixmap over opaque white, as paper under ink.
    mutating func flattenOntoWhite() {
        data.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let inv = 255 - UInt32(p[i + 3])
                if inv != 0 {
                    p[i] = UInt8(UInt32(p[i]) + inv)
                    p[i + 1] = UInt8(UInt32(p[i + 1]) + inv)
                    p[i + 2] = UInt8(UInt32(p[i + 2]) + inv)
                    p[i + 3] = 255
                }
                i += 4
            }
        }
    }
}
