// Text layout: paragraphs split at hard breaks, shaped, broken into lines greedily at break
// opportunities (spaces for Latin, between any two CJK characters, with kinsoku rules after
// JIS X 4051), reordered for bidi (UAX #9 rule L2), aligned, and centred on the origin.
import TechoGeometry
import TechoRules

/// Lays out text with a style.
public enum TextLayout {
    /// The most Unicode scalars one text may hold (`FieldRules.maxTextScalars`).
    public static let maxScalars = FieldRules.maxTextScalars
    /// Allowed font sizes in pixels (`FieldRules.fontSize`).
    public static let sizeRange = FieldRules.fontSize.range

    /// Lays out `text` with `style` in element space (origin at the box centre, y down).
    ///
    /// - Throws: `TextError.tooLong` over `maxScalars`; `TextError.invalid(field:…)` naming
    ///   the style field out of range; `TextError.font` when a font file named as the family
    ///   cannot be read.
    /// - Complexity: O(n) in the number of characters, plus shaping.
    public static func layout(_ text: String, style: TextStyle, catalog: FontCatalog = .shared) throws -> LaidOutText {
        try validate(text, style)
        let chain: FallbackChain
        do { chain = try catalog.chain(for: style.fontRequest) } catch let e as FontError { throw TextError.font(e) }
        var opened: [Int: FontFace?] = [:]
        // The requested face must open; a fallback face that does not is skipped (its
        // clusters are reported as missing) rather than failing the whole text.
        func openFace(_ i: Int) throws -> FontFace? {
            if let f = opened[i] { return f }
            do {
                let f = try catalog.face(chain.candidates[i].key)
                opened[i] = f
                return f
            } catch let e as FontError {
                if i == 0 { throw TextError.font(e) }
                opened[i] = .some(nil)
                return nil
            }
        }
        guard let primary = try openFace(0) else { throw TextError.font(.fontconfigUnavailable) }
        let size = style.size
        let lineHeightPx = style.lineHeight * size
        let primaryScale = size / Double(primary.unitsPerEm)
        let ascent = primary.ascender * primaryScale, descent = -primary.descender * primaryScale
        let baselineInLine = (lineHeightPx - (ascent + descent)) / 2 + ascent

        var warnings: [TextWarning] = []
        if let used = chain.substitutedFamily { warnings.append(.fontSubstituted(requested: style.font, used: used)) }
        var warned = Set<UInt32>()

        // Characters, with tabs as spaces and other control characters dropped.
        var chars: [Character] = []
        chars.reserveCapacity(text.count)
        var sourceOf: [Int] = []
        for (i, c) in text.enumerated() {
            if CharClass.isNewline(c) { chars.append("\n"); sourceOf.append(i); continue }
            if c == "\t" { chars.append(" "); sourceOf.append(i); continue }
            if c.unicodeScalars.count == 1, let s = c.unicodeScalars.first, s.properties.generalCategory == .control { continue }
            chars.append(c)
            sourceOf.append(i)
        }

        struct Line { var clusters: [ShapedCluster]; var width: Double; var range: Range<Int> }
        var lines: [Line] = []
        let shaper = ParagraphShaper(
            catalog: catalog, chain: chain, sizePx: size,
            disableLigatures: style.letterSpacing != 0)
        var p = 0
        while p <= chars.count {
            var q = p
            while q < chars.count && chars[q] != "\n" { q += 1 }
            let (shaped, _) = try shaper.shape(chars[p..<q], sourceStart: 0, openFace: openFace)
            var clusters = shaped
            for k in clusters.indices {
                clusters[k].sourceIndex = sourceOf[p + k]
                if let m = clusters[k].missing, warned.insert(m.value).inserted {
                    warnings.append(.missingGlyph(scalar: m, character: clusters[k].character))
                }
            }
            let srcStart = p < sourceOf.count ? sourceOf[p] : (sourceOf.last.map { $0 + 1 } ?? 0)
            for r in breakLines(clusters, maxWidth: style.maxWidth, letterSpacing: style.letterSpacing) {
                let slice = Array(clusters[r])
                let lo = slice.first?.sourceIndex ?? srcStart, hi = (slice.last?.sourceIndex).map { $0 + 1 } ?? lo
                lines.append(Line(clusters: slice, width: measure(slice[...], style.letterSpacing), range: lo..<hi))
            }
            p = q + 1
        }

        let boxWidth = lines.map(\.width).max() ?? 0
        let boxHeight = Double(lines.count) * lineHeightPx
        let x0 = -boxWidth / 2, y0 = -boxHeight / 2

        var glyphs: [PlacedGlyph] = []
        var outClusters: [LaidOutCluster] = []
        var outLines: [LaidOutLine] = []
        for (li, line) in lines.enumerated() {
            let top = y0 + Double(li) * lineHeightPx
            let baseline = top + baselineInLine
            let indent: Double
            switch style.align {
            case .left: indent = 0
            case .center: indent = (boxWidth - line.width) / 2
            case .right: indent = boxWidth - line.width
            }
            var pen = x0 + indent
            for k in visualOrder(line.clusters, trimTrailing: true) {
                let c = line.clusters[k]
                var gx = pen
                for g in c.glyphs {
                    if let placed = place(g, x: gx, baseline: baseline, size: size, cluster: outClusters.count) { glyphs.append(placed) }
                    gx += g.advance
                }
                outClusters.append(
                    LaidOutCluster(
                        text: String(c.character), sourceIndex: c.sourceIndex, line: li,
                        face: c.face?.key,
                        rect: Rect(x: pen, y: top, width: c.advance, height: lineHeightPx)))
                pen += width(c, style.letterSpacing)
            }
            outLines.append(
                LaidOutLine(
                    rect: Rect(x: x0 + indent, y: top, width: line.width, height: lineHeightPx),
                    baseline: baseline, sourceRange: line.range))
        }
        return LaidOutText(
            style: style, width: boxWidth, height: boxHeight, glyphs: glyphs, lines: outLines,
            clusters: outClusters, warnings: warnings)
    }

