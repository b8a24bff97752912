// techo's own PNG writer: rows are packed and filtered (libpng's adaptive choice: the filter with
// the least sum of absolute residuals, unless a trial on the band's first rows finds no filter
// compresses better), compressed by libdeflate in bands on every core, and the
// bands are joined into one zlib stream (see PNGDeflateSplice); chunks and CRCs are written here.
// Band boundaries depend only on the image size, never on the number of cores, so the bytes are
// the same on every machine. libpng's writer stays as the reference (PNGEncoder.encodeWithLibPNG):
// both decode to the same pixels.
import CLibDeflate
import Dispatch
import TechoRaster

enum PNGWriter {
    /// Filtered bytes per band (rounded to whole rows): large enough that a band's fresh LZ77
    /// window costs little, small enough to share out over cores.
    static let bandBytes = 1 << 21

    /// Rows per band of an image `width` pixels wide with `channels` channels.
    static func bandRows(width: Int, channels: Int) -> Int { max(1, bandBytes / (width * channels + 1)) }

    /// A band of a PNG this writer made, kept as it is in the file: its piece of the deflate
    /// stream (continuable unless it is the last band) and the Adler-32 and length of the
    /// filtered bytes it decompresses to.
    struct KeptBand {
        var piece: [UInt8]
        var adler: UInt32
        var count: Int
    }

    /// Encodes `height` rows; `row(y, out)` writes row y's packed bytes (width × channels).
    /// Bands in `kept` are taken as they are, not filtered nor compressed (their rows are not
    /// asked for, but for the row just above a band that is made): the file is the one all
    /// rows would give when each kept band holds what those rows compress to.
    static func encode(
        width: Int, height: Int, channels: Int, level: Int, filter: PNGEncoder.Filter, ppm: UInt32,
        bandRows: Int? = nil, kept: [Int: KeptBand] = [:], row: (Int, UnsafeMutablePointer<UInt8>) -> Void
    ) -> [UInt8] {
        precondition(channels == 3 || channels == 4, "PNG channels must be 3 or 4")
        let stride = width * channels
        let rows = bandRows ?? Self.bandRows(width: width, channels: channels)
        let bands = (height + rows - 1) / rows
        var pieces = [[UInt8]](repeating: [], count: bands)
        var adlers = [(UInt32, Int)](repeating: (1, 0), count: bands)
        pieces.withUnsafeMutableBufferPointer { piecesOut in
            adlers.withUnsafeMutableBufferPointer { adlerOut in
                let piecesBase = piecesOut.baseAddress!, adlerBase = adlerOut.baseAddress!
                DispatchQueue.concurrentPerform(iterations: bands) { b in
                    if let k = kept[b] {
                        piecesBase[b] = k.piece
                        adlerBase[b] = (k.adler, k.count)
                        return
                    }
                    let y0 = b * rows, y1 = min(height, y0 + rows)
                    let filtered = filterBand(y0: y0, y1: y1, stride: stride, bpp: channels, filter: filter, row: row)
                    let compressed = deflate(filtered, level: level)
                    let adler = filtered.withUnsafeBytes { UInt32(libdeflate_adler32(1, $0.baseAddress, $0.count)) }
                    // Every band but the last must let the next one continue the stream.
                    piecesBase[b] = b == bands - 1 ? compressed : DeflateSplice.continuable(compressed) ?? []
                    adlerBase[b] = (adler, filtered.count)
                }
            }
        }
        precondition(!pieces.contains { $0.isEmpty }, "libdeflate wrote a stream the splicer cannot read")
        var adler = adlers[0].0
        for (a, n) in adlers.dropFirst() { adler = combineAdler32(adler, a, n) }

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(pieces.reduce(128) { $0 + $1.count + 12 })
        var ihdr = be32(UInt32(width)) + be32(UInt32(height))
        ihdr += [8, channels == 4 ? 6 : 2, 0, 0, 0]
        chunk("IHDR", ihdr, into: &png)
        chunk("sRGB", [0], into: &png)  // perceptual
        if ppm > 0 { chunk("pHYs", be32(ppm) + be32(ppm) + [1], into: &png) }
        // One IDAT per band: the zlib header opens the first, the Adler-32 closes the last. Each
        // piece is dropped once written, so the compressed page is held about twice, not thrice.
        let zlibHeader: [UInt8] = [0x78, level >= 7 ? 0xDA : level >= 6 ? 0x9C : level >= 2 ? 0x5E : 0x01]
        let trailer = be32(adler)
        for b in 0..<bands {
            var data = b == 0 ? zlibHeader + pieces[b] : pieces[b]
            if b == bands - 1 { data += trailer }
            pieces[b] = []
            chunk("IDAT", data, into: &png)
        }
        chunk("IEND", [], into: &png)
        return png
    }

