// Joining independently compressed deflate streams into one, so bands of a PNG can be compressed
// in parallel by libdeflate (which only writes whole streams): walk a stream's blocks (RFC 1951,
// decoding Huffman symbols without producing output) to find where its final block starts and
// where its end-of-block code ends, clear that block's BFINAL bit, and end the piece with an
// empty stored block, as zlib's Z_SYNC_FLUSH does, so the next stream starts on a byte boundary.
// The joined stream decodes to the concatenation of the pieces; no piece refers back to another.

/// The final block of a deflate stream: the bit where its header starts and the bit just past
/// its end-of-block code (or stored data).
struct DeflateFinalBlock: Equatable {
    var headerBit: Int
    var endBit: Int
}

enum DeflateSplice {
    /// A deflate stream made non-final and byte-aligned: the next stream can follow it directly.
    /// Returns nil when `stream` is not a well-formed deflate stream.
    static func continuable(_ stream: [UInt8]) -> [UInt8]? {
        guard let last = finalBlock(of: stream) else { return nil }
        var out = Array(stream[0..<((last.endBit + 7) / 8)])
        out[last.headerBit >> 3] &= ~UInt8(1 << (last.headerBit & 7))  // BFINAL = 0
        // Clear the padding after the end-of-block code, then an empty stored block: 3 header
        // bits (BFINAL 0, BTYPE 00), padding to the byte, LEN 0000, NLEN FFFF.
        if last.endBit & 7 != 0 { out[out.count - 1] &= UInt8((1 << (last.endBit & 7)) - 1) }
        if (last.endBit & 7) == 0 || (last.endBit & 7) > 5 { out.append(0) }
        out += [0x00, 0x00, 0xFF, 0xFF]
        return out
    }

    /// Walks the stream's blocks to its final one. Nil when the data is malformed or truncated.
    static func finalBlock(of stream: [UInt8]) -> DeflateFinalBlock? {
        stream.withUnsafeBufferPointer { p in
            var r = BitReader(p)
            while true {
                let header = r.pos
                guard let final = r.take(1), let type = r.take(2) else { return nil }
                switch type {
                case 0:
                    r.pos = (r.pos + 7) & ~7
                    guard let len = r.take(16), let nlen = r.take(16), len ^ nlen == 0xFFFF else { return nil }
                    r.pos += Int(len) * 8
                    guard r.pos <= r.bitCount else { return nil }
                case 1:
                    guard skipSymbols(&r, HuffmanTable.fixedLiteral, HuffmanTable.fixedDistance) else { return nil }
                case 2:
                    guard let (lit, dist) = dynamicTables(&r), skipSymbols(&r, lit, dist) else { return nil }
                default:
                    return nil
                }
                if final == 1 { return DeflateFinalBlock(headerBit: header, endBit: r.pos) }
            }
        }
    }

    /// The order code-length code lengths are stored in.
    private static let lengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private static func dynamicTables(_ r: inout BitReader) -> (HuffmanTable, HuffmanTable)? {
        guard let hlit = r.take(5), let hdist = r.take(5), let hclen = r.take(4) else { return nil }
        let nlit = Int(hlit) + 257, ndist = Int(hdist) + 1
        guard nlit <= 286, ndist <= 30 else { return nil }
        var codeLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<(Int(hclen) + 4) {
            guard let l = r.take(3) else { return nil }
            codeLengths[lengthOrder[i]] = UInt8(l)
        }
        guard let lengthCode = HuffmanTable(lengths: codeLengths) else { return nil }
        var lengths: [UInt8] = []
        lengths.reserveCapacity(nlit + ndist)
        while lengths.count < nlit + ndist {
            guard let sym = r.decode(lengthCode) else { return nil }
            switch sym {
            case 0...15: lengths.append(UInt8(sym))
            case 16:
                guard let prev = lengths.last, let n = r.take(2) else { return nil }
                lengths += repeatElement(prev, count: 3 + Int(n))
            case 17:
                guard let n = r.take(3) else { return nil }
                lengths += repeatElement(0, count: 3 + Int(n))
            default:
                guard let n = r.take(7) else { return nil }
                lengths += repeatElement(0, count: 11 + Int(n))
            }
        }
        guard lengths.count == nlit + ndist, lengths[256] != 0,
            let lit = HuffmanTable(lengths: Array(lengths[0..<nlit])),
            let dist = HuffmanTable(lengths: Array(lengths[nlit...]))
        else { return nil }
        return (lit, dist)
    }

