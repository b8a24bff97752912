// HEIC grids, as phones write their photos: the picture cut into tiles (512x512 on a phone),
// each tile coded as its own HEVC image, and a derived 'grid' image item that puts them back
// together (ISO/IEC 23008-12 §6.6.2.3, the ImageGrid derivation). Debian 12's libheif 1.15 can
// encode an image but not write a grid of them, so this file does the muxing itself:
//
//   1. each tile goes through libheif's x265 encoder into a one-image HEIC (`encodeHEIC`);
//   2. that file is read back (ISO/IEC 14496-12 boxes: meta → pitm, iinf, iloc, iprp/ipco/ipma;
//      the coded bytes from the extents iloc names) for the tile's `hvcC` configuration and its
//      length-prefixed NAL units;
//   3. one HEIF file is written: ftyp (heic; mif1, heic), meta (hdlr 'pict', pitm naming the grid,
//      iinf with the hidden 'hvc1' tiles and the 'grid' item, iref 'dimg' from the grid to the
//      tiles in row order, iprp with one shared hvcC when the tiles' configurations are equal,
//      ispe for a tile and for the grid, pixi, and ipma with hvcC essential; iloc; idat holding the
//      grid descriptor), then mdat with the tiles' data, each tile one extent.
//
// The layout follows the standard's box definitions and was checked against the files a newer
// libheif writes (same item, property and reference structure; the grid descriptor in idat with
// iloc construction method 1). The code is our own. Output is deterministic: the same pixels
// give the same bytes.
import Foundation
import TechoCodecs

/// One coded HEVC image taken out of a HEIC file: what a grid tile is made of.
struct HEVCCodedImage: Equatable {
    /// The whole `hvcC` box (size, type and payload), as written.
    var hvcC: [UInt8]
    /// The image's NAL units, each with a 4-byte length prefix.
    var data: [UInt8]
    var width: Int
    var height: Int
}

/// Reading one coded image out of a HEIF file: a file that does not hold what we expect names
/// what it lacks.
struct HEIFReadError: Error, CustomStringConvertible {
    var description: String
}

// MARK: - Reading

/// Big-endian reading of the boxes of an ISO base media file, bounds-checked: each read
/// throws when it would run past the box.
private struct BoxCursor {
    let bytes: [UInt8]
    var at: Int
    let end: Int

    mutating func uint(_ n: Int) throws -> Int {
        guard n >= 0, n <= 8, at + n <= end else { throw HEIFReadError(description: "a box ends early at byte \(at)") }
        var v = 0
        for k in 0..<n { v = v << 8 | Int(bytes[at + k]) }
        at += n
        return v
    }
    mutating func fourCC() throws -> String {
        guard at + 4 <= end else { throw HEIFReadError(description: "a box ends early at byte \(at)") }
        defer { at += 4 }
        return String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
    }
}

/// A box: its type, where the whole box is and where its payload is.
private struct Box {
    var type: String
    var whole: Range<Int>
    var payload: Range<Int>
}

/// The boxes one after another in `range` (32- and 64-bit sizes, size 0 running to the end).
private func boxes(_ b: [UInt8], _ range: Range<Int>) throws -> [Box] {
    var out: [Box] = []
    var c = BoxCursor(bytes: b, at: range.lowerBound, end: range.upperBound)
    while c.at < range.upperBound {
        let start = c.at
        var size = try c.uint(4)
        let type = try c.fourCC()
        if size == 1 { size = try c.uint(8) } else if size == 0 { size = range.upperBound - start }
        guard size >= c.at - start, start + size <= range.upperBound else {
            throw HEIFReadError(description: "box '\(type)' at byte \(start) claims \(size) bytes, more than there are")
        }
        out.append(Box(type: type, whole: start..<(start + size), payload: c.at..<(start + size)))
        c.at = start + size
    }
    return out
}

private func only(_ type: String, in list: [Box]) throws -> Box {
    let found = list.filter { $0.type == type }
    guard found.count == 1 else { throw HEIFReadError(description: "expected one '\(type)' box, found \(found.count)") }
    return found[0]
}

