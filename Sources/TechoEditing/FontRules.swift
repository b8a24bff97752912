// A text's font is something every machine the journal goes to can draw: an installed family
// (checked through fontconfig when it is written) or a font file imported into the journal like
// a picture. A path is never stored, so nothing outside the journal is read when it renders.
import Foundation
import TechoModel
import TechoText

public enum FontRules {
    /// Refuses a text whose family is neither a generic name nor installed here, unless it
    /// draws with an imported font file; the message names the close installed families.
    public static func check(_ t: TextContent) throws(EditError) {
        guard t.fontFile == nil else { return }
        do { try t.validate() } catch { throw EditError(from: error) }
        let (installed, close) = FontCatalog.shared.checkFamily(t.font)
        guard !installed else { return }
        let hint = close.isEmpty ? "" : "; close: \(close.joined(separator: ", "))"
        throw EditError(
            .invalid, "font: no installed family '\(t.font)'\(hint) (see 'techo fonts'), or import a font file (--font-file, \"fontFile\")")
    }

    /// Checks the text elements of `page` that are new or whose font changed since `old`, so a
    /// family that was accepted once (and may be missing on this machine now) does not block
    /// other changes to the page.
    public static func checkChangedTexts(_ page: Page, was old: Page?) throws(EditError) {
        for e in page.elements {
            guard case .text(let t) = e.content else { continue }
            if let old, let i = old.index(of: e.id), case .text(let was) = old.elements[i].content, was.font == t.font, was.fontFile == t.fontFile {
                continue
            }
            do { try check(t) } catch { throw EditError(error.kind, "\(e.id): \(error.message)") }
        }
    }

    /// A font file's bytes checked (FreeType opens its first face) and made ready to import,
    /// stored under the extension of what the bytes are.
    public static func prepareFontFile(_ bytes: [UInt8], name: String) throws(EditError) -> AssetImport {
        try EditError.wrapping { try AssetImport(bytes: bytes, ext: try FontFileProbe.check(bytes, name: name)) }
    }
}
