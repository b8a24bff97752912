// Paragraph shaping: each grapheme cluster gets a face (fontconfig fallback) and a bidi level
// (a simplified UAX #9: strong types from script, neutrals take their neighbours' direction),
// then runs of one face, one level and one script (UAX #24, Common/Inherited joining their
// neighbours) are shaped by HarfBuzz with the whole paragraph as context, and the glyphs are
// handed back to the clusters they came from.
import CHarfBuzz
import TechoGeometry

/// One positioned glyph from HarfBuzz, in pixels.
struct ShapedGlyph {
    let face: FontFace
    let gid: UInt32
    /// Advance in pixels.
    let advance: Double
    /// Offset from the pen, pixels, y down.
    let dx: Double, dy: Double
}

/// One grapheme cluster (a Swift `Character`) after shaping.
struct ShapedCluster {
    let character: Character
    let first: Unicode.Scalar
    let last: Unicode.Scalar
    /// Character offset of this cluster in the whole text.
    var sourceIndex: Int
    var face: FontFace?
    var level: UInt8 = 0
    /// Glyphs in visual order (left to right) within the cluster.
    var glyphs: [ShapedGlyph] = []
    /// Sum of glyph advances, pixels (letter spacing not included).
    var advance: Double = 0
    var isSpace: Bool { CharClass.isBreakingSpace(first) }
    /// The scalar no installed face can draw (or the chosen face gave `.notdef` for), if any.
    var missing: Unicode.Scalar?
}

/// Shapes one paragraph (no hard line breaks inside).
struct ParagraphShaper {
    let catalog: FontCatalog
    let chain: FallbackChain
    let sizePx: Double
    let disableLigatures: Bool

    /// Returns the clusters in logical order and the paragraph's base level (0 LTR, 1 RTL).
    func shape(_ chars: ArraySlice<Character>, sourceStart: Int, openFace: (Int) throws -> FontFace?) throws
        -> (clusters: [ShapedCluster], baseLevel: UInt8)
    {
        var clusters: [ShapedCluster] = []
        clusters.reserveCapacity(chars.count)
        var scalars: [UInt32] = []
        scalars.reserveCapacity(chars.count)
        var scalarStart: [Int] = []
        var clusterOfScalar: [Int32] = []
        var dirs: [CharClass.Direction] = []
        for (k, ch) in chars.enumerated() {
            let ss = Array(ch.unicodeScalars)
            scalarStart.append(scalars.count)
            for s in ss {
                scalars.append(s.value)
                clusterOfScalar.append(Int32(k))
            }
            var c = ShapedCluster(character: ch, first: ss.first ?? " ", last: ss.last ?? " ", sourceIndex: sourceStart + k)
            if let idx = catalog.candidateIndex(for: ss, in: chain), let face = try openFace(idx) {
                c.face = face
            } else {
                c.missing = ss.first { !CharClass.isDefaultIgnorable($0) }
            }
            clusters.append(c)
            dirs.append(ss.first(where: { !CharClass.isDefaultIgnorable($0) }).map(CharClass.direction) ?? .neutral)
        }
        scalarStart.append(scalars.count)

        // Simple bidi: paragraph direction from the first strong character; neutrals between
        // two strong characters of one direction take it, otherwise the paragraph's.
        let baseRTL = dirs.first(where: { $0 != .neutral }) == .rtl
        let baseLevel: UInt8 = baseRTL ? 1 : 0
        var resolved = dirs
        var i = 0
        while i < resolved.count {
            guard resolved[i] == .neutral else { i += 1; continue }
            var j = i
            while j < resolved.count && resolved[j] == .neutral { j += 1 }
            let before = i > 0 ? resolved[i - 1] : (baseRTL ? .rtl : .ltr)
            let after = j < resolved.count ? resolved[j] : (baseRTL ? .rtl : .ltr)
            let d: CharClass.Direction = before == after ? before : (baseRTL ? .rtl : .ltr)
            for k in i..<j { resolved[k] = d }
            i = j
        }
        for k in clusters.indices {
            let rtl = resolved[k] == .rtl
            clusters[k].level = baseRTL ? (rtl ? 1 : 2) : (rtl ? 1 : 0)
        }

        // Script per cluster (HarfBuzz's Unicode data); Common and Inherited clusters (spaces,
        // punctuation, digits, marks) take the script before them, or after them at the start.
        let ufuncs = hb_unicode_funcs_get_default()
        var scripts = [hb_script_t](repeating: HB_SCRIPT_COMMON, count: clusters.count)
        // Whether the cluster has a script of its own (a letter), before Common clusters are
        // resolved to their neighbours' script.
        var isLetter = [Bool](repeating: false, count: clusters.count)
        for k in clusters.indices {
            for s in chars[chars.startIndex + k].unicodeScalars {
                let sc = hb_unicode_script(ufuncs, s.value)
                if sc != HB_SCRIPT_COMMON && sc != HB_SCRIPT_INHERITED && sc != HB_SCRIPT_UNKNOWN {
                    scripts[k] = sc
                    isLetter[k] = true
                    break
                }
            }
        }
        if let firstReal = scripts.firstIndex(where: { $0 != HB_SCRIPT_COMMON }) {
            for k in 0..<firstReal { scripts[k] = scripts[firstReal] }
            for k in firstReal..<scripts.count where scripts[k] == HB_SCRIPT_COMMON { scripts[k] = scripts[k - 1] }
        }

        // Runs of one face, one level and one script, shaped with the paragraph as context.
        var features: [hb_feature_t] = []
        if disableLigatures {
            for tag in ["liga=0", "clig=0", "dlig=0"] {
                var f = hb_feature_t()
                if hb_feature_from_string(tag, -1, &f) != 0 { features.append(f) }
            }
        }
        // A language hint for HarfBuzz (locl forms in pan-CJK fonts), from the paragraph's own
        // text rather than the process locale, so shaping is the same on every machine.
        var lang = "und"
        for s in scalars {
            if (0x3040...0x30FF).contains(s) { lang = "ja"; break }
            if (0xAC00...0xD7AF).contains(s) || (0x1100...0x11FF).contains(s) { lang = "ko"; break }
        }
        // The hint is for letters only: punctuation, spaces and digits (Common script) keep the
        // forms of the face they are drawn in, as Pango and hb-view draw them. (A Japanese
        // `locl` in a Chinese face would swap its full-width "·" for a proportional one, a
        // different glyph from the one the requested face maps the character to.)
        let hinted = lang != "und"
        let language = hb_language_from_string(lang, -1)
        let neutral = hb_language_from_string("und", -1)
        func usesHint(_ k: Int) -> Bool { hinted && isLetter[k] }
        guard let buf = hb_buffer_create() else { return (clusters, baseLevel) }
        defer { hb_buffer_destroy(buf) }
        var start = 0
        while start < clusters.count {
            var end = start + 1
            while end < clusters.count && clusters[end].face === clusters[start].face
                && clusters[end].level == clusters[start].level && scripts[end] == scripts[start]
                && usesHint(end) == usesHint(start)
            { end += 1 }
            if let face = clusters[start].face {
                shapeRun(
                    buf, face: face, script: scripts[start], language: usesHint(start) ? language : neutral,
                    rtl: clusters[start].level % 2 == 1, scalars: scalars,
                    from: scalarStart[start], to: scalarStart[end], clusterOfScalar: clusterOfScalar,
                    features: features, into: &clusters)
            }
            start = end
        }
        return (clusters, baseLevel)
    }

