// A rebuild after part of a page changed: its PNG is made from the file techo wrote for the page
// as it was, keeping the compressed bands of rows no change reaches and making the others again
// from a render exact on those rows (docs/decisions/rebuild.md). The file is byte for byte the
// one a whole render would write; anything that prevents that makes the page whole instead.
import Foundation
import TechoCodecs
import TechoModel
import TechoRender

enum BandPatch {
    /// What a patch did: the bands made again, of all the file's bands.
    struct Outcome {
        var bytes: [UInt8]
        var redone: Int
        var bands: Int
        /// The renderer's warnings about what it drew (only what reaches the bands made again).
        var warnings: [String] = []
    }

    /// The PNG (unstamped) of `page` at `scale` made from `file` (the page's output file as
    /// `RenderStamp.stamped` read it: its key and its bytes without the stamp), when it is what
    /// techo wrote with these settings for one of `earlier` (versions of the page before it
    /// changed) and the change from it leaves at least one band of rows as it was; nil when the
    /// page must be rendered whole.
    /// `drawn` is called once the page's rows are drawn, before they are encoded.
    static func png(
        of page: Page, earlier: [Page], scale: Double, settings: ExportSettings, file: (key: String, rest: [UInt8]), renderer: PageRenderer,
        threads: Int, drawn: () -> Void = {}
    ) throws -> Outcome? {
        let (key, old) = file
        func keyOf(_ p: Page) -> String { LoadedObjects.hex(RenderKey.of(p, scale: scale, settings: settings, renderer: renderer)) }
        guard settings.format == .png, let before = earlier.first(where: { keyOf($0) == key }),
            let rows = try renderer.changedRows(from: before, to: page, scale: scale)
        else { return nil }
        let (w, h) = try renderer.deviceSize(of: page, scale: scale)
        let bands = PNGEncoder.bands(width: w, height: h)
        let changed = bands.indices.filter { bands[$0].overlaps(rows) }
        // Nothing drawn changed (a hidden element moved, say): the pixels are the old file's.
        guard let first = changed.first, let last = changed.last else {
            return PNGEncoder.patched(old, width: w, height: h, changed: 0..<0, rows: nil, firstRow: 0, dpi: page.dpi * scale, level: settings.level)
                .map { Outcome(bytes: $0, redone: 0, bands: bands.count) }
        }
        guard last - first + 1 < bands.count else { return nil }
        let exact = max(0, bands[first].lowerBound - 1)..<bands[last].upperBound
        let rendered = try renderer.render(page, scale: scale, exactRows: exact, threads: threads)
        drawn()
        guard
            let bytes = PNGEncoder.patched(
                old, width: w, height: h, changed: first..<(last + 1), rows: rendered.pixmap, firstRow: 0, dpi: rendered.dpi, level: settings.level)
        else { return nil }
        return Outcome(bytes: bytes, redone: last - first + 1, bands: bands.count, warnings: rendered.warnings)
    }
}
