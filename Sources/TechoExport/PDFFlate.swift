// zlib streams (PDF's FlateDecode) in and out through libdeflate, for the rewriting of cairo's
// content streams (PDFTextClip). libdeflate decompresses into a buffer the caller sizes, so the
// buffer grows until the stream fits or the limit is reached.

import CLibDeflate

/// Why a Flate stream could not be read or written.
enum FlateError: Error, Equatable, CustomStringConvertible {
    /// libdeflate could not allocate its state.
    case outOfMemory
    /// libdeflate's result code for a stream it could not inflate.
    case badData(code: Int)
    /// The inflated stream would be larger than the limit.
    case tooLarge(limit: Int)

    var description: String {
        switch self {
        case .outOfMemory: return "libdeflate: out of memory"
        case .badData(let code): return "libdeflate: not a zlib stream (result \(code))"
        case .tooLarge(let limit): return "a Flate stream inflates to more than \(limit) bytes"
        }
    }
}

enum PDFFlate {
    /// libdeflate's result as a `FlateError` (nil for success): the one place its codes become
    /// Swift errors.
    private static func error(_ result: libdeflate_result, limit: Int) -> FlateError? {
        switch result {
        case LIBDEFLATE_SUCCESS: return nil
        case LIBDEFLATE_INSUFFICIENT_SPACE: return .tooLarge(limit: limit)
        default: return .badData(code: Int(result.rawValue))
        }
    }

    /// The bytes of the zlib stream `data`, at most `limit` of them.
    /// - Throws: `FlateError`.
    static func inflate(_ data: ArraySlice<UInt8>, limit: Int) throws -> [UInt8] {
        guard let d = libdeflate_alloc_decompressor() else { throw FlateError.outOfMemory }
        defer { libdeflate_free_decompressor(d) }
        var capacity = min(limit, max(4096, data.count * 4))
        while true {
            var out = [UInt8](repeating: 0, count: capacity)
            var written = 0
            let result = data.withUnsafeBytes { src in
                out.withUnsafeMutableBytes { dst in
                    libdeflate_zlib_decompress(d, src.baseAddress, src.count, dst.baseAddress, dst.count, &written)
                }
            }
            if result == LIBDEFLATE_INSUFFICIENT_SPACE && capacity < limit {
                capacity = min(limit, capacity * 4)
                continue
            }
            if let e = error(result, limit: limit) { throw e }
            out.removeSubrange(written...)
            return out
        }
    }

    /// `data` as a zlib stream, at libdeflate's strongest level.
    /// - Throws: `FlateError.outOfMemory`.
    static func deflate(_ data: [UInt8]) throws -> [UInt8] {
        guard let c = libdeflate_alloc_compressor(12) else { throw FlateError.outOfMemory }
        defer { libdeflate_free_compressor(c) }
        var out = [UInt8](repeating: 0, count: libdeflate_zlib_compress_bound(c, data.count))
        let n = data.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in libdeflate_zlib_compress(c, src.baseAddress, src.count, dst.baseAddress, dst.count) }
        }
        guard n > 0 else { throw FlateError.outOfMemory }
        out.removeSubrange(n...)
        return out
    }
}