    private func shapeRun(
        _ buf: OpaquePointer, face: FontFace, script: hb_script_t, language: hb_language_t?, rtl: Bool, scalars: [UInt32], from: Int, to: Int,
        clusterOfScalar: [Int32], features: [hb_feature_t], into clusters: inout [ShapedCluster]
    ) {
        hb_buffer_clear_contents(buf)
        scalars.withUnsafeBufferPointer { p in
            hb_buffer_add_codepoints(buf, p.baseAddress, Int32(p.count), UInt32(from), Int32(to - from))
        }
        hb_buffer_set_direction(buf, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_language(buf, language)
        if script != HB_SCRIPT_COMMON { hb_buffer_set_script(buf, script) }
        hb_buffer_guess_segment_properties(buf)
        let scale = sizePx / Double(face.unitsPerEm)
        face.withLock {
            features.withUnsafeBufferPointer { f in
                hb_shape(face.hbFont, buf, f.baseAddress, UInt32(f.count))
            }
            var n: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buf, &n), let pos = hb_buffer_get_glyph_positions(buf, nil) else { return }
            for g in 0..<Int(n) {
                let cl = Int(infos[g].cluster)
                guard cl >= 0 && cl < clusterOfScalar.count else { continue }
                let k = Int(clusterOfScalar[cl])
                let gid = infos[g].codepoint
                if gid == 0 {
                    // .notdef: never drawn; reported as missing unless the cluster is blank.
                    if !clusters[k].isSpace && !clusters[k].character.unicodeScalars.allSatisfy(CharClass.isDefaultIgnorable) {
                        clusters[k].missing = Unicode.Scalar(scalars[cl]) ?? clusters[k].first
                    }
                    continue
                }
                let adv = Double(pos[g].x_advance) * scale
                clusters[k].glyphs.append(
                    ShapedGlyph(
                        face: face, gid: gid, advance: adv,
                        dx: Double(pos[g].x_offset) * scale,
                        dy: -Double(pos[g].y_offset) * scale))
                clusters[k].advance += adv
            }
        }
    }
}