    /// Skips literal/length and distance symbols up to and including end-of-block.
    private static func skipSymbols(_ r: inout BitReader, _ lit: HuffmanTable, _ dist: HuffmanTable) -> Bool {
        lit.entries.withUnsafeBufferPointer { litTable in
            dist.entries.withUnsafeBufferPointer { distTable in
                let litBits = lit.bits, distBits = dist.bits
                while true {
                    // Tables have 1 << bits entries, so the peeked index is always inside.
                    let e = litTable[Int(r.peek(litBits))]
                    let len = Int(e & 15)
                    guard len != 0 else { return false }
                    r.pos += len
                    let sym = Int(e >> 4)
                    if sym < 256 {
                        if r.pos > r.bitCount { return false }
                        continue
                    }
                    if sym == 256 { return r.pos <= r.bitCount }
                    let l = sym - 257
                    guard l <= 28 else { return false }
                    r.pos += l < 8 || l == 28 ? 0 : (l >> 2) - 1  // length extra bits
                    let de = distTable[Int(r.peek(distBits))]
                    let dlen = Int(de & 15), d = Int(de >> 4)
                    guard dlen != 0, d < 30 else { return false }
                    r.pos += dlen + (d < 4 ? 0 : d / 2 - 1)
                    guard r.pos <= r.bitCount else { return false }
                }
            }
        }
    }
}

/// Reads bits least-significant first, as deflate packs them.
private struct BitReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var pos = 0
    let bitCount: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        bitCount = bytes.count * 8
    }

    /// The next `n` ≤ 32 bits without consuming them (zeros past the end).
    func peek(_ n: Int) -> UInt32 {
        var byte = pos >> 3
        var v: UInt64 = 0
        if byte + 8 <= bytes.count {
            v = UnsafeRawPointer(bytes.baseAddress! + byte).loadUnaligned(as: UInt64.self).littleEndian
        } else {
            var shift: UInt64 = 0
            while byte < bytes.count && shift < 64 { v |= UInt64(bytes[byte]) << shift; byte += 1; shift += 8 }
        }
        return UInt32(truncatingIfNeeded: (v >> UInt64(pos & 7)) & ((1 << UInt64(n)) - 1))
    }

    mutating func take(_ n: Int) -> UInt32? {
        guard pos + n <= bitCount else { return nil }
        defer { pos += n }
        return peek(n)
    }

    /// One Huffman symbol; nil for a code the table does not hold or past the end.
    mutating func decode(_ t: HuffmanTable) -> Int? {
        let e = t.entries[Int(peek(t.bits))]
        let len = Int(e & 15)
        guard len != 0, pos + len <= bitCount else { return nil }
        pos += len
        return Int(e >> 4)
    }
}

/// A canonical Huffman code as a direct lookup table indexed by the next `bits` stream bits
/// (bit-reversed codes): each entry is symbol << 4 | code length, 0 for unused codes.
private struct HuffmanTable {
    let bits: Int
    let entries: [UInt32]

    init?(lengths: [UInt8]) {
        let maxLen = Int(lengths.max() ?? 0)
        guard maxLen <= 15 else { return nil }
        bits = max(1, maxLen)
        var count = [Int](repeating: 0, count: 16)
        for l in lengths where l > 0 { count[Int(l)] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for len in 1...15 {
            code = (code + count[len - 1]) << 1
            next[len] = code
        }
        var table = [UInt32](repeating: 0, count: 1 << bits)
        for (sym, l8) in lengths.enumerated() where l8 > 0 {
            let l = Int(l8)
            let c = next[l]
            next[l] += 1
            guard c < (1 << l) else { return nil }  // over-subscribed
            var rev = 0
            for i in 0..<l where c & (1 << i) != 0 { rev |= 1 << (l - 1 - i) }
            var i = rev
            while i < table.count {
                table[i] = UInt32(sym << 4 | l)
                i += 1 << l
            }
        }
        entries = table
    }

    static let fixedLiteral = HuffmanTable(lengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })!
    static let fixedDistance = HuffmanTable(lengths: [UInt8](repeating: 5, count: 32))!
}
