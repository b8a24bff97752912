// A phone's HEIC decoded straight to the size it is drawn.
//
// Phones store a photo as a grid of HEVC tiles (an iPhone's 12 MP photo: 8x6 tiles of 512 px).
// libheif 1.15 decodes the whole grid, converts it to RGBA at full size and hands it over; only
// then could it be reduced to the size the page draws it at, so a page of four phone photos spent
// seconds and hundreds of megabytes on pixels it never showed. Here the container is read
// (ISO/IEC 23008-12: the primary item, its grid descriptor, its tiles in `dimg` order, their
// `hvcC` parameter sets and where their bytes are), every tile is decoded by libde265 on its own
// decoder, on every core at once, and each decoded tile is box-averaged into the reduced output at
// once and dropped: memory is the output plus one tile a core. The averages are converted to RGB
// once per output pixel with the file's colour matrix, then the file's rotation and mirror
// (`irot`, `imir`) are applied to the small result.
//
// At a reduction of 4 or more, libde265's in-loop filters (deblocking and SAO) are skipped: each
// output pixel is then the mean of 16 or more decoded pixels, which already smooths the block
// edges those filters soften, and an intra-only picture predicts from unfiltered samples, so
// nothing drifts. That is a quarter of the decoding time.
//
// Only what phones write takes this path: an `hvc1` image or a grid of them, 8-bit 4:2:0, no
// alpha, no clean aperture, tiles whose sides are multiples of the reduction, every item's bytes
// in one extent. Anything else (and any tile libde265 refuses) returns nil and the caller decodes
// the file with libheif, which reports what is wrong with it. HEIFReducedTests compares the two.
import CLibDe265
import CTechoLazy
import Dispatch

/// The parts of a HEIF file the direct tile decode needs, read with bounds checks.
struct HEIFTileLayout {
    enum Transform: Equatable {
        /// `irot`: turned anticlockwise by `quarters` × 90°.
        case rotate(quarters: Int)
        /// `imir`: mirrored, `axis` as the file states it (see `HEIFTileDecoding.decode`).
        case mirror(axis: Int)
    }

    /// The coded image's size (the grid's output size), before the transformations.
    var width: Int
    var height: Int
    var columns: Int
    var rows: Int
    var tileWidth: Int
    var tileHeight: Int
    /// Each tile's bytes (length-prefixed NAL units), in row order.
    var tiles: [Range<Int>]
    /// The VPS, SPS and PPS NAL units of the `hvcC` every tile shares.
    var parameterSets: [Range<Int>]
    /// Bytes of each NAL unit's length prefix in the tiles' data (1, 2 or 4).
    var lengthSize: Int
    var transforms: [Transform]
    var matrix: YCbCrMatrix

    /// The most tiles read: a 256×256 grid.
    static let maxTiles = 65_536