    // MARK: Validation

    static func validate(_ text: String, _ style: TextStyle) throws {
        // Count scalars with an early exit, so a huge string costs no more than the limit.
        var n = 0
        for _ in text.unicodeScalars {
            n += 1
            if n > maxScalars { throw TextError.tooLong(count: text.unicodeScalars.count, limit: maxScalars) }
        }
        // The model accepts exactly what these rules allow (TechoRules), so a text that was
        // accepted is never refused here.
        func check(_ rule: FieldRule, _ v: Double, field: String? = nil) throws {
            if !rule.contains(v) { throw TextError.invalid(field: field ?? rule.name, value: "\(v)", expected: rule.expected) }
        }
        try check(FieldRules.fontSize, style.size)
        try check(FieldRules.lineHeight, style.lineHeight)
        if let w = style.maxWidth { try check(FieldRules.maxWidth, w) }
        try check(FieldRules.letterSpacing, style.letterSpacing)
        if let o = style.outline { try check(FieldRules.outlineWidth, o.width, field: "outline.width") }
        if !FieldRules.weight.range.contains(style.weight) {
            throw TextError.invalid(field: "weight", value: "\(style.weight)", expected: FieldRules.weight.expected)
        }
    }

    // MARK: Line breaking

    /// A cluster's share of the line: its advance plus letter spacing (drawn clusters and spaces).
    static func width(_ c: ShapedCluster, _ spacing: Double) -> Double {
        c.advance + ((c.glyphs.isEmpty && !c.isSpace) ? 0 : spacing)
    }

    /// A line's width: its clusters without trailing spaces, and without the last cluster's
    /// letter spacing.
    static func measure(_ cs: ArraySlice<ShapedCluster>, _ spacing: Double) -> Double {
        var end = cs.endIndex
        while end > cs.startIndex && cs[end - 1].isSpace { end -= 1 }
        var w = 0.0
        var counted = 0
        for c in cs[cs.startIndex..<end] {
            w += width(c, spacing)
            if !(c.glyphs.isEmpty && !c.isSpace) { counted += 1 }
        }
        return counted > 0 ? w - spacing : w
    }

