// Font lookup through fontconfig: a family + weight + slant becomes an ordered list of faces
// (FcFontSort), and each cluster of text takes the first face whose charset covers it.
import CFontconfig
import CFreeType
import Foundation
import TechoRules

/// What a text asks for: a family name or a font file, a weight and a slant.
public struct FontRequest: Hashable, Sendable {
    /// A fontconfig family name ("Noto Sans CJK JP", "serif"), or for the text engine's own
    /// callers the path of a font file (`path#N` for face N of a collection). Default "sans-serif".
    public var family: String
    /// A font file to use first (a font imported into a journal, found by the renderer in the
    /// journal's assets), or nil for the family alone. Default nil.
    public var file: String?
    /// CSS / OpenType weight, 100…900. Default 400.
    public var weight: Int
    /// Italic (or oblique). Default false.
    public var italic: Bool

    public init(family: String = "sans-serif", file: String? = nil, weight: Int = 400, italic: Bool = false) {
        self.family = family
        self.file = file
        self.weight = weight
        self.italic = italic
    }
}

/// A fallback candidate: a face fontconfig offered, and what it covers.
struct FallbackCandidate {
    let key: FaceKey
    let charset: OpaquePointer?  // FcCharSet*, owned (copied); nil means "ask FreeType"
    let isColor: Bool
}

/// The ordered faces for one request: the requested face first, then fontconfig's fallbacks,
/// then the colour emoji face. Per-scalar choices are cached.
final class FallbackChain: @unchecked Sendable {
    let request: FontRequest
    let candidates: [FallbackCandidate]
    /// Index of the preferred colour emoji candidate, if any.
    let emojiIndex: Int?
    /// Set when the requested family is not installed: the family used instead.
    let substitutedFamily: String?
    var coverCache: [UInt32: Int] = [:]  // scalar → candidate index, -1 for none

    init(request: FontRequest, candidates: [FallbackCandidate], emojiIndex: Int?, substitutedFamily: String?) {
        self.request = request
        self.candidates = candidates
        self.emojiIndex = emojiIndex
        self.substitutedFamily = substitutedFamily
    }

    deinit { for c in candidates { if let cs = c.charset { FcCharSetDestroy(cs) } } }
}

/// Finds and opens fonts; caches faces and fallback chains.
///
/// ## Thread safety
/// One lock guards fontconfig, the FreeType library (face creation) and the caches; it is held
/// only for lookups and face creation, never while glyphs are loaded or text is shaped (those
/// take the face's own lock). Faces are created once per `FaceKey` and kept for the catalog's
/// life, so the number of open faces is bounded by the installed fonts.
///
/// ## Determinism
/// The same request, text and installed fonts give the same faces: fontconfig's sort order is
/// deterministic for a given configuration, and candidates are tried in that order.
public final class FontCatalog: @unchecked Sendable {
    /// The process-wide catalog, created on first use.
    public static let shared: FontCatalog = FontCatalog()

    private let lock = NSLock()
    private let library: FreeTypeLibrary?
    private var config: OpaquePointer?
    private var faces: [FaceKey: FontFace] = [:]
    private var chains: [FontRequest: FallbackChain] = [:]

    public init() {
        library = FreeTypeLibrary()
        config = FcInitLoadConfigAndFonts()
    }

    deinit {
        if let config { FcConfigDestroy(config) }
    }

    private func locked<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The opened face for `key`, created on first use.
    public func face(_ key: FaceKey) throws -> FontFace {
        try locked { try faceLocked(key) }
    }

    private func faceLocked(_ key: FaceKey) throws -> FontFace {
        if let f = faces[key] { return f }
        guard let library else { throw FontError.unreadable(path: key.path, index: key.index, code: -3) }
        let f = try FontFace(library: library, key: key)
        faces[key] = f
        return f
    }

