// The one place where a CTechoShims return code becomes a Swift error.
import CTechoShims

/// Message buffers handed to the C shims, and the conversion of their codes into `ImageError`.
struct ShimStatus {
    static let messageCapacity = 512
    static let notesCapacity = 2048

    /// Calls `body` with a message buffer and throws the typed error its return code stands for.
    /// `size` gives the claimed dimensions for a limits error.
    static func check(
        file: String, format: ImageFormat, limits: ImageLimits,
        size: () -> (Int, Int) = { (0, 0) },
        _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32
    ) throws {
        var msg = [CChar](repeating: 0, count: messageCapacity)
        let code = msg.withUnsafeMutableBufferPointer { body($0.baseAddress!, messageCapacity) }
        if code == Int32(TECHO_OK) { return }
        let text = msg.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let reason: ImageError.Reason
        switch code {
        case Int32(TECHO_ERR_LIMITS):
            let (w, h) = size()
            reason = .tooLarge(width: w, height: h, limits: limits)
        case Int32(TECHO_ERR_UNSUPPORTED):
            reason = .unsupported(text)
        case Int32(TECHO_ERR_NOMEM):
            reason = .corrupt("out of memory (\(text))")
        case Int32(TECHO_ERR_BUFFER):
            preconditionFailure("\(file): codec shim misuse: \(text)")
        default:
            reason = .corrupt(text.isEmpty ? "unknown error" : text)
        }
        throw ImageError(file: file, format: format, reason: reason)
    }

    /// Like `check`, for encoders: every failure is `.encodeFailed`.
    static func checkEncode(
        file: String, format: ImageFormat,
        _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32
    ) throws {
        var msg = [CChar](repeating: 0, count: messageCapacity)
        let code = msg.withUnsafeMutableBufferPointer { body($0.baseAddress!, messageCapacity) }
        if code == Int32(TECHO_OK) { return }
        let text = msg.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        throw ImageError(file: file, format: format, reason: .encodeFailed(text.isEmpty ? "code \(code)" : text))
    }

    /// The notes a decode collected, one per line.
    static func notes(_ buffer: [CChar]) -> [String] {
        let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return text.split(separator: "\n").map(String.init)
    }

    static func cLimits(_ limits: ImageLimits) -> techo_limits {
        techo_limits(max_side: UInt32(clamping: limits.maxSide), max_pixels: UInt64(limits.maxPixels))
    }
}
