// Applying an EXIF orientation: a per-pixel index remap, one 32-bit copy per pixel.

extension RGBAImage {
    /// The image turned from its stored orientation to the displayed one.
    /// Works on any 4-byte pixel, so it is also correct for premultiplied bytes.
    /// - Complexity: O(width × height), one new buffer.
    public func applying(_ orientation: ImageOrientation) -> RGBAImage {
        if orientation == .up { return self }
        let w = width, h = height
        let outW = orientation.swapsAxes ? h : w
        let outH = orientation.swapsAxes ? w : h
        var out = [UInt8](repeating: 0, count: bytes.count)
        bytes.withUnsafeBytes { srcRaw in
            out.withUnsafeMutableBytes { dstRaw in
                let src = srcRaw.bindMemory(to: UInt32.self)
                let dst = dstRaw.bindMemory(to: UInt32.self)
                for y in 0..<outH {
                    let row = y * outW
                    for x in 0..<outW {
                        let sx: Int, sy: Int
                        switch orientation {
                        case .up: sx = x; sy = y
                        case .upMirrored: sx = w - 1 - x; sy = y
                        case .down: sx = w - 1 - x; sy = h - 1 - y
                        case .downMirrored: sx = x; sy = h - 1 - y
                        case .leftMirrored: sx = y; sy = x
                        case .right: sx = y; sy = h - 1 - x
                        case .rightMirrored: sx = w - 1 - y; sy = h - 1 - x
                        case .left: sx = w - 1 - y; sy = x
                        }
                        dst[row + x] = src[sy * w + sx]
                    }
                }
            }
        }
        return RGBAImage(width: outW, height: outH, bytes: out)
    }
}