    /// Installed family names containing `pattern` (case-insensitive; all when nil or empty),
    /// sorted and without duplicates. Backs `techo fonts [PATTERN]`.
    public func families(matching pattern: String? = nil) -> [String] {
        locked {
            guard let config else { return [] }
            let pat = FcPatternCreate()
            defer { FcPatternDestroy(pat) }
            let os = fcObjectSet([FC_FAMILY])
            defer { FcObjectSetDestroy(os) }
            guard let set = FcFontList(config, pat, os) else { return [] }
            defer { FcFontSetDestroy(set) }
            var names = Set<String>()
            let needle = (pattern ?? "").lowercased()
            for i in 0..<Int(set.pointee.nfont) {
                guard let p = set.pointee.fonts[i] else { continue }
                var n: Int32 = 0
                while true {
                    var s: UnsafeMutablePointer<FcChar8>?
                    guard FcPatternGetString(p, FC_FAMILY, n, &s) == FcResultMatch, let s else { break }
                    let name = String(cString: s)
                    if needle.isEmpty || name.lowercased().contains(needle) { names.insert(name) }
                    n += 1
                }
            }
            return names.sorted()
        }
    }

    /// What the installed fonts are, as lines of text: every font file fontconfig lists (path,
    /// face index, size, modification time), sorted. Installing, removing or upgrading a font
    /// changes it; it is what a page's render key names of the fonts (docs/decisions/rebuild.md).
    /// Empty when fontconfig has no configuration.
    public func installedFontsSummary() -> [String] {
        locked {
            guard let config else { return [] }
            let pat = FcPatternCreate()
            defer { FcPatternDestroy(pat) }
            let os = fcObjectSet([FC_FILE, FC_INDEX])
            defer { FcObjectSetDestroy(os) }
            guard let set = FcFontList(config, pat, os) else { return [] }
            defer { FcFontSetDestroy(set) }
            var lines: [String] = []
            for i in 0..<Int(set.pointee.nfont) {
                guard let p = set.pointee.fonts[i] else { continue }
                var file: UnsafeMutablePointer<FcChar8>?
                guard FcPatternGetString(p, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
                var index: Int32 = 0
                _ = FcPatternGetInteger(p, FC_INDEX, 0, &index)
                let path = String(cString: file)
                var st = stat()
                let found = stat(path, &st) == 0
                lines.append(
                    found
                        ? "\(path) \(index) \(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
                        : "\(path) \(index) missing")
            }
            return lines.sorted()
        }
    }

    /// The fallback chain for a request (cached).
    func chain(for request: FontRequest) throws -> FallbackChain {
        try locked {
            if let c = chains[request] { return c }
            let c = try buildChain(request)
            chains[request] = c
            return c
        }
    }

    /// The candidate index that draws the cluster `scalars`, or nil when no installed font can.
    /// Emoji-presentation clusters try the colour emoji face first. A cluster is covered when
    /// its face covers every scalar that is not default-ignorable (joiners, variation selectors).
    func candidateIndex(for scalars: [Unicode.Scalar], in chain: FallbackChain) -> Int? {
        var unique = Set<UInt32>()
        let needed = scalars.filter { !CharClass.isDefaultIgnorable($0) && unique.insert($0.value).inserted }
        guard let base = needed.first else { return 0 }
        return locked {
            if CharClass.prefersEmojiPresentation(scalars), let e = chain.emojiIndex,
                needed.allSatisfy({ covers(chain.candidates[e], $0) })
            {
                return e
            }
            if needed.count == 1 { return cachedCover(base, chain) }
            for (i, c) in chain.candidates.enumerated() where needed.allSatisfy({ covers(c, $0) }) {
                return i
            }
            // No one face has the base and all its marks: take the base's face.
            return cachedCover(base, chain)
        }
    }

    private func cachedCover(_ s: Unicode.Scalar, _ chain: FallbackChain) -> Int? {
        if let i = chain.coverCache[s.value] { return i < 0 ? nil : i }
        var found = -1
        for (i, c) in chain.candidates.enumerated() where covers(c, s) {
            found = i
            break
        }
        chain.coverCache[s.value] = found
        return found < 0 ? nil : found
    }

    private func covers(_ c: FallbackCandidate, _ s: Unicode.Scalar) -> Bool {
        if let cs = c.charset { return FcCharSetHasChar(cs, FcChar32(s.value)) != 0 }
        return false
    }

    // MARK: Building chains

    private func buildChain(_ request: FontRequest) throws -> FallbackChain {
        guard let config else { throw FontError.fontconfigUnavailable }
        var candidates: [FallbackCandidate] = []
        var seen = Set<FaceKey>()
        var substituted: String?
        var sortFamily = request.family

        if let (path, index) = request.file.map({ ($0, 0) }) ?? FontCatalog.fontFilePath(request.family) {
            guard FileManager.default.isReadableFile(atPath: path) else { throw FontError.fileNotFound(path: path) }
            var count: Int32 = 0
            guard let pat = FcFreeTypeQuery(path, UInt32(index), nil, &count) else {
                throw FontError.unreadable(path: path, index: index, code: -4)
            }
            defer { FcPatternDestroy(pat) }
            let key = FaceKey(path: path, index: index)
            candidates.append(FallbackCandidate(key: key, charset: charsetCopy(pat), isColor: boolValue(pat, FC_COLOR)))
            seen.insert(key)
            sortFamily = "sans-serif"
        }

        // The fontconfig sort: the requested family first (or its substitute), then every
        // installed face ordered by closeness to the request.
        let pat = makePattern(family: sortFamily, weight: request.weight, italic: request.italic, color: nil)
        defer { FcPatternDestroy(pat) }
        var result = FcResultNoMatch
        if let set = FcFontSort(config, pat, FcFalse, nil, &result) {
            defer { FcFontSetDestroy(set) }
            for i in 0..<Int(set.pointee.nfont) {
                guard let font = set.pointee.fonts[i], let prepared = FcFontRenderPrepare(config, pat, font) else { continue }
                defer { FcPatternDestroy(prepared) }
                // Only outline faces and colour bitmap faces can be drawn at any size.
                guard boolValue(prepared, FC_SCALABLE) || boolValue(prepared, FC_COLOR),
                    let key = faceKey(prepared), !seen.contains(key)
                else { continue }
                if candidates.isEmpty && !FontCatalog.isGeneric(request.family) {
                    // The best match does not carry the requested name: the family is missing.
                    let names = stringValues(prepared, FC_FAMILY)
                    if !names.contains(where: { $0.lowercased() == request.family.lowercased() }) { substituted = names.first }
                }
                seen.insert(key)
                candidates.append(FallbackCandidate(key: key, charset: charsetCopy(prepared), isColor: boolValue(prepared, FC_COLOR)))
            }
        }
        // The colour emoji face fontconfig prefers, so 🌸 is drawn in colour even when a
        // monochrome symbol font comes earlier in the sort.
        var emojiIndex: Int?
        let epat = makePattern(family: "emoji", weight: 400, italic: false, color: true)
        defer { FcPatternDestroy(epat) }
        if let m = FcFontMatch(config, epat, &result) {
            defer { FcPatternDestroy(m) }
            if boolValue(m, FC_COLOR), let key = faceKey(m) {
                emojiIndex = candidates.firstIndex { $0.key == key }
                if emojiIndex == nil {
                    candidates.append(FallbackCandidate(key: key, charset: charsetCopy(m), isColor: true))
                    emojiIndex = candidates.count - 1
                }
            }
        }
        if candidates.isEmpty { throw FontError.fontconfigUnavailable }
        return FallbackChain(request: request, candidates: candidates, emojiIndex: emojiIndex, substitutedFamily: substituted)
    }

    /// `path` or `path#index` when the family names a font file (absolute or relative path, or
    /// anything ending in a font extension). The text engine's own callers (tests, tools) may
    /// name files so; a journal cannot, since its texts' families are refused when they look
    /// like paths (`FontNames.looksLikeFilePath`), and the renderer passes imported fonts as `file`.
    static func fontFilePath(_ family: String) -> (String, Int)? {
        var path = family, index = 0
        if let hash = family.lastIndex(of: "#"), let n = Int(family[family.index(after: hash)...]), n >= 0 {
            path = String(family[..<hash])
            index = n
        }
        return FontNames.looksLikeFilePath(path) ? (path, index) : nil
    }

    /// Whether `family` is a generic name or an installed family (ignoring case), and if not,
    /// up to three installed families that are close to it (sharing a word, or a few typing
    /// mistakes away), for the error message.
    public func checkFamily(_ family: String) -> (installed: Bool, close: [String]) {
        if FontCatalog.isGeneric(family) { return (true, []) }
        let all = families()
        let wanted = family.lowercased()
        if all.contains(where: { $0.lowercased() == wanted }) { return (true, []) }
        let words = Set(wanted.split(separator: " ").map(String.init).filter { $0.count > 2 })
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var row = Array(0...b.count)
            for (i, ca) in a.enumerated() {
                var prev = row[0]
                row[0] = i + 1
                for (j, cb) in b.enumerated() {
                    let cur = row[j + 1]
                    row[j + 1] = min(row[j + 1] + 1, row[j] + 1, prev + (ca == cb ? 0 : 1))
                    prev = cur
                }
            }
            return row[b.count]
        }
        let scored = all.compactMap { name -> (Int, String)? in
            let lower = name.lowercased()
            let d = distance(Array(wanted), Array(lower))
            if d <= max(2, wanted.count / 4) { return (d, name) }
            let shared = words.intersection(lower.split(separator: " ").map(String.init)).count
            if shared > 0 { return (100 - shared, name) }
            if lower.hasPrefix(wanted) || (wanted.count > 3 && lower.contains(wanted)) { return (50, name) }
            return nil
        }
        return (false, scored.sorted { $0 < $1 }.prefix(3).map(\.1))
    }