/// The primary image of a one-image HEIC (what libheif's encoder writes for one picture): its
/// `hvcC` box, its coded bytes and its `ispe` size.
/// - Throws: `HEIFReadError` when the primary item is not a coded `hvc1` image (libheif wraps an
///   image smaller than one 64-pixel coding block in a 1x1 grid: tiles must be at least 64 px),
///   or a box it needs is missing or cut short.
func primaryHEVCImage(_ b: [UInt8]) throws -> HEVCCodedImage {
    let meta = try only("meta", in: try boxes(b, 0..<b.count))
    let children = try boxes(b, (meta.payload.lowerBound + 4)..<meta.payload.upperBound)

    var c = BoxCursor(bytes: b, at: try only("pitm", in: children).payload.lowerBound, end: meta.payload.upperBound)
    let pitmVersion = try c.uint(1)
    _ = try c.uint(3)
    let primary = try c.uint(pitmVersion == 0 ? 2 : 4)

    // iinf: the primary item's type.
    let iinf = try only("iinf", in: children)
    c = BoxCursor(bytes: b, at: iinf.payload.lowerBound, end: iinf.payload.upperBound)
    let iinfVersion = try c.uint(1)
    _ = try c.uint(3)
    _ = try c.uint(iinfVersion == 0 ? 2 : 4)
    var primaryType: String?
    for infe in try boxes(b, c.at..<iinf.payload.upperBound) where infe.type == "infe" {
        var e = BoxCursor(bytes: b, at: infe.payload.lowerBound, end: infe.payload.upperBound)
        let v = try e.uint(1)
        _ = try e.uint(3)
        guard v >= 2 else { continue }
        let id = try e.uint(v == 2 ? 2 : 4)
        _ = try e.uint(2)  // protection index
        let type = try e.fourCC()
        if id == primary { primaryType = type }
    }
    guard primaryType == "hvc1" else {
        throw HEIFReadError(description: "the primary item is '\(primaryType ?? "missing")', not a coded 'hvc1' image (is the tile smaller than 64 px?)")
    }

    // iprp: the properties ipma associates with the primary item.
    let iprp = try only("iprp", in: children)
    let iprpChildren = try boxes(b, iprp.payload)
    let ipco = try boxes(b, try only("ipco", in: iprpChildren).payload)
    var hvcC: Box?
    var size: (Int, Int)?
    for ipma in iprpChildren where ipma.type == "ipma" {
        var m = BoxCursor(bytes: b, at: ipma.payload.lowerBound, end: ipma.payload.upperBound)
        let version = try m.uint(1), flags = try m.uint(3)
        for _ in 0..<(try m.uint(4)) {
            let id = try m.uint(version < 1 ? 2 : 4)
            for _ in 0..<(try m.uint(1)) {
                let raw = try m.uint(flags & 1 == 1 ? 2 : 1)
                let index = raw & (flags & 1 == 1 ? 0x7FFF : 0x7F)
                guard id == primary, index >= 1, index <= ipco.count else { continue }
                let p = ipco[index - 1]
                if p.type == "hvcC" { hvcC = p }
                if p.type == "ispe" {
                    var s = BoxCursor(bytes: b, at: p.payload.lowerBound + 4, end: p.payload.upperBound)
                    size = (try s.uint(4), try s.uint(4))
                }
            }
        }
    }
    guard let hvcC, let size else { throw HEIFReadError(description: "the primary image has no hvcC or no ispe property") }

    // iloc: the primary item's extents (construction method 0, offsets into this file).
    let iloc = try only("iloc", in: children)
    c = BoxCursor(bytes: b, at: iloc.payload.lowerBound, end: iloc.payload.upperBound)
    let version = try c.uint(1)
    _ = try c.uint(3)
    let sizes = try c.uint(2)
    let (offsetSize, lengthSize, baseSize) = (sizes >> 12, sizes >> 8 & 15, sizes >> 4 & 15)
    let indexSize = version >= 1 ? sizes & 15 : 0
    var data: [UInt8]?
    for _ in 0..<(try c.uint(version < 2 ? 2 : 4)) {
        let id = try c.uint(version < 2 ? 2 : 4)
        let method = version >= 1 ? try c.uint(2) & 15 : 0
        _ = try c.uint(2)  // data reference index
        let base = try c.uint(baseSize)
        var bytes: [UInt8] = []
        for _ in 0..<(try c.uint(2)) {
            _ = try c.uint(indexSize)
            let offset = try c.uint(offsetSize), length = try c.uint(lengthSize)
            guard id == primary else { continue }
            guard method == 0, base + offset + length <= b.count else {
                throw HEIFReadError(description: "the primary image's data is not in this file's mdat")
            }
            bytes += b[(base + offset)..<(base + offset + length)]
        }
        if id == primary { data = bytes }
    }
    guard let data, !data.isEmpty else { throw HEIFReadError(description: "iloc has no data for the primary image") }
    return HEVCCodedImage(hvcC: Array(b[hvcC.whole]), data: data, width: size.0, height: size.1)
}

// MARK: - Writing

