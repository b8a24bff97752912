// The one place where a C library that cannot be opened becomes a Swift error. techo opens its
// C libraries on first use (CTechoLazy, docs/decisions/startup.md); the decoders ask here first,
// so a broken install gives an error naming the library and its Debian package, not a stop.
import CTechoLazy

/// Opening the libraries a decoder needs before it calls them.
public enum LazyLibraries {
    /// The message CTechoLazy gives for the first of `libraries` that cannot be opened (which
    /// library, which Debian package, the loader's reason), or nil when all are open.
    public static func missing(_ libraries: [techo_lazy_library]) -> String? {
        for library in libraries {
            var message = [CChar](repeating: 0, count: 512)
            if techo_lazy_available(library, &message, message.count) == 0 {
                return String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        return nil
    }

    /// Throws `.libraryMissing` for `file` when one of `libraries` cannot be opened.
    static func require(_ libraries: [techo_lazy_library], file: String, format: ImageFormat) throws {
        if let why = missing(libraries) { throw ImageError(file: file, format: format, reason: .libraryMissing(why)) }
    }
}