    /// The layout of `bytes`' primary image, or nil when it is not one this path decodes.
    static func read(_ bytes: [UInt8]) -> HEIFTileLayout? {
        guard let meta = BoxReader.boxes(bytes, in: 0..<bytes.count).first(where: { $0.type == "meta" }),
            meta.payload.count >= 4
        else { return nil }
        let children = BoxReader.boxes(bytes, in: (meta.payload.lowerBound + 4)..<meta.payload.upperBound)
        func child(_ type: String) -> BoxReader.Box? { children.first { $0.type == type } }
        guard let pitm = child("pitm"), let iprp = child("iprp") else { return nil }
        var pr = BoxReader.Cursor(bytes: bytes, at: pitm.payload.lowerBound, end: pitm.payload.upperBound)
        guard let pv = pr.u8(), pr.skip(3), let primary = pv == 0 ? pr.u16().map(UInt32.init) : pr.u32() else { return nil }
        let items = Dictionary(HEIFMetadata.items(bytes).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let refs = references(bytes, child("iref"))
        // An image with an alpha (or depth) item, or one whose image is a derived image of any
        // other kind, is libheif's.
        guard !refs.contains(where: { $0.type == "auxl" && $0.to.contains(primary) }) else { return nil }
        let properties = itemProperties(bytes, iprp)
        guard let primaryItem = items[primary], let primaryProps = properties[primary] else { return nil }

        var transforms: [Transform] = []
        var matrix = YCbCrMatrix.heifDefault
        for p in primaryProps {
            switch p.type {
            case "ispe", "pixi", "hvcC": continue
            case "irot":
                guard let a = bytes[safe: p.payload.lowerBound] else { return nil }
                transforms.append(.rotate(quarters: Int(a & 3)))
            case "imir":
                guard let a = bytes[safe: p.payload.lowerBound] else { return nil }
                transforms.append(.mirror(axis: Int(a & 1)))
            case "colr":
                guard let m = colourMatrix(bytes, p.payload) else { return nil }
                if let m { matrix = m }
            default: return nil  // clean aperture, and anything unknown
            }
        }

        var layout: HEIFTileLayout
        if primaryItem.type == "grid" {
            guard let range = primaryItem.range, let tileIDs = refs.first(where: { $0.type == "dimg" && $0.from == primary })?.to,
                let grid = gridDescriptor(bytes, range)
            else { return nil }
            guard tileIDs.count == grid.rows * grid.columns, tileIDs.count <= maxTiles else { return nil }
            layout = HEIFTileLayout(
                width: grid.width, height: grid.height, columns: grid.columns, rows: grid.rows, tileWidth: 0, tileHeight: 0,
                tiles: [], parameterSets: [], lengthSize: 4, transforms: transforms, matrix: matrix)
            for id in tileIDs {
                guard let tile = items[id], tile.type == "hvc1", let data = tile.range, let props = properties[id],
                    let coded = codedImage(bytes, props)
                else { return nil }
                if layout.tiles.isEmpty {
                    (layout.tileWidth, layout.tileHeight) = (coded.width, coded.height)
                    (layout.parameterSets, layout.lengthSize) = (coded.parameterSets, coded.lengthSize)
                } else {
                    // One configuration for all: the same size and the same parameter sets.
                    guard coded.width == layout.tileWidth, coded.height == layout.tileHeight, coded.lengthSize == layout.lengthSize,
                        coded.parameterSets.map({ bytes[$0] }) == layout.parameterSets.map({ bytes[$0] })
                    else { return nil }
                }
                layout.tiles.append(data)
            }
            guard layout.tileWidth * layout.columns >= layout.width, layout.tileHeight * layout.rows >= layout.height else { return nil }
        } else if primaryItem.type == "hvc1" {
            guard let data = primaryItem.range, let coded = codedImage(bytes, primaryProps) else { return nil }
            layout = HEIFTileLayout(
                width: coded.width, height: coded.height, columns: 1, rows: 1, tileWidth: coded.width, tileHeight: coded.height,
                tiles: [data], parameterSets: coded.parameterSets, lengthSize: coded.lengthSize, transforms: transforms,
                matrix: matrix)
        } else {
            return nil
        }
        guard layout.width > 0, layout.height > 0, layout.tileWidth > 0, layout.tileHeight > 0 else { return nil }
        return layout
    }

    /// The `iref` box's references, each as the file states it (ISO/IEC 14496-12 §8.11.12).
    private static func references(_ bytes: [UInt8], _ iref: BoxReader.Box?) -> [(type: String, from: UInt32, to: [UInt32])] {
        guard let iref, iref.payload.count >= 4 else { return [] }
        let wide = bytes[iref.payload.lowerBound] != 0
        return BoxReader.boxes(bytes, in: (iref.payload.lowerBound + 4)..<iref.payload.upperBound).compactMap { ref in
            var r = BoxReader.Cursor(bytes: bytes, at: ref.payload.lowerBound, end: ref.payload.upperBound)
            guard let from = wide ? r.u32() : r.u16().map(UInt32.init), let count = r.u16() else { return nil }
            var to: [UInt32] = []
            for _ in 0..<count {
                guard let id = wide ? r.u32() : r.u16().map(UInt32.init) else { return nil }
                to.append(id)
            }
            return (ref.type, from, to)
        }
    }

    /// Each item's properties, in the order `ipma` lists them (the order transformations apply).
    private static func itemProperties(_ bytes: [UInt8], _ iprp: BoxReader.Box) -> [UInt32: [BoxReader.Box]] {
        let boxes = BoxReader.boxes(bytes, in: iprp.payload)
        guard let ipco = boxes.first(where: { $0.type == "ipco" }), let ipma = boxes.first(where: { $0.type == "ipma" }) else { return [:] }
        let pool = BoxReader.boxes(bytes, in: ipco.payload)
        var r = BoxReader.Cursor(bytes: bytes, at: ipma.payload.lowerBound, end: ipma.payload.upperBound)
        guard let version = r.u8(), let f0 = r.u8(), let f1 = r.u8(), let f2 = r.u8(), let count = r.u32() else { return [:] }
        let wideIndex = (UInt32(f0) << 16 | UInt32(f1) << 8 | UInt32(f2)) & 1 != 0
        var out: [UInt32: [BoxReader.Box]] = [:]
        for _ in 0..<min(Int(count), ipma.payload.count) {
            guard let id = version < 1 ? r.u16().map(UInt32.init) : r.u32(), let n = r.u8() else { return [:] }
            var list: [BoxReader.Box] = []
            for _ in 0..<n {
                guard let index = wideIndex ? r.u16().map({ Int($0 & 0x7FFF) }) : r.u8().map({ Int($0 & 0x7F) }) else { return [:] }
                // Index 0 means "no property".
                if index > 0 {
                    guard index <= pool.count else { return [:] }
                    list.append(pool[index - 1])
                }
            }
            guard out[id] == nil else { return [:] }  // an item listed twice: let libheif judge
            out[id] = list
        }
        return out
    }

    /// A `colr` box's matrix: `.some(nil)` for an ICC profile (libheif 1.15 converts with its
    /// default matrix then), nil for a matrix this path does not convert.
    private static func colourMatrix(_ bytes: [UInt8], _ payload: Range<Int>) -> YCbCrMatrix?? {
        var r = BoxReader.Cursor(bytes: bytes, at: payload.lowerBound, end: payload.upperBound)
        guard let type = r.fourCC() else { return nil }
        guard type == "nclx" else { return type == "prof" || type == "rICC" ? .some(nil) : nil }
        guard r.u16() != nil, r.u16() != nil, let m = r.u16(), let flags = r.u8() else { return nil }
        guard let matrix = YCbCrMatrix(matrixCoefficients: Int(m), fullRange: flags & 0x80 != 0) else { return nil }
        return .some(matrix)
    }

    /// A grid descriptor (ISO/IEC 23008-12 §6.6.2.3.2).
    private static func gridDescriptor(_ bytes: [UInt8], _ range: Range<Int>) -> (rows: Int, columns: Int, width: Int, height: Int)? {
        var r = BoxReader.Cursor(bytes: bytes, at: range.lowerBound, end: range.upperBound)
        guard let version = r.u8(), version == 0, let flags = r.u8(), let rows = r.u8(), let columns = r.u8() else { return nil }
        let wide = flags & 1 != 0
        guard let w = wide ? r.u32() : r.u16().map(UInt32.init), let h = wide ? r.u32() : r.u16().map(UInt32.init) else { return nil }
        return (Int(rows) + 1, Int(columns) + 1, Int(w), Int(h))
    }

    /// A coded HEVC image's size (`ispe`) and decoder configuration (`hvcC`), when it is 8-bit
    /// 4:2:0 and carries no transformation of its own.
    private static func codedImage(
        _ bytes: [UInt8], _ props: [BoxReader.Box]
    ) -> (width: Int, height: Int, parameterSets: [Range<Int>], lengthSize: Int)? {
        var size: (Int, Int)?
        var config: ([Range<Int>], Int)?
        for p in props {
            switch p.type {
            case "ispe":
                var r = BoxReader.Cursor(bytes: bytes, at: p.payload.lowerBound, end: p.payload.upperBound)
                guard r.skip(4), let w = r.u32(), let h = r.u32() else { return nil }
                size = (Int(w), Int(h))
            case "hvcC":
                guard let c = hevcConfiguration(bytes, p.payload) else { return nil }
                config = c
            case "pixi", "colr": continue
            default: return nil
            }
        }
        guard let (w, h) = size, let (sets, lengthSize) = config else { return nil }
        return (w, h, sets, lengthSize)
    }

    /// An `hvcC` box (ISO/IEC 14496-15 §8.3.3): its parameter-set NAL units and length size,
    /// when the stream is 4:2:0 at 8 bits.
    private static func hevcConfiguration(_ bytes: [UInt8], _ payload: Range<Int>) -> ([Range<Int>], Int)? {
        var r = BoxReader.Cursor(bytes: bytes, at: payload.lowerBound, end: payload.upperBound)
        guard r.skip(8), r.skip(8), let chroma = r.u8(), let lumaBits = r.u8(), let chromaBits = r.u8(), r.skip(2),
            let lengthByte = r.u8(), let arrays = r.u8()
        else { return nil }
        guard chroma & 3 == 1, lumaBits & 7 == 0, chromaBits & 7 == 0 else { return nil }
        let lengthSize = Int(lengthByte & 3) + 1
        guard lengthSize != 3 else { return nil }
        var sets: [Range<Int>] = []
        for _ in 0..<arrays {
            guard r.skip(1), let n = r.u16() else { return nil }
            for _ in 0..<n {
                guard let len = r.u16() else { return nil }
                guard len > 0, Int(len) <= r.end - r.at else { return nil }
                sets.append(r.at..<(r.at + Int(len)))
                r.at += Int(len)
            }
        }
        return sets.isEmpty ? nil : (sets, lengthSize)
    }
}

enum HEIFTileDecoding {
    /// The image of `layout` reduced by `d` (2, 4 or 8): each output pixel the mean of a d×d box
    /// (fewer at the right and bottom edges), in the displayed orientation. Nil when a tile does
    /// not decode as the layout says, or the tiles' sides are not multiples of `d`.
    static func decode(_ bytes: [UInt8], layout: HEIFTileLayout, by d: Int, threads: Int) -> RGBAImage? {
        precondition(d == 2 || d == 4 || d == 8, "reduction must be 2, 4 or 8")
        // Each output pixel then lies in one tile, so tiles are reduced side by side, unlocked.
        guard layout.tiles.count == 1 || (layout.tileWidth % d == 0 && layout.tileHeight % d == 0) else { return nil }
        guard LazyLibraries.missing([TECHO_LAZY_DE265]) == nil else { return nil }
        let (w, h) = (layout.width, layout.height)
        let ow = (w + d - 1) / d, oh = (h + d - 1) / d
        let sums = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: ow * oh * 3)
        sums.initialize(repeating: 0)
        defer { sums.deallocate() }
        let workers = max(1, min(threads, layout.tiles.count))
        var failed = [Bool](repeating: false, count: workers)
        let skipFilters = d >= 4
        failed.withUnsafeMutableBufferPointer { failedOut in
            let failedBase = failedOut.baseAddress!
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                var t = worker
                while t < layout.tiles.count {
                    let (col, row) = (t % layout.columns, t / layout.columns)
                    let ok = decodeTile(
                        bytes, layout.tiles[t], layout: layout, skipFilters: skipFilters,
                        origin: (col * layout.tileWidth, row * layout.tileHeight), by: d, into: sums, outputWidth: ow)
                    if !ok {
                        failedBase[worker] = true
                        return
                    }
                    t += workers
                }
            }
        }
        guard !failed.contains(true) else { return nil }
        var out = [UInt8](repeating: 255, count: ow * oh * 4)
        out.withUnsafeMutableBufferPointer { dst in
            for oy in 0..<oh {
                let rows = Float(min(d, h - oy * d))
                for ox in 0..<ow {
                    let n = Float(min(d, w - ox * d)) * rows
                    let s = (oy * ow + ox) * 3
                    let (r, g, b) = layout.matrix.rgb(y: Float(sums[s]) / n, cb: Float(sums[s + 1]) / n, cr: Float(sums[s + 2]) / n)
                    let o = (oy * ow + ox) * 4
                    dst[o] = r
                    dst[o + 1] = g
                    dst[o + 2] = b
                }
            }
        }
        var image = RGBAImage(width: ow, height: oh, bytes: out)
        for t in layout.transforms {
            switch t {
            case .rotate(let q): image = image.applying([.up, .left, .down, .right][q & 3])
            // libheif 1.15 reads axis 0 as "mirror vertically" (top and bottom swap), the
            // reading of the first edition of ISO/IEC 23008-12; what techo shows must not
            // depend on which path decoded the file, so it is read the same here.
            case .mirror(let axis): image = image.applying(axis == 0 ? .downMirrored : .upMirrored)
            }
        }
        return image
    }

    /// Decodes one tile with its own libde265 decoder and adds its pixels to the sums of the
    /// output pixels it covers. False when libde265 refuses it or gives other than 8-bit 4:2:0
    /// of at least the tile's size.
    private static func decodeTile(
        _ bytes: [UInt8], _ data: Range<Int>, layout: HEIFTileLayout, skipFilters: Bool,
        origin: (x: Int, y: Int), by d: Int, into sums: UnsafeMutableBufferPointer<UInt32>, outputWidth ow: Int
    ) -> Bool {
        let rw = min(layout.tileWidth, layout.width - origin.x), rh = min(layout.tileHeight, layout.height - origin.y)
        guard rw > 0, rh > 0 else { return true }  // a tile wholly past the grid's edge shows nothing
        guard let ctx = de265_new_decoder() else { return false }
        defer { _ = de265_free_decoder(ctx) }
        de265_set_parameter_bool(ctx, DE265_DECODER_PARAM_DISABLE_DEBLOCKING, skipFilters ? 1 : 0)
        de265_set_parameter_bool(ctx, DE265_DECODER_PARAM_DISABLE_SAO, skipFilters ? 1 : 0)
        let pushed: Bool = bytes.withUnsafeBufferPointer { buf in
            let base = buf.baseAddress!
            for ps in layout.parameterSets where de265_isOK(de265_push_NAL(ctx, base + ps.lowerBound, Int32(ps.count), 0, nil)) == 0 {
                return false
            }
            var i = data.lowerBound
            while i < data.upperBound {
                guard i + layout.lengthSize <= data.upperBound else { return false }
                var len = 0
                for k in 0..<layout.lengthSize { len = len << 8 | Int(base[i + k]) }
                i += layout.lengthSize
                guard len > 0, len <= data.upperBound - i else { return false }
                guard de265_isOK(de265_push_NAL(ctx, base + i, Int32(len), 0, nil)) != 0 else { return false }
                i += len
            }
            return de265_isOK(de265_flush_data(ctx)) != 0
        }
        guard pushed else { return false }
        var more: Int32 = 1
        var picture: OpaquePointer?
        while more != 0 && picture == nil {
            let err = de265_decode(ctx, &more)
            if de265_isOK(err) == 0 && err != DE265_ERROR_WAITING_FOR_INPUT_DATA { return false }
            picture = de265_get_next_picture(ctx)
        }
        guard let img = picture ?? de265_get_next_picture(ctx), de265_get_chroma_format(img) == de265_chroma_420,
            (0..<3).allSatisfy({ de265_get_bits_per_pixel(img, Int32($0)) == 8 }),
            Int(de265_get_image_width(img, 0)) >= rw, Int(de265_get_image_height(img, 0)) >= rh,
            Int(de265_get_image_width(img, 1)) >= (rw + 1) / 2, Int(de265_get_image_height(img, 1)) >= (rh + 1) / 2,
            Int(de265_get_image_width(img, 2)) >= (rw + 1) / 2, Int(de265_get_image_height(img, 2)) >= (rh + 1) / 2
        else { return false }
        var ys: Int32 = 0, cbs: Int32 = 0, crs: Int32 = 0
        guard let yp = de265_get_image_plane(img, 0, &ys), let cbp = de265_get_image_plane(img, 1, &cbs),
            let crp = de265_get_image_plane(img, 2, &crs)
        else { return false }
        // Rows of the tile, each added to the output row it falls in; a run of up to d pixels
        // of a row goes to one output pixel.
        for y in 0..<rh {
            let gy = origin.y + y
            let yr = yp + y * Int(ys), cbr = cbp + (y >> 1) * Int(cbs), crr = crp + (y >> 1) * Int(crs)
            let rowBase = (gy / d) * ow * 3
            var x = 0
            while x < rw {
                let gx = origin.x + x
                let end = min(rw, x + (d - gx % d))
                var sy: UInt32 = 0, sb: UInt32 = 0, sr: UInt32 = 0
                while x < end {
                    sy &+= UInt32(yr[x])
                    sb &+= UInt32(cbr[x >> 1])
                    sr &+= UInt32(crr[x >> 1])
                    x += 1
                }
                let s = rowBase + (gx / d) * 3
                sums[s] &+= sy
                sums[s + 1] &+= sb
                sums[s + 2] &+= sr
            }
        }
        return true
    }
}
