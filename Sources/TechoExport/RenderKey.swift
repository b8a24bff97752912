// A page output's render key: one SHA-256 over everything that decides the output's bytes, so a
// rebuild can tell an output it would write again unchanged from one it must render
// (docs/decisions/rebuild.md).
import CTechoLazy
import Foundation
import TechoCodecs
import TechoModel
import TechoRender
import TechoText

/// The render key of a page's PNG or JPEG output.
///
/// The key hashes, each as a labelled line: the key's own version; the program that draws and
/// encodes this page (the GNU build-id of the executable, of the libraries that decode the
/// page's pictures, lay out its text and encode its file, and of everything those are linked
/// with); the installed fonts, for a page that has text or an SVG picture (fontconfig may give
/// those fonts); the format and its settings (PNG level, JPEG quality); the render scale, bit
/// for bit; and the page as stored (its canonical JSON, which names every asset by the SHA-256
/// of its bytes, and holds the page's dpi, which goes into the file).
public enum RenderKey {
    /// The lazily loaded libraries that can decide the bytes of a page's file: the encoder's,
    /// the decoders of the pictures' `formats`, and the text stack's when the page has text.
    /// An SVG is drawn by librsvg with cairo and GLib, and its text with the text stack.
    static func libraries(formats: Set<ImageFormat>, text: Bool, output: ExportFormat) -> [techo_lazy_library] {
        var out: [techo_lazy_library] = output == .jpeg ? [TECHO_LAZY_JPEG] : [TECHO_LAZY_DEFLATE]
        let textStack = [TECHO_LAZY_FREETYPE, TECHO_LAZY_HARFBUZZ, TECHO_LAZY_FONTCONFIG]
        if text { out += textStack }
        for f in formats {
            switch f {
            case .png: out.append(TECHO_LAZY_PNG)
            case .jpeg: out.append(TECHO_LAZY_JPEG)
            case .heif, .avif: out += [TECHO_LAZY_HEIF, TECHO_LAZY_DE265]
            case .webp: out += [TECHO_LAZY_WEBP, TECHO_LAZY_WEBPDEMUX]
            case .svg: out += [TECHO_LAZY_RSVG, TECHO_LAZY_CAIRO, TECHO_LAZY_GOBJECT, TECHO_LAZY_GLIB] + textStack
            }
        }
        return Array(Set(out.map(\.rawValue))).sorted().map { techo_lazy_library(rawValue: $0) }
    }

    private static let programs = Programs()

    private final class Programs: @unchecked Sendable {
        let lock = NSLock()
        var known: [[UInt32]: String] = [:]
    }

    /// The identity of the code that draws with `libraries`, computed once per process for each
    /// set: the libraries are opened (they draw the page anyway; one that cannot be opened is
    /// simply absent), and the build-ids of the executable, of them and of every object they
    /// are linked with are hashed (`LoadedObjects.buildIDs(closureOf:)`). So an upgraded
    /// libdeflate, libjpeg, FreeType or librsvg changes the key of every page that uses it, and
    /// a page of photos and ink never opens librsvg or libheif to be keyed. The list depends
    /// only on `libraries`, not on what else the process has opened.
    static func program(_ libraries: [techo_lazy_library]) -> String {
        let ids = libraries.map(\.rawValue)
        programs.lock.lock()
        defer { programs.lock.unlock() }
        if let p = programs.known[ids] { return p }
        var sonames: [String] = []
        for lib in libraries where techo_lazy_available(lib, nil, 0) != 0 {
            if let name = techo_lazy_soname(lib) { sonames.append(String(cString: name)) }
        }
        let p = digestHex(LoadedObjects.buildIDs(closureOf: sonames).joined(separator: "\n"))
        programs.known[ids] = p
        return p
    }

    /// Computes ahead the program identity of pages of text and PNG pictures written as PNG
    /// (the editor's thumbnails), so a first request does not wait for it.
    public static func warm() {
        _ = program(libraries(formats: [.png], text: true, output: .png))
    }

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

    /// The 32-byte key of `page` rendered at `scale` by `renderer` (which tells its pictures'
    /// formats) and written as `settings.format` (PNG or JPEG) with `settings`' level or quality.
    public static func of(_ page: Page, scale: Double, settings: ExportSettings, renderer: PageRenderer) -> [UInt8] {
        precondition(settings.format != .pdf, "a render key is for a PNG or JPEG page")
        let text = page.elements.contains { if case .text = $0.content { return true } else { return false } }
        let libs = libraries(formats: renderer.pictureFormats(of: page), text: text, output: settings.format)
        let h = SHA256()
        var head = "techo render key 2\nprogram \(program(libs))\n"
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