    /// The language every lookup is made for, so results do not depend on the locale.
    static let language = "en"

    static func isGeneric(_ family: String) -> Bool {
        ["sans-serif", "sans", "serif", "monospace", "mono", "emoji", "system-ui", "cursive", "fantasy", ""]
            .contains(family.lowercased())
    }

    private func makePattern(family: String, weight: Int, italic: Bool, color: Bool?) -> OpaquePointer {
        let pat = FcPatternCreate()!
        FcPatternAddString(pat, FC_FAMILY, family)
        FcPatternAddDouble(pat, FC_WEIGHT, FcWeightFromOpenTypeDouble(Double(min(max(weight, 1), 1000))))
        FcPatternAddInteger(pat, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
        // Pin the language: left out, fontconfig takes it from the process locale (LANG), and
        // the same journal would pick different CJK faces on differently configured machines.
        FcPatternAddString(pat, FC_LANG, FontCatalog.language)
        if let color { FcPatternAddBool(pat, FC_COLOR, color ? FcTrue : FcFalse) }
        FcConfigSubstitute(config, pat, FcMatchPattern)
        FcDefaultSubstitute(pat)
        return pat
    }

    private func faceKey(_ p: OpaquePointer) -> FaceKey? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(p, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(p, FC_INDEX, 0, &index)
        let embolden = boolValue(p, FC_EMBOLDEN)
        var shear = 0.0
        var m = FcMatrix(xx: 1, xy: 0, yx: 0, yy: 1)
        var mp: UnsafeMutablePointer<FcMatrix>?
        if FcPatternGetMatrix(p, FC_MATRIX, 0, &mp) == FcResultMatch, let mp { m = mp.pointee; shear = m.xy }
        return FaceKey(path: String(cString: file), index: Int(index & 0xFFFF), embolden: embolden, shear: shear)
    }

    private func boolValue(_ p: OpaquePointer, _ object: String) -> Bool {
        var b: FcBool = FcFalse
        return FcPatternGetBool(p, object, 0, &b) == FcResultMatch && b != FcFalse
    }

    private func stringValues(_ p: OpaquePointer, _ object: String) -> [String] {
        var out: [String] = []
        var n: Int32 = 0
        while true {
            var s: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(p, object, n, &s) == FcResultMatch, let s else { break }
            out.append(String(cString: s))
            n += 1
        }
        return out
    }

    private func charsetCopy(_ p: OpaquePointer) -> OpaquePointer? {
        var cs: OpaquePointer?
        guard FcPatternGetCharSet(p, FC_CHARSET, 0, &cs) == FcResultMatch, let cs else { return nil }
        return FcCharSetCopy(cs)
    }

    private func fcObjectSet(_ names: [String]) -> UnsafeMutablePointer<FcObjectSet> {
        let os = FcObjectSetCreate()!
        for n in names { FcObjectSetAdd(os, n) }
        return os
    }
}
