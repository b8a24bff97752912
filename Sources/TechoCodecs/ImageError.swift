// The one error type of TechoCodecs: every failure names the file it is about.

/// A file that could not be read, sniffed, decoded or encoded.
///
/// `description` always starts with the file name, e.g.
/// `photo.png: not an image techo reads (PNG, JPEG, HEIF, AVIF, WebP or SVG); looks like GIF`.
public struct ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why the file was refused.
    public enum Reason: Equatable, Sendable {
        /// The file could not be opened or read (the system's message).
        case unreadable(String)
        /// The file has zero bytes.
        case empty
        /// The bytes are no format techo reads; `looksLike` names what they seem to be, if known.
        case unknownFormat(looksLike: String?)
        /// The file is larger than `ImageLimits.maxFileBytes`.
        case fileTooLarge(bytes: Int, limit: Int)
        /// The header claims a size over the limits; nothing was allocated for it.
        case tooLarge(width: Int, height: Int, limits: ImageLimits)
        /// The codec library rejected the data (its message).
        case corrupt(String)
        /// Valid data of a kind we do not decode, such as 12-bit or lossless JPEG.
        case unsupported(String)
        /// Encoding failed (the library's message).
        case encodeFailed(String)
        /// The C library for the format cannot be opened: a broken install (the message names
        /// the library and its Debian package).
        case libraryMissing(String)
    }

    /// The file (or name) the error is about, as the caller gave it.
    public let file: String
    /// The format the bytes were sniffed as, when known.
    public let format: ImageFormat?
    /// What went wrong.
    public let reason: Reason

    public init(file: String, format: ImageFormat?, reason: Reason) {
        self.file = file
        self.format = format
        self.reason = reason
    }

    public var description: String {
        let kind = format.map { "\($0.name) " } ?? ""
        switch reason {
        case .unreadable(let why):
            return "\(file): cannot read the file: \(why)"
        case .empty:
            return "\(file): the file is empty"
        case .unknownFormat(let looksLike):
            return "\(file): not an image techo reads (\(ImageFormat.supportedNames))" + (looksLike.map { "; looks like \($0)" } ?? "")
        case .fileTooLarge(let bytes, let limit):
            return "\(file): the file has \(bytes) bytes, over the limit of \(limit)"
        case .tooLarge(let w, let h, let limits):
            let area = limits.maxPixels % 1_000_000 == 0 ? "\(limits.maxPixels / 1_000_000) megapixels" : "\(limits.maxPixels) pixels"
            return "\(file): \(kind)image is \(w)x\(h) pixels, over the limit of \(limits.maxSide) px a side and \(area)"
        case .corrupt(let why):
            return "\(file): corrupt \(kind)data: \(why)"
        case .unsupported(let why):
            return "\(file): unsupported \(kind)file: \(why)"
        case .encodeFailed(let why):
            return "\(file): cannot encode \(kind)image: \(why)"
        case .libraryMissing(let why):
            return "\(file): cannot decode \(kind)image: \(why)"
        }
    }
}
