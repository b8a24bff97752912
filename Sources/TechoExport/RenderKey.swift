// A page output's render key: one SHA-256 over everything that decides the output's bytes, so a
// rebuild can tell an output it would write again unchanged from one it must render
// (docs/decisions/rebuild.md).
import CTechoLazy
import Foundation
import TechoModel
import TechoText

/// The render key of a page's PNG or JPEG output.
///
/// The key hashes, each as a labelled line: the key's own version; the program (the GNU
/// build-id of the executable and of every shared object it maps once every library it may
/// draw with is open); the installed fonts, for a page that has text or an SVG picture (fontconfig
/// may give those fonts); the format and its settings (PNG level, JPEG quality); the render
/// scale, bit for bit; and the page as stored (its canonical JSON, which names every asset by the
/// SHA-256 of its bytes, and holds the page's dpi, which goes into the file).
public enum RenderKey {
    /// The program's identity, computed once per process: opening the lazily loaded libraries
    /// (all but the HTTP server's) puts them and everything they load into the list, so an
    /// upgraded libdeflate, libjpeg, FreeType or librsvg changes every key.
    public static let program: String = {
        for lib in 0..<TECHO_LAZY_COUNT.rawValue where lib != TECHO_LAZY_MICROHTTPD.rawValue {
            // A library that cannot be opened is simply absent from the list.
            _ = techo_lazy_available(techo_lazy_library(rawValue: lib), nil, 0)
        }
        return digestHex(LoadedObjects.buildIDs().joined(separator: "\n"))
    }()

    /// The installed fonts' identity (`FontCatalog.installedFontsSummary`), computed once per
    /// process and only when a page needs it.
    public static let fonts: String = digestHex(FontCatalog.shared.installedFontsSummary().joined(separator: "\n"))

    /// Whether fonts the system provides can change how `page` looks: it has text (fallback
    /// faces come from fontconfig even for a font imported into the journal), or an SVG picture
    /// (librsvg draws SVG text with fontconfig's fonts).
    public static func readsSystemFonts(_ page: Page) -> Bool {
        if page.background.image?.asset.ext == "svg" { return true }
        return page.elements.contains { e in
            switch e.content {
            case .text: return true
            case .image(let c): return c.asset.ext == "svg"
            case .photo(let c): return c.image.asset.ext == "svg"
            case .washi(let w):
                if case .pattern(let r) = w.fill { return r.ext == "svg" }
                return false
            case .ink: return false
            }
        }
    }

    /// The 32-byte key of `page` rendered at `scale` and written as `settings.format` (PNG or
    /// JPEG) with `settings`' level or quality.
    public static func of(_ page: Page, scale: Double, settings: ExportSettings) -> [UInt8] {
        precondition(settings.format != .pdf, "a render key is for a PNG or JPEG page")
        let h = SHA256()
        var head = "techo render key 1\nprogram \(program)\n"
        head += "fonts \(readsSystemFonts(page) ? fonts : "-")\n"
        switch settings.format {
        case .png: head += "png level \(settings.level)\n"
        case .jpeg: head += "jpeg quality \(settings.quality)\n"
        case .pdf: break
        }
        head += "scale \(String(scale.bitPattern, radix: 16))\npage\n"
        h.update(Array(head.utf8))
        h.update(page.serialized())
        return h.finalize()
    }

    static func digestHex(_ text: String) -> String {
        let h = SHA256()
        h.update(Array(text.utf8))
        return LoadedObjects.hex(h.finalize())
    }
}