    /// The bands of `png`, a file `encode` wrote for an image of this size, channel count,
    /// level and pixel density (any other chunk, such as a render stamp, is passed over), each
    /// decompressed once to learn its Adler-32 and checked to hold exactly its rows' bytes and
    /// to end where the stream's Adler-32 says. Nil when `png` is not such a file.
    static func keptBands(of png: [UInt8], width: Int, height: Int, channels: Int, level: Int, ppm: UInt32) -> [KeptBand]? {
        guard width > 0, height > 0, png.count > 8, png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        var ihdr = be32(UInt32(width)) + be32(UInt32(height))
        ihdr += [8, channels == 4 ? 6 : 2, 0, 0, 0]
        var idats: [Range<Int>] = []
        var sawIHDR = false, sawPHYs = false, ended = false
        var at = 8
        while at + 12 <= png.count, !ended {
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            guard length <= png.count - at - 12 else { return nil }
            let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            let data = (at + 8)..<(at + 8 + length)
            switch type {
            case "IHDR":
                guard !sawIHDR, Array(png[data]) == ihdr else { return nil }
                sawIHDR = true
            case "pHYs":
                guard Array(png[data]) == be32(ppm) + be32(ppm) + [1] else { return nil }
                sawPHYs = true
            case "IDAT": idats.append(data)
            case "IEND": ended = true
            default: break
            }
            at += 12 + length
        }
        let stride = width * channels, rows = bandRows(width: width, channels: channels)
        let bands = (height + rows - 1) / rows
        guard sawIHDR, ended, sawPHYs == (ppm > 0), idats.count == bands else { return nil }
        let zlibHeader: [UInt8] = [0x78, level >= 7 ? 0xDA : level >= 6 ? 0x9C : level >= 2 ? 0x5E : 0x01]
        guard png[idats[0]].starts(with: zlibHeader), idats[bands - 1].count >= (bands == 1 ? 6 : 4) else { return nil }
        var out = [KeptBand?](repeating: nil, count: bands)
        out.withUnsafeMutableBufferPointer { o in
            let base = o.baseAddress!
            DispatchQueue.concurrentPerform(iterations: bands) { b in
                var r = idats[b]
                if b == 0 { r = (r.lowerBound + 2)..<r.upperBound }
                if b == bands - 1 { r = r.lowerBound..<(r.upperBound - 4) }
                let piece = Array(png[r])
                let count = (min(height, (b + 1) * rows) - b * rows) * (stride + 1)
                // A band but the last ends its piece unfinished: an empty final block ends it.
                let whole = b == bands - 1 ? piece : piece + [0x03, 0x00]
                guard let adler = inflatedAdler(whole, count: count) else { return }
                base[b] = KeptBand(piece: piece, adler: adler, count: count)
            }
        }
        let kept = out.compactMap { $0 }
        guard kept.count == bands else { return nil }
        var adler = kept[0].adler
        for k in kept.dropFirst() { adler = combineAdler32(adler, k.adler, k.count) }
        let t = idats[bands - 1].upperBound
        guard be32(adler) == Array(png[(t - 4)..<t]) else { return nil }
        return kept
    }