/// Big-endian box building.
private struct BoxWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ v: Int) { bytes.append(UInt8(truncatingIfNeeded: v)) }
    mutating func u16(_ v: Int) { u8(v >> 8); u8(v) }
    mutating func u32(_ v: Int) { u16(v >> 16); u16(v) }
    mutating func fourCC(_ s: String) {
        precondition(s.utf8.count == 4, "a four-character code: \(s)")
        bytes += Array(s.utf8)
    }
    /// A box of `type` whose payload `body` writes; `fullBox` adds version and flags.
    mutating func box(_ type: String, fullBox: (version: Int, flags: Int)? = nil, _ body: (inout BoxWriter) -> Void) {
        var inner = BoxWriter()
        if let fullBox {
            inner.u8(fullBox.version)
            inner.u8(fullBox.flags >> 16); inner.u16(fullBox.flags)
        }
        body(&inner)
        u32(8 + inner.bytes.count)
        fourCC(type)
        bytes += inner.bytes
    }
}

/// A HEIF file whose primary image is a grid of `columns` x `rows` coded tiles, given in row
/// order, shown cropped to `width` x `height`.
/// - Precondition: every tile has the same size, the tiles cover the picture and the last row
///   and column overhang it by less than a tile (ISO/IEC 23008-12 §6.6.2.3.1), at most 255
///   rows and columns, sizes below 65536.
func gridHEIF(tiles: [HEVCCodedImage], columns: Int, rows: Int, width: Int, height: Int) -> [UInt8] {
    precondition(!tiles.isEmpty && tiles.count == columns * rows && columns <= 256 && rows <= 256, "tiles must fill the grid")
    let tw = tiles[0].width, th = tiles[0].height
    precondition(tiles.allSatisfy { $0.width == tw && $0.height == th }, "grid tiles must all have the same size")
    precondition(
        columns * tw >= width && (columns - 1) * tw < width && rows * th >= height && (rows - 1) * th < height && width < 65536 && height < 65536,
        "the tiles must cover the picture and overhang it by less than a tile")

    let gridID = 1
    let tileIDs = tiles.indices.map { $0 + 2 }
    // One hvcC property when all tiles share their configuration (x265 writes the same
    // parameter sets for tiles of one size), else one per tile.
    let shared = tiles.allSatisfy { $0.hvcC == tiles[0].hvcC }
    let configs = shared ? [tiles[0].hvcC] : tiles.map(\.hvcC)
    // Property indices, 1-based in ipco order: the hvcC boxes, then ispe of a tile, ispe of the
    // grid, pixi.
    let tileISPE = configs.count + 1, gridISPE = configs.count + 2, pixi = configs.count + 3
    precondition(pixi < 0x80, "ipma with 7-bit property indices")
    // pixi: the bit depth of each channel, from the hvcC (bitDepthLumaMinus8 and
    // bitDepthChromaMinus8 are bytes 18 and 19 of its payload, after the 8-byte header).
    let config = tiles[0].hvcC
    precondition(config.count >= 8 + 23, "an hvcC box")
    let lumaBits = 8 + Int(config[8 + 17] & 7), chromaBits = 8 + Int(config[8 + 18] & 7)
    // The grid descriptor (ImageGrid): version 0, flags 0 (16-bit output sizes).
    let descriptor: [UInt8] = [0, 0, UInt8(rows - 1), UInt8(columns - 1), UInt8(width >> 8), UInt8(width & 255), UInt8(height >> 8), UInt8(height & 255)]

    func file(mdatStart: Int) -> [UInt8] {
        var w = BoxWriter()
        w.box("ftyp") { b in
            b.fourCC("heic"); b.u32(0)
            b.fourCC("mif1"); b.fourCC("heic")
        }
        w.box("meta", fullBox: (0, 0)) { m in
            m.box("hdlr", fullBox: (0, 0)) { b in
                b.u32(0); b.fourCC("pict"); b.u32(0); b.u32(0); b.u32(0); b.u8(0)
            }
            m.box("pitm", fullBox: (0, 0)) { $0.u16(gridID) }
            m.box("iinf", fullBox: (0, 0)) { b in
                b.u16(1 + tiles.count)
                // Tiles are hidden (flags 1): only the grid is a picture to show.
                for (id, type, flags) in [(gridID, "grid", 0)] + tileIDs.map({ ($0, "hvc1", 1) }) {
                    b.box("infe", fullBox: (2, flags)) { e in
                        e.u16(id); e.u16(0); e.fourCC(type); e.u8(0)
                    }
                }
            }
            m.box("iref", fullBox: (0, 0)) { b in
                b.box("dimg") { r in
                    r.u16(gridID); r.u16(tileIDs.count)
                    for id in tileIDs { r.u16(id) }
                }
            }
            m.box("iprp") { p in
                p.box("ipco") { c in
                    for h in configs { c.bytes += h }
                    for (pw, ph) in [(tw, th), (width, height)] {
                        c.box("ispe", fullBox: (0, 0)) {
                            $0.u32(pw); $0.u32(ph)
                        }
                    }
                    c.box("pixi", fullBox: (0, 0)) {
                        $0.u8(3); $0.u8(lumaBits); $0.u8(chromaBits); $0.u8(chromaBits)
                    }
                }
                p.box("ipma", fullBox: (0, 0)) { a in
                    a.u32(1 + tiles.count)
                    a.u16(gridID); a.u8(2); a.u8(gridISPE); a.u8(pixi)
                    for (k, id) in tileIDs.enumerated() {
                        // The decoder must understand hvcC to show a tile: essential (top bit).
                        a.u16(id); a.u8(3); a.u8(0x80 | (shared ? 1 : k + 1)); a.u8(tileISPE); a.u8(pixi)
                    }
                }
            }
            // iloc version 1 (construction methods): 4-byte offsets and lengths, no base offset.
            m.box("iloc", fullBox: (1, 0)) { l in
                l.u8(0x44); l.u8(0x00)
                l.u16(1 + tiles.count)
                l.u16(gridID); l.u16(1); l.u16(0); l.u16(1)  // construction method 1: in idat
                l.u32(0); l.u32(descriptor.count)
                var offset = mdatStart + 8
                for (k, id) in tileIDs.enumerated() {
                    l.u16(id); l.u16(0); l.u16(0); l.u16(1)  // construction method 0: in this file
                    l.u32(offset); l.u32(tiles[k].data.count)
                    offset += tiles[k].data.count
                }
            }
            m.box("idat") { $0.bytes += descriptor }
        }
        return w.bytes
    }
    // The iloc fields have a fixed width, so the header's length does not depend on the offsets
    // written into it: measure it once, then write it with mdat's real position.
    var out = file(mdatStart: file(mdatStart: 0).count)
    let payload = tiles.reduce(0) { $0 + $1.data.count }
    precondition(out.count + 8 + payload < 1 << 32, "a grid HEIC under 4 GiB")
    var mdat = BoxWriter()
    mdat.u32(8 + payload); mdat.fourCC("mdat")
    out += mdat.bytes
    for t in tiles { out += t.data }
    return out
}