    /// May a line break between clusters `a` and `b`?
    static func canBreak(_ a: ShapedCluster, _ b: ShapedCluster) -> Bool {
        if CharClass.isBreakingSpace(b.first) { return false }  // break after the spaces instead
        if CharClass.isNoLineStart(b.first) || CharClass.isNoLineEnd(a.last) { return false }
        if CharClass.isBreakingSpace(a.last) { return true }
        // After a hyphen inside a word ("well-known"), as UAX #14's HY class allows.
        if (a.last == "-" || a.last == "\u{2010}") && b.first.properties.isAlphabetic { return true }
        return CharClass.isBreakAnywhere(a.last) || CharClass.isBreakAnywhere(b.first)
    }

    /// Greedy line breaking: each line takes as many clusters as fit in `maxWidth`, ending at
    /// the last break opportunity; a word longer than the line is split between clusters,
    /// keeping closing punctuation off the start of the next line where the line allows.
    static func breakLines(_ cs: [ShapedCluster], maxWidth: Double?, letterSpacing: Double) -> [Range<Int>] {
        guard let maxWidth, !cs.isEmpty else { return [0..<cs.count] }
        var out: [Range<Int>] = []
        var s = 0
        while s < cs.count {
            var w = 0.0
            var lastBreak: Int?
            var i = s
            var overflow = false
            while i < cs.count {
                let cw = width(cs[i], letterSpacing)
                // Trailing letter spacing does not count; spaces may hang past the edge.
                if !cs[i].isSpace && i > s && w + cw - letterSpacing > maxWidth + 1e-9 { overflow = true; break }
                w += cw
                if i + 1 < cs.count && canBreak(cs[i], cs[i + 1]) { lastBreak = i + 1 }
                i += 1
            }
            if !overflow { out.append(s..<cs.count); break }
            var e: Int
            if let b = lastBreak {
                e = b
            } else {
                e = i
                while e - 1 > s && CharClass.isNoLineStart(cs[e].first) { e -= 1 }
            }
            out.append(s..<e)
            s = e
        }
        return out
    }

    /// Indices of `cs` in visual order (UAX #9 rule L2: reverse every run at or above each
    /// odd level, highest level first). Trailing spaces are dropped when `trimTrailing`.
    static func visualOrder(_ cs: [ShapedCluster], trimTrailing: Bool) -> [Int] {
        var end = cs.count
        if trimTrailing { while end > 0 && cs[end - 1].isSpace { end -= 1 } }
        var order = Array(0..<end)
        guard let maxLevel = cs[..<end].map(\.level).max(), maxLevel > 0 else { return order }
        let minOdd = cs[..<end].map(\.level).filter { $0 % 2 == 1 }.min() ?? maxLevel
        var level = maxLevel
        while level >= max(1, minOdd) {
            var i = 0
            while i < order.count {
                if cs[order[i]].level >= level {
                    var j = i
                    while j < order.count && cs[order[j]].level >= level { j += 1 }
                    order[i..<j].reverse()
                    i = j
                } else {
                    i += 1
                }
            }
            level -= 1
        }
        return order
    }

    // MARK: Placement

    /// Places one glyph with its pen at (x, baseline): outlines through a font-unit transform
    /// (with synthetic italic shear), colour bitmaps through a scale from their strike.
    static func place(_ g: ShapedGlyph, x: Double, baseline: Double, size: Double, cluster: Int) -> PlacedGlyph? {
        let face = g.face
        let px = x + g.dx, py = baseline + g.dy
        if face.isColorBitmap {
            guard let cg = face.colorGlyph(g.gid) else { return nil }
            let k = size / cg.ppem
            return PlacedGlyph(
                face: face.key, glyphID: g.gid, kind: .image(cg),
                transform: Transform(a: k, b: 0, c: 0, d: k, tx: px + k * cg.left, ty: py - k * cg.top), cluster: cluster)
        }
        guard let o = face.outline(g.gid), !o.path.isEmpty else { return nil }
        let s = size / Double(face.unitsPerEm)
        return PlacedGlyph(
            face: face.key, glyphID: g.gid, kind: .outline(o),
            transform: Transform(a: s, b: 0, c: s * face.key.shear, d: -s, tx: px, ty: py), cluster: cluster)
    }
}