    /// The Adler-32 of what the raw deflate stream `stream` decompresses to, when that is
    /// exactly `count` bytes; nil otherwise.
    private static func inflatedAdler(_ stream: [UInt8], count: Int) -> UInt32? {
        guard let d = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(d) }
        var written = 0
        var out = [UInt8](unsafeUninitializedCapacity: count) { _, n in n = count }
        let result = stream.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                libdeflate_deflate_decompress(d, src.baseAddress, src.count, dst.baseAddress, dst.count, &written)
            }
        }
        guard result == LIBDEFLATE_SUCCESS, written == count else { return nil }
        return out.withUnsafeBytes { UInt32(libdeflate_adler32(1, $0.baseAddress, $0.count)) }
    }

    /// Rows y0..<y1 packed and filtered: one filter-type byte then `stride` bytes per row.
    private static func filterBand(
        y0: Int, y1: Int, stride: Int, bpp: Int, filter requested: PNGEncoder.Filter,
        row: (Int, UnsafeMutablePointer<UInt8>) -> Void
    ) -> [UInt8] {
        var filter = requested
        if requested == .adaptive {
            // The least-residual heuristic filters flat colour, ruled paper and repeated
            // textures that LZ77 would match better unfiltered: let a trial on the band's first
            // rows decide between the heuristic and no filtering at all.
            let sample = min(y1, y0 + sampleRows)
            let unfiltered = filterRows(y0: y0, y1: sample, stride: stride, bpp: bpp, filter: .none, row: row)
            let heuristic = filterRows(y0: y0, y1: sample, stride: stride, bpp: bpp, filter: .adaptive, row: row)
            if deflate(unfiltered, level: 1).count <= deflate(heuristic, level: 1).count { filter = .none }
        }
        return filterRows(y0: y0, y1: y1, stride: stride, bpp: bpp, filter: filter, row: row)
    }

    /// Rows a band's filter trial compresses both ways.
    static let sampleRows = 24

    /// Rows y0..<y1 packed and filtered with `filter` as asked.
    private static func filterRows(
        y0: Int, y1: Int, stride: Int, bpp: Int, filter: PNGEncoder.Filter,
        row: (Int, UnsafeMutablePointer<UInt8>) -> Void
    ) -> [UInt8] {
        // Every byte is written below (a type byte and the filtered row, row by row).
        var out = [UInt8](unsafeUninitializedCapacity: (y1 - y0) * (stride + 1)) { _, n in n = (y1 - y0) * (stride + 1) }
        var prev = [UInt8](repeating: 0, count: stride), cur = [UInt8](repeating: 0, count: stride)
        out.withUnsafeMutableBufferPointer { o in
            prev.withUnsafeMutableBufferPointer { pp in
                cur.withUnsafeMutableBufferPointer { cp in
                    var p = pp.baseAddress!, c = cp.baseAddress!
                    if y0 > 0 { row(y0 - 1, p) }  // filters look at the row above, even across bands
                    for y in y0..<y1 {
                        row(y, c)
                        filterRow(
                            c, prev: p, stride: stride, bpp: bpp, filter: filter, first: y == 0,
                            out: o.baseAddress! + (y - y0) * (stride + 1))
                        swap(&p, &c)
                    }
                }
            }
        }
        return out
    }

    /// Writes the filter type byte and the filtered row to `out`.
    static func filterRow(
        _ x: UnsafeMutablePointer<UInt8>, prev: UnsafeMutablePointer<UInt8>, stride n: Int, bpp: Int,
        filter: PNGEncoder.Filter, first: Bool, out: UnsafeMutablePointer<UInt8>
    ) {
        var type: UInt8
        switch filter {
        case .none: type = 0
        case .sub: type = 1
        case .up: type = 2
        case .average: type = 3
        case .paeth: type = 4
        case .adaptive:
            // Sum of |residual| as signed bytes for each filter; the least wins (ties: lowest type).
            // The first row has no row above: Up is None and Paeth is Sub, as libpng treats it.
            let sums =
                first
                ? [residualSum(x, prev, n, bpp, 0, true), residualSum(x, prev, n, bpp, 1, true)]
                : residualSums(x, prev, n, bpp)
            type = 0
            for t in 1..<sums.count where sums[t] < sums[Int(type)] { type = UInt8(t) }
        }
        out[0] = type
        let o = out + 1
        let zero = first
        switch type {
        case 0: o.update(from: x, count: n)
        case 1:
            for i in 0..<min(bpp, n) { o[i] = x[i] }
            var i = bpp
            while i < n { o[i] = x[i] &- x[i - bpp]; i += 1 }
        case 2:
            if zero { o.update(from: x, count: n) } else { for i in 0..<n { o[i] = x[i] &- prev[i] } }
        case 3:
            for i in 0..<min(bpp, n) { o[i] = x[i] &- (zero ? 0 : prev[i] >> 1) }
            var i = bpp
            while i < n {
                let b = zero ? 0 : UInt16(prev[i])
                o[i] = x[i] &- UInt8((UInt16(x[i - bpp]) + b) >> 1)
                i += 1
            }
        default:
            for i in 0..<min(bpp, n) { o[i] = x[i] &- (zero ? 0 : prev[i]) }
            var i = bpp
            while i < n {
                o[i] = x[i] &- (zero ? x[i - bpp] : paeth(x[i - bpp], prev[i], prev[i - bpp]))
                i += 1
            }
        }
    }

    @inline(__always) private static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int32(a), ib = Int32(b), ic = Int32(c)
        let pa = abs(ib - ic), pb = abs(ia - ic), pc = abs(ia + ib - 2 * ic)
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }

    /// The heuristic cost of all five filters on a row that has a row above, in one pass.
    private static func residualSums(_ x: UnsafeMutablePointer<UInt8>, _ prev: UnsafeMutablePointer<UInt8>, _ n: Int, _ bpp: Int)
        -> [Int]
    {
        @inline(__always) func cost(_ r: Int32) -> Int32 { abs(Int32(Int8(truncatingIfNeeded: r))) }
        var s0: Int32 = 0, s1: Int32 = 0, s2: Int32 = 0, s3: Int32 = 0, s4: Int32 = 0
        var total = [0, 0, 0, 0, 0]
        for i in 0..<min(bpp, n) {
            let v = Int32(x[i]), b = Int32(prev[i])
            s0 &+= cost(v); s1 &+= cost(v); s2 &+= cost(v &- b); s3 &+= cost(v &- b >> 1); s4 &+= cost(v &- b)
        }
        var i = bpp
        while i < n {
            // Sums of at most 4096 bytes of at most 128 each fit an Int32; flush every 4096.
            let end = min(n, i + 4096)
            while i < end {
                let v = Int32(x[i]), a = Int32(x[i - bpp]), b = Int32(prev[i]), c = Int32(prev[i - bpp])
                let pa = abs(b &- c), pb = abs(a &- c), pc = abs(a &+ b &- 2 &* c)
                let pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                s0 &+= cost(v)
                s1 &+= cost(v &- a)
                s2 &+= cost(v &- b)
                s3 &+= cost(v &- (a &+ b) >> 1)
                s4 &+= cost(v &- pred)
                i += 1
            }
            total[0] += Int(s0); total[1] += Int(s1); total[2] += Int(s2); total[3] += Int(s3); total[4] += Int(s4)
            (s0, s1, s2, s3, s4) = (0, 0, 0, 0, 0)
        }
        total[0] += Int(s0); total[1] += Int(s1); total[2] += Int(s2); total[3] += Int(s3); total[4] += Int(s4)
        return total
    }

    /// libpng's heuristic cost of filter `t` on the row: Σ min(r, 256 − r) over residuals r.
    private static func residualSum(
        _ x: UnsafeMutablePointer<UInt8>, _ prev: UnsafeMutablePointer<UInt8>, _ n: Int, _ bpp: Int,
        _ t: UInt8, _ first: Bool
    ) -> Int {
        @inline(__always) func cost(_ r: UInt8) -> Int { Int(abs(Int32(Int8(bitPattern: r)))) }
        var sum = 0
        switch t {
        case 0: for i in 0..<n { sum &+= cost(x[i]) }
        case 1:
            for i in 0..<min(bpp, n) { sum &+= cost(x[i]) }
            var i = bpp
            while i < n { sum &+= cost(x[i] &- x[i - bpp]); i += 1 }
        case 2: for i in 0..<n { sum &+= cost(x[i] &- prev[i]) }
        case 3:
            for i in 0..<min(bpp, n) { sum &+= cost(x[i] &- prev[i] >> 1) }
            var i = bpp
            while i < n { sum &+= cost(x[i] &- UInt8((UInt16(x[i - bpp]) + UInt16(prev[i])) >> 1)); i += 1 }
        default:
            for i in 0..<min(bpp, n) { sum &+= cost(x[i] &- prev[i]) }
            var i = bpp
            while i < n { sum &+= cost(x[i] &- paeth(x[i - bpp], prev[i], prev[i - bpp])); i += 1 }
        }
        return sum
    }

    /// A raw deflate stream of `data` (libdeflate at `level`, 0 stores).
    private static func deflate(_ data: [UInt8], level: Int) -> [UInt8] {
        guard let c = libdeflate_alloc_compressor(Int32(level)) else { fatalError("libdeflate: out of memory") }
        defer { libdeflate_free_compressor(c) }
        let bound = libdeflate_deflate_compress_bound(c, data.count)
        // libdeflate writes the first n bytes; the array keeps only those.
        return [UInt8](unsafeUninitializedCapacity: bound) { dst, count in
            count = data.withUnsafeBytes { src in
                libdeflate_deflate_compress(c, src.baseAddress, src.count, dst.baseAddress, dst.count)
            }
            precondition(count > 0, "libdeflate: output larger than its own bound")
        }
    }

    /// Adler-32 of A followed by B, from adler(A), adler(B) and B's length (zlib's adler32_combine).
    static func combineAdler32(_ a: UInt32, _ b: UInt32, _ lengthB: Int) -> UInt32 {
        let base: UInt64 = 65521
        let rem = UInt64(lengthB) % base
        var sum1 = UInt64(a & 0xFFFF)
        var sum2 = (rem * sum1) % base
        sum1 += UInt64(b & 0xFFFF) + base - 1
        sum2 += UInt64(a >> 16) + UInt64(b >> 16) + base - rem
        if sum1 >= base { sum1 -= base }
        if sum1 >= base { sum1 -= base }
        if sum2 >= base << 1 { sum2 -= base << 1 }
        if sum2 >= base { sum2 -= base }
        return UInt32(sum2 << 16 | sum1)
    }

    private static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    private static func chunk<C: Collection>(_ type: String, _ data: C, into png: inout [UInt8]) where C.Element == UInt8 {
        png += be32(UInt32(data.count))
        let start = png.count
        png += Array(type.utf8)
        png += data
        let crc = png[start...].withContiguousStorageIfAvailable { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }!
        png += be32(crc)
    }
}