/// Straight RGBA (`width` x `height`) as a HEIC grid of `tile` x `tile` HEVC tiles at `quality`,
/// the edge tiles padded by repeating the picture's last column and row (what the crop hides).
/// - Precondition: `tile` is at least 64 and even (libheif wraps a smaller image in a grid of its
///   own; 4:2:0 chroma needs even sizes).
func encodeHEICGrid(rgba: [UInt8], width: Int, height: Int, tile: Int, quality: Int) throws -> [UInt8] {
    precondition(rgba.count == width * height * 4 && tile >= 64 && tile % 2 == 0, "bad HEIC grid input")
    let columns = (width + tile - 1) / tile, rows = (height + tile - 1) / tile
    var tiles: [HEVCCodedImage] = []
    var part = [UInt8](repeating: 0, count: tile * tile * 4)
    for r in 0..<rows {
        for c in 0..<columns {
            for y in 0..<tile {
                let sy = min(height - 1, r * tile + y)
                for x in 0..<tile {
                    let s = (sy * width + min(width - 1, c * tile + x)) * 4, d = (y * tile + x) * 4
                    for k in 0..<4 { part[d + k] = rgba[s + k] }
                }
            }
            let one = try encodeHEIC(rgba: part, width: tile, height: tile, quality: quality, orientation: 1, exif: nil, alpha: false)
            let coded = try primaryHEVCImage(one)
            guard coded.width == tile, coded.height == tile else {
                throw HEICEncodeError(description: "libheif coded a \(tile)x\(tile) tile as \(coded.width)x\(coded.height)")
            }
            tiles.append(coded)
        }
    }
    return gridHEIF(tiles: tiles, columns: columns, rows: rows, width: width, height: height)
}

// MARK: - Pictures and the command

/// The `index`-th of the bench's phone grids: a landscape (scene `index` mod 4) with a phone's
/// grain (uniform luminance noise of ±5 levels, σ ≈ 3 of 255), straight RGBA.
func phoneGridPicture(_ index: Int, width: Int, height: Int) -> [UInt8] {
    let scene = Scene.allCases[index % Scene.allCases.count]
    return landscape(scene, width: width, height: height, seed: UInt32(300 + index)).rgba8(grain: 10.0 / 255, seed: UInt32(7 + index))
}

