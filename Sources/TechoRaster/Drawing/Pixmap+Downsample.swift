// Prefiltering for shrinking images: area averaging over nx×ny boxes (a mipmap level when both
// are the same power of two), so an image drawn at 1/8 does not alias.

extension Pixmap {
    /// This image shrunk by a whole factor `n`: each output pixel is the rounded mean of an n×n
    /// box of premultiplied pixels (fewer at the right and bottom edges when the size is not a
    /// multiple of n). The size is `ceil(width / n) × ceil(height / n)`. Traps unless `n ≥ 1`.
    ///
    /// - Complexity: O(width × height), one pass over the source.
    public func downsampled(by n: Int) -> Pixmap {
        downsampled(byX: n, byY: n)
    }

    /// The most a downsample may shrink along one axis: 4096² boxes of 255 still sum in 32 bits.
    public static let maxDownsampleFactor = 4096

    /// This image shrunk by whole factors `nx` across and `ny` down: each output pixel is the
    /// rounded mean of an nx×ny box (smaller at the right and bottom edges). The size is
    /// `ceil(width / nx) × ceil(height / ny)`. Traps unless both are in
    /// `1...maxDownsampleFactor`.
    public func downsampled(byX nx: Int, byY ny: Int) -> Pixmap {
        precondition(
            nx >= 1 && ny >= 1 && nx <= Pixmap.maxDownsampleFactor && ny <= Pixmap.maxDownsampleFactor,
            "downsample factors must be in 1...\(Pixmap.maxDownsampleFactor), got \(nx)x\(ny)")
        if nx == 1 && ny == 1 { return self }
        let n = nx
        let ow = (width + nx - 1) / nx, oh = (height + ny - 1) / ny
        var out = Pixmap(width: ow, height: oh)
        let w = width, h = height
        var sums = [UInt32](repeating: 0, count: ow * 4)
        data.withUnsafeBufferPointer { src in
            out.data.withUnsafeMutableBufferPointer { dst in
                sums.withUnsafeMutableBufferPointer { acc in
                    for oy in 0..<oh {
                        for i in 0..<acc.count { acc[i] = 0 }
                        let y0 = oy * ny, y1 = min(h, y0 + ny)
                        for y in y0..<y1 {
                            var p = y * w * 4
                            for ox in 0..<ow {
                                let cols = min(w - ox * n, n)
                                var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0, a: UInt32 = 0
                                for _ in 0..<cols {
                                    r &+= UInt32(src[p]); g &+= UInt32(src[p + 1])
                                    b &+= UInt32(src[p + 2]); a &+= UInt32(src[p + 3])
                                    p += 4
                                }
                                acc[ox * 4] &+= r; acc[ox * 4 + 1] &+= g
                                acc[ox * 4 + 2] &+= b; acc[ox * 4 + 3] &+= a
                            }
                        }
                        let rows = UInt32(y1 - y0)
                        for ox in 0..<ow {
                            // 64-bit rounding: twice a full 4096² box of 255 overflows 32 bits.
                            let count = UInt64(min(w - ox * n, n)) * UInt64(rows)
                            let o = (oy * ow + ox) * 4
                            for k in 0..<4 { dst[o + k] = UInt8((UInt64(acc[ox * 4 + k]) * 2 + count) / (2 * count)) }
                        }
                    }
                }
            }
        }
        return out
    }
}
