// Every text a journal holds can be drawn and previewed: a new text wraps at the page's content
// width unless it says otherwise, and a text whose laid-out box would be larger than a page may
// be (16384 px a side, contract §10) is refused when it is written, not when a render fails.
// The rules live here, beside the page's other write rules, so the CLI, the editor's server,
// manifests and the library agree (docs/decisions/text.md, "Wrapping and limits").
import Foundation
import TechoGeometry
import TechoModel
import TechoRender
import TechoText

public enum TextRules {
    /// The margin left free at each side of the page by the default wrap width: 10 mm at the
    /// page's dpi, the usual journal margin (the editor snaps to the same margins).
    public static let marginMM = 10.0

    /// The wrap width a text added without one gets: the page's width less a 10 mm margin at
    /// each side, or an eighth of the width on a page too small for that (at least 1 px). A page
    /// whose width is `auto` grows with its content, so its texts wrap at the page limit less the
    /// margins.
    public static func defaultMaxWidth(on page: Page, limits: ModelLimits = .default) -> Double {
        let width = page.size.width ?? limits.maxPageSide
        let margin = min(marginMM / 25.4 * page.dpi, width / 8)
        return max(1, (width - 2 * margin).rounded(.down))
    }

    /// `content` with the default wrap width when it is a text that has none.
    static func withDefaultWrap(_ content: Element.Content, on page: Page) -> Element.Content {
        guard case .text(var t) = content, t.maxWidth == nil else { return content }
        t.maxWidth = defaultMaxWidth(on: page)
        return .text(t)
    }

    /// Refuses a text of `page` that is new or was laid out differently in `old` when its box,
    /// laid out, is over the page limit on a side. A text drawn with an imported font file is
    /// measured with its family here (the file is in the journal, not at hand), which is close
    /// enough for a limit that is hundreds of lines away from any real page.
    /// - Complexity: one layout per changed text (a 100 000-character text: a fraction of a second).
    public static func checkChangedTexts(_ page: Page, was old: Page?, limits: ModelLimits = .default) throws(EditError) {
        for e in page.elements {
            guard case .text(let t) = e.content else { continue }
            if let old, let i = old.index(of: e.id), case .text(let was) = old.elements[i].content, sameLayout(was, t) { continue }
            let style = TextStyle(
                font: FontNames.looksLikeFilePath(t.font) ? "sans-serif" : t.font, weight: t.weight, italic: t.italic, size: t.size,
                lineHeight: t.lineHeight, maxWidth: t.maxWidth, letterSpacing: t.letterSpacing)
            // A text the engine refuses is reported by the model's own rules (validate).
            guard let laid = try? TextLayout.layout(t.text, style: style) else { continue }
            let side = limits.maxPageSide
            guard laid.width <= side, laid.height <= side else {
                let size = "\(Int(laid.width.rounded(.up)))x\(Int(laid.height.rounded(.up))) px"
                let fix = t.maxWidth == nil ? "give it a wrap width (maxWidth)" : "shorten it or make it smaller"
                throw EditError(
                    .invalid, field: "text",
                    "element \(e.id) would be laid out \(size), over the limit of \(Int(side)) px a side; \(fix)")
            }
        }
    }

    /// Whether two texts are laid out the same (their colour and outline do not matter).
    static func sameLayout(_ a: TextContent, _ b: TextContent) -> Bool {
        a.text == b.text && a.font == b.font && a.fontFile == b.fontFile && a.weight == b.weight && a.italic == b.italic && a.size == b.size
            && a.lineHeight == b.lineHeight && a.maxWidth == b.maxWidth && a.letterSpacing == b.letterSpacing
    }
}

/// A point on the top edge of a text's box, in the text's own frame: the corner or middle a
/// text typed on the page grows from (its alignment side), or the edge a side handle keeps.
public enum TextAnchor: String, Sendable, CaseIterable {
    case topLeft = "top-left"
    case top
    case topRight = "top-right"

    /// The anchor's point on a box of `size` centred on the origin (y down).
    func point(in size: (width: Double, height: Double)) -> Point {
        switch self {
        case .topLeft: return Point(-size.width / 2, -size.height / 2)
        case .top: return Point(0, -size.height / 2)
        case .topRight: return Point(size.width / 2, -size.height / 2)
        }
    }
}

extension PageEdits {
    /// Moves text element `id` so that its box's `anchor` lies on page point `at` (its scale,
    /// turn and flips kept): what the editor's text tool asks for, the box growing from where
    /// the user clicked.
    /// - Throws: `EditError` `.notFound` for an unknown element, `.invalid` for one that is not a
    ///   text or whose centre would leave the coordinate range.
    public static func place(_ anchor: TextAnchor, of id: String, at: Point, on page: inout Page, renderer: PageRenderer) throws(EditError) {
        let i = try elementIndex(id, on: page)
        let e = page.elements[i]
        guard case .text(let t) = e.content else { throw EditError(.invalid, field: "anchor", "only a text has an anchor; '\(id)' is \(e.content.kind)") }
        let size = try EditError.wrapping { try renderer.naturalSize(of: t) }
        let p = e.placement
        let linear = try EditError.wrapping {
            try Placement(scale: p.scale, rotation: p.rotation, flipH: p.flipH, flipV: p.flipV).transform
        }
        let centre = at - linear.applyVector(anchor.point(in: size))
        page.elements[i].placement = try EditError.wrapping {
            try Placement(center: centre, scale: p.scale, rotation: p.rotation, flipH: p.flipH, flipV: p.flipV)
        }
    }

    /// Runs `change` on the page with text element `id`'s box `anchor` kept where it is on the
    /// page: a text edited in place grows from its alignment side, and a side handle that
    /// changes its wrap width keeps the other side still.
    public static func keeping(
        _ anchor: TextAnchor, of id: String, on page: inout Page, renderer: PageRenderer, _ change: (inout Page) throws(EditError) -> Void
    ) throws(EditError) {
        let i = try elementIndex(id, on: page)
        let e = page.elements[i]
        guard case .text(let t) = e.content else { throw EditError(.invalid, field: "keep", "only a text keeps an anchor; '\(id)' is \(e.content.kind)") }
        let size = try EditError.wrapping { try renderer.naturalSize(of: t) }
        let at = e.transform.apply(anchor.point(in: size))
        try change(&page)
        guard page.index(of: id) != nil else { return }
        try place(anchor, of: id, at: at, on: &page, renderer: renderer)
    }
}