/// The quality the phone grids are coded at: with the grain above, a 4032x3024 grid comes out
/// at 2–3 MB, as a phone's does.
let phoneGridQuality = 55

/// Peak signal-to-noise ratio of `b` against `a` over the colour channels, dB (infinity when
/// equal). Both straight RGBA of one size.
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count && a.count % 4 == 0, "PSNR of images of one size")
    var sum = 0.0
    var i = 0
    while i < a.count {
        for k in 0..<3 {
            let d = Double(Int(a[i + k]) - Int(b[i + k]))
            sum += d * d
        }
        i += 4
    }
    guard sum > 0 else { return .infinity }
    return 10 * log10(255 * 255 / (sum / Double(a.count / 4 * 3)))
}

/// `techo-assets heic-grid OUT.heic WIDTH HEIGHT [TILE]` (a photo-like picture with grain) or
/// `techo-assets heic-grid OUT.heic SOURCE.png [TILE]` (a picture of yours): writes the grid
/// HEIC (tiles of TILE px, default 512), then decodes it through techo's HEIF path and prints
/// its size and PSNR against the source. Exit 64 for bad arguments, 65 for an unreadable
/// source, 73 when the file cannot be written (then nothing is left at OUT).
func heicGridCommand(_ a: [String]) -> Never {
    func fail(_ code: Int32, _ message: String) -> Never {
        FileHandle.standardError.write(Data("techo-assets heic-grid: \(message)\n".utf8))
        exit(code)
    }
    let usage = "usage: techo-assets heic-grid OUT.heic WIDTH HEIGHT [TILE] | heic-grid OUT.heic SOURCE.png [TILE]"
    guard a.count >= 2 && a.count <= 4 else { fail(64, usage) }
    func number(_ k: Int, _ what: String, _ range: ClosedRange<Int>) -> Int {
        guard let v = Int(a[k]), range.contains(v) else {
            fail(64, "\(what) '\(a[k])' (argument \(k + 2)) must be a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return v
    }
    let fromFile = Int(a[1]) == nil
    guard fromFile ? a.count <= 3 : a.count >= 3 else { fail(64, usage) }
    let tileArg = fromFile ? 2 : 3
    let tile = a.count > tileArg ? number(tileArg, "TILE", 64...4096) : 512
    guard tile % 2 == 0 else { fail(64, "TILE '\(a[tileArg])' (argument \(tileArg + 2)) must be even (4:2:0 chroma)") }
    let rgba: [UInt8], width: Int, height: Int
    if fromFile {
        do {
            let source = try ImageDecoder.decodeStraight(try FileBytes.contents(of: a[1], maxBytes: 256 << 20), name: a[1]).pixels
            (rgba, width, height) = (source.bytes, source.width, source.height)
        } catch {
            fail(65, "\(error)")
        }
    } else {
        width = number(1, "WIDTH", 1...16384)
        height = number(2, "HEIGHT", 1...16384)
        guard (width + tile - 1) / tile * ((height + tile - 1) / tile) <= 4096 else { fail(64, "a grid of more than 4096 tiles: use a larger TILE") }
        rgba = phoneGridPicture(0, width: width, height: height)
    }
    let bytes: [UInt8]
    do {
        bytes = try encodeHEICGrid(rgba: rgba, width: width, height: height, tile: tile, quality: fromFile ? 90 : phoneGridQuality)
    } catch {
        fail(70, "\(error)")
    }
    let tmp = a[0] + ".tmp"
    do {
        try Data(bytes).write(to: URL(fileURLWithPath: tmp))
        guard rename(tmp, a[0]) == 0 else { throw CocoaError(.fileWriteUnknown) }
    } catch {
        unlink(tmp)
        fail(73, "cannot write \(a[0]): \(error)")
    }
    let columns = (width + tile - 1) / tile, rows = (height + tile - 1) / tile
    var line = "techo-assets: \(a[0]): \(width)x\(height), \(columns)x\(rows) tiles of \(tile) px, \(bytes.count) bytes"
    do {
        let decoded = try ImageDecoder.decodeStraight(bytes, name: a[0]).pixels
        guard decoded.width == width, decoded.height == height else { fail(70, "techo decodes it as \(decoded.width)x\(decoded.height)") }
        line += String(format: "; techo decodes it, PSNR %.2f dB against the source", psnr(rgba, decoded.bytes))
    } catch {
        fail(70, "techo cannot decode what was written: \(error)")
    }
    print(line)
    exit(0)
}
