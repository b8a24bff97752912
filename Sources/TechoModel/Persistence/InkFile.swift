// A page's ink strokes in a file of their own, so that a change to anything else on the page
// rewrites (and flushes) a file the size of the page's other elements, not of its handwriting.
//
// The store holds and diffs each page as one document, the page file it has always written
// (the "whole" bytes: `PageFileWriter`'s output, every stroke in it). On disk the strokes array
// of each ink layer that has strokes is cut out of those bytes into `pages/<id>.ink.json`, and
// the page file keeps the ink file's name in its place:
//
//     pages/p1.json       … "strokes": "p1.ink.json", "type": "ink" …
//     pages/p1.ink.json   {"layers": [{"bytes": 1328000, "id": "ink-1", "strokes": [ … ]}]}
//
// Cutting and pasting are byte operations, so reading the two files back gives exactly the
// bytes that were cut (`bytes` is the length of the strokes array's text, so a reader finds each
// layer without parsing its strokes). Files in any other layout (edited by hand, pretty-printed
// differently) are read through JSON values instead, with errors naming the file at fault. See
// docs/format.md and docs/decisions/change-cost.md.

#if canImport(Glibc)
    import Glibc
#endif

/// Page ink files: where the strokes of a page's ink layers are kept on disk.
enum InkFile {
    /// Page `id`'s ink file, bundle-relative.
    static func path(page id: String) -> String { "pages/\(id).ink.json" }

    /// What an ink layer of page `id` holds as its `strokes` when they are in the ink file.
    static func reference(page id: String) -> String { "\(id).ink.json" }

    /// The page whose ink file `path` names, or nil when it names none.
    static func page(ofPath path: String) -> String? {
        guard path.hasPrefix("pages/"), path.hasSuffix(".ink.json") else { return nil }
        let id = String(path.dropFirst(6).dropLast(9))
        return Identifier.isValid(id) ? id : nil
    }

    // The writer's layout: an element at indent 2, its keys at indent 3.
    static let strokesKey: [UInt8] = Array("\n      \"strokes\": ".utf8)
    static let idKey: [UInt8] = Array("\n      \"id\": \"".utf8)
    static let elementStart: [UInt8] = Array("\n    {".utf8)
    /// What follows an ink layer's strokes array: `type`, its last key, and the element's end.
    static let inkEnd: [UInt8] = Array(",\n      \"type\": \"ink\"\n    }".utf8)
    static let fileStart: [UInt8] = Array("{\n  \"layers\": [\n".utf8)
    static let layerStart: [UInt8] = Array("    {\n      \"bytes\": ".utf8)
    static let layerID: [UInt8] = Array(",\n      \"id\": \"".utf8)
    static let layerStrokes: [UInt8] = Array("\",\n      \"strokes\": ".utf8)
    static let layerEnd: [UInt8] = Array("\n    }".utf8)
    static let fileEnd: [UInt8] = Array("\n  ]\n}\n".utf8)

    /// The ids and spans of `page`'s ink layers that have strokes, its elements written at
    /// `spans` (`PageFileWriter.serialize`).
    static func layers(of page: Page, at spans: [Range<Int>]) -> [(id: String, span: Range<Int>)] {
        zip(page.elements, spans).compactMap { e, span in
            guard case .ink(let ink) = e.content, !ink.strokes.isEmpty else { return nil }
            return (e.id, span)
        }
    }

    /// An ink layer's strokes array in a page's whole bytes.
    struct Cut {
        var id: String
        var array: Range<Int>
    }

    /// The page file and ink file (nil when no layer has strokes) that stand for `whole`, page
    /// `id`'s bytes. `layers`, when given, are the spans of the page's ink layers (the ids and
    /// spans `PageFileWriter` wrote them at); otherwise the layers are found by their layout and
    /// each cut is checked to be one balanced array. A layer that is not in the writer's layout
    /// stays in the page file.
    static func split(_ whole: [UInt8], page id: String, layers: [(id: String, span: Range<Int>)]?) -> (page: [UInt8], ink: [UInt8]?) {
        let cuts = cuts(whole, layers: layers)
        return (pageFile(whole, cuts: cuts, page: id), cuts.isEmpty ? nil : inkFile(whole, cuts: cuts))
    }

    /// The strokes arrays `split` cuts out of `whole` (see there for `layers`).
    static func cuts(_ whole: [UInt8], layers: [(id: String, span: Range<Int>)]?) -> [Cut] {
        whole.withUnsafeBufferPointer { buf -> [Cut] in
            guard let base = buf.baseAddress else { return [] }
            if let layers { return layers.compactMap { cut(in: base, count: buf.count, layer: $0) } }
            return findCuts(in: base, count: buf.count)
        }
    }

    /// The page file: `whole` with each cut array replaced by the ink file's name.
    static func pageFile(_ whole: [UInt8], cuts: [Cut], page id: String) -> [UInt8] {
        guard !cuts.isEmpty else { return whole }
        let ref = Array("\"\(reference(page: id))\"".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(whole.count - cuts.reduce(0) { $0 + $1.array.count } + cuts.count * ref.count)
        var at = 0
        for c in cuts {
            out.append(contentsOf: whole[at..<c.array.lowerBound])
            out.append(contentsOf: ref)
            at = c.array.upperBound
        }
        out.append(contentsOf: whole[at...])
        return out
    }

    /// The ink file holding the cut arrays of `whole`.
    static func inkFile(_ whole: [UInt8], cuts: [Cut]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(cuts.reduce(0) { $0 + $1.array.count + 96 } + 32)
        out.append(contentsOf: fileStart)
        for (k, c) in cuts.enumerated() {
            out.append(contentsOf: layerStart)
            out.append(contentsOf: String(c.array.count).utf8)
            out.append(contentsOf: layerID)
            out.append(contentsOf: c.id.utf8)
            out.append(contentsOf: layerStrokes)
            out.append(contentsOf: whole[c.array])
            out.append(contentsOf: layerEnd)
            if k + 1 < cuts.count { out.append(contentsOf: [UInt8(ascii: ","), 0x0A]) }
        }
        out.append(contentsOf: fileEnd)
        return out
    }

    /// Whether `ink` is the ink file `inkFile(whole, cuts:)` writes, compared in place.
    static func inkFile(_ ink: [UInt8], holds whole: [UInt8], cuts: [Cut]) -> Bool {
        ink.withUnsafeBufferPointer { i in
            whole.withUnsafeBufferPointer { w in
                guard let ib = i.baseAddress, let wb = w.baseAddress, let layers = readLayers(ib, count: i.count), layers.count == cuts.count else {
                    return false
                }
                for (l, c) in zip(layers, cuts) {
                    guard l.id == c.id, l.array.count == c.array.count, c.array.upperBound <= w.count,
                        memcmp(ib + l.array.lowerBound, wb + c.array.lowerBound, c.array.count) == 0
                    else { return false }
                }
                return true
            }
        }
    }

    /// The strokes array of the ink layer written at `layer.span`, when it has strokes.
    private static func cut(in p: UnsafePointer<UInt8>, count: Int, layer: (id: String, span: Range<Int>)) -> Cut? {
        let span = layer.span
        guard span.lowerBound >= 0, span.upperBound <= count, span.count > inkEnd.count + 2 else { return nil }
        let end = span.upperBound - inkEnd.count
        guard matches(p, count: count, at: end, inkEnd), p[end - 1] == UInt8(ascii: "]"),
            let key = find(strokesKey, in: p, from: span.lowerBound, to: end)
        else { return nil }
        let start = key + strokesKey.count
        guard start < end, p[start] == UInt8(ascii: "["), end - start > 2 else { return nil }
        return Cut(id: layer.id, array: start..<end)
    }

    /// The ink layers' strokes arrays found by their layout, each checked to be one array.
    private static func findCuts(in p: UnsafePointer<UInt8>, count: Int) -> [Cut] {
        var out: [Cut] = []
        var from = 0
        let close = [UInt8(ascii: "]")] + inkEnd
        while let key = find(strokesKey, in: p, from: from, to: count) {
            let start = key + strokesKey.count
            from = start
            guard start < count, p[start] == UInt8(ascii: "["), let end = find(close, in: p, from: start, to: count) else { continue }
            let array = start..<(end + 1)
            from = array.upperBound
            guard array.count > 2, isOneArray(p, array), let id = layerID(in: p, before: key) else { continue }
            out.append(Cut(id: id, array: array))
        }
        return out
    }

    /// The id of the element whose `strokes` key starts at `key` (its `id` line before it).
    private static func layerID(in p: UnsafePointer<UInt8>, before key: Int) -> String? {
        var i = key - 1
        let floor = max(0, key - 65_536)
        while i >= floor {
            if p[i] == 0x0A {
                if matches(p, count: key, at: i, elementStart) { return nil }
                if matches(p, count: key, at: i, idKey) {
                    let s = i + idKey.count
                    var e = s
                    while e < key && p[e] != UInt8(ascii: "\"") { e += 1 }
                    guard e < key else { return nil }
                    let id = String(decoding: UnsafeBufferPointer(start: p + s, count: e - s), as: UTF8.self)
                    return Identifier.isValid(id) ? id : nil
                }
            }
            i -= 1
        }
        return nil
    }

    /// Whether `r` of `p` is one JSON array: brackets balanced outside strings, closing only at
    /// its last byte.
    static func isOneArray(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count >= 2, p[r.lowerBound] == UInt8(ascii: "[") else { return false }
        var depth = 0
        var inString = false
        var i = r.lowerBound
        while i < r.upperBound {
            let c = p[i]
            if inString {
                if c == UInt8(ascii: "\\") {
                    i += 2
                    continue
                }
                if c == UInt8(ascii: "\"") { inString = false }
            } else if c == UInt8(ascii: "\"") {
                inString = true
            } else if c == UInt8(ascii: "[") || c == UInt8(ascii: "{") {
                depth += 1
            } else if c == UInt8(ascii: "]") || c == UInt8(ascii: "}") {
                depth -= 1
                if depth < 0 || (depth == 0 && i != r.upperBound - 1) { return false }
            }
            i += 1
        }
        return depth == 0 && !inString && i == r.upperBound
    }

    /// A page's whole bytes from its page file and ink file (nil when there is none), and the
    /// ink file's layers no ink layer of the page names (left out; `check` reports them).
    /// Throws `StorageError` naming the file at fault, or the JSON error of a file that does not
    /// parse, when the page file names the ink file and the two do not fit together.
    static func join(page: [UInt8], ink: [UInt8]?, id: String, limits: ModelLimits) throws -> (whole: [UInt8], unused: [String]) {
        let pagePath = JournalStore.pagePath(id)
        let stub = strokesKey + Array("\"\(reference(page: id))\"".utf8)
        let stubs: [Int] = page.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return [] }
            var out: [Int] = []
            var from = 0
            while let s = find(stub, in: base, from: from, to: buf.count) {
                out.append(s)
                from = s + stub.count
            }
            return out
        }
        if stubs.isEmpty && ink == nil {
            // A page file naming an ink file that is not there: say so rather than "not an array".
            let name = Array("\"\(reference(page: id))\"".utf8)
            if page.count < 1 << 20, page.withUnsafeBufferPointer({ b in b.baseAddress.map { find(name, in: $0, from: 0, to: b.count) != nil } ?? false }) {
                return try joinValues(page: page, ink: nil, id: id, limits: limits)
            }
            return (page, [])
        }
        if let ink, !ink.isEmpty, !stubs.isEmpty, let whole = try joinFast(page: page, stubs: stubs, stubLength: stub.count, ink: ink, id: id, limits: limits) {
            return (whole, [])
        }
        if ink == nil {
            throw StorageError(path: path(page: id), message: "missing, but \(pagePath) keeps ink strokes there")
        }
        return try joinValues(page: page, ink: ink, id: id, limits: limits)
    }

    /// `join` for files in the layout `split` writes; nil when they are not.
    private static func joinFast(page: [UInt8], stubs: [Int], stubLength: Int, ink: [UInt8], id: String, limits: ModelLimits) throws -> [UInt8]? {
        let ids: [String]? = page.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return nil }
            var out: [String] = []
            for s in stubs {
                guard let id = layerID(in: base, before: s) else { return nil }
                out.append(id)
            }
            return out
        }
        guard let ids, let layers = ink.withUnsafeBufferPointer({ b in b.baseAddress.flatMap { readLayers($0, count: b.count) } }),
            layers.map(\.id) == ids
        else { return nil }
        let size = page.count - stubs.count * (stubLength - strokesKey.count) + layers.reduce(0) { $0 + $1.array.count }
        guard size <= limits.json.maxBytes else {
            throw StorageError(
                path: JournalStore.pagePath(id), message: "with its ink file the page is \(size) bytes, over the \(limits.json.maxBytes)-byte limit")
        }
        var out: [UInt8] = []
        out.reserveCapacity(size)
        var at = 0
        for (k, s) in stubs.enumerated() {
            let value = s + strokesKey.count
            out.append(contentsOf: page[at..<value])
            out.append(contentsOf: ink[layers[k].array])
            at = s + stubLength
        }
        out.append(contentsOf: page[at...])
        return out
    }

    /// The layers of an ink file in the layout `split` writes; nil when it is not.
    private static func readLayers(_ p: UnsafePointer<UInt8>, count: Int) -> [Cut]? {
        guard matches(p, count: count, at: 0, fileStart) else { return nil }
        var pos = fileStart.count
        var out: [Cut] = []
        while true {
            guard matches(p, count: count, at: pos, layerStart) else { return nil }
            pos += layerStart.count
            var n = 0
            let digits = pos
            while pos < count, p[pos] >= 0x30, p[pos] <= 0x39, pos - digits < 12 {
                n = n * 10 + Int(p[pos] - 0x30)
                pos += 1
            }
            guard pos > digits, matches(p, count: count, at: pos, layerID) else { return nil }
            pos += layerID.count
            let s = pos
            while pos < count, p[pos] != UInt8(ascii: "\""), pos - s <= 64 { pos += 1 }
            guard pos < count else { return nil }
            let id = String(decoding: UnsafeBufferPointer(start: p + s, count: pos - s), as: UTF8.self)
            guard Identifier.isValid(id), matches(p, count: count, at: pos, layerStrokes) else { return nil }
            pos += layerStrokes.count
            guard n >= 2, n <= count - pos, p[pos] == UInt8(ascii: "["), p[pos + n - 1] == UInt8(ascii: "]") else { return nil }
            out.append(Cut(id: id, array: pos..<(pos + n)))
            pos += n
            guard matches(p, count: count, at: pos, layerEnd) else { return nil }
            pos += layerEnd.count
            if matches(p, count: count, at: pos, [UInt8(ascii: ","), 0x0A]) {
                pos += 2
                continue
            }
            guard matches(p, count: count, at: pos, fileEnd), pos + fileEnd.count == count else { return nil }
            return out
        }
    }

    /// `join` through JSON values: any layout, every problem named.
    private static func joinValues(page: [UInt8], ink: [UInt8]?, id: String, limits: ModelLimits) throws -> (whole: [UInt8], unused: [String]) {
        let pagePath = JournalStore.pagePath(id), inkPath = path(page: id), ref = reference(page: id)
        var layers: [String: JSONValue] = [:]
        var order: [String] = []
        if let ink {
            let value = try JSONParser.parse(ink, file: inkPath, limits: limits.json)
            guard case .object(let o) = value, o.count == 1, case .array(let items)? = o["layers"] else {
                throw StorageError(path: inkPath, message: "expected an object with one key, \"layers\", an array")
            }
            for (k, item) in items.enumerated() {
                guard case .object(let lo) = item, case .string(let lid)? = lo["id"], case .array? = lo["strokes"],
                    Set(lo.keys).isSubset(of: ["bytes", "id", "strokes"])
                else {
                    throw StorageError(path: inkPath, message: "layers[\(k)]: expected {\"id\": an ink layer's id, \"strokes\": an array}")
                }
                guard layers[lid] == nil else { throw StorageError(path: inkPath, message: "layers[\(k)]: layer \"\(lid)\" is listed twice") }
                layers[lid] = lo["strokes"]
                order.append(lid)
            }
        }
        let value = try JSONParser.parse(page, file: pagePath, limits: limits.json)
        guard case .object(var po) = value, case .array(var elements)? = po["elements"] else { return (page, order) }
        var used = Set<String>()
        var named = false
        for i in elements.indices {
            guard case .object(var eo) = elements[i], case .string(let name)? = eo["strokes"] else { continue }
            guard name == ref else {
                throw StorageError(path: pagePath, message: "elements[\(i)].strokes: \"\(name)\" is not this page's ink file (\"\(ref)\")")
            }
            named = true
            guard ink != nil else { throw StorageError(path: inkPath, message: "missing, but \(pagePath) keeps ink strokes there") }
            guard case .string(let eid)? = eo["id"], let strokes = layers[eid] else {
                throw StorageError(path: inkPath, message: "holds no strokes for the ink layer at elements[\(i)] of \(pagePath)")
            }
            used.insert(eid)
            eo["strokes"] = strokes
            elements[i] = .object(eo)
        }
        let unused = order.filter { !used.contains($0) }
        guard named else { return (page, unused) }
        po["elements"] = .array(elements)
        let whole = JSONValue.object(po).serializedBytes()
        guard whole.count <= limits.json.maxBytes else {
            throw StorageError(path: pagePath, message: "with its ink file the page is \(whole.count) bytes, over the \(limits.json.maxBytes)-byte limit")
        }
        return (whole, unused)
    }

    /// Whether `p` holds `word` at `at` (within `count`).
    static func matches(_ p: UnsafePointer<UInt8>, count: Int, at: Int, _ word: [UInt8]) -> Bool {
        guard at >= 0, word.count <= count - at else { return false }
        return word.withUnsafeBufferPointer { memcmp(p + at, $0.baseAddress!, word.count) == 0 }
    }

    /// Where `needle` first starts in `from..<to` of `p`.
    static func find(_ needle: [UInt8], in p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from >= 0, to - from >= needle.count else { return nil }
        return needle.withUnsafeBufferPointer { n -> Int? in
            let first = Int32(n[0])
            let last = to - n.count
            var i = from
            while i <= last {
                guard let hit = memchr(p + i, first, last - i + 1) else { return nil }
                let at = UnsafeRawPointer(hit) - UnsafeRawPointer(p)
                if memcmp(p + at, n.baseAddress!, n.count) == 0 { return at }
                i = at + 1
            }
            return nil
        }
    }
}

extension Page {
    /// The page file and ink file (nil when no ink layer has strokes) techo writes for this
    /// page in a journal: `pages/<id>.json` and `pages/<id>.ink.json` (docs/format.md).
    public func storedFiles() -> (page: [UInt8], ink: [UInt8]?) {
        let (whole, spans) = PageFileWriter.serialize(self)
        return InkFile.split(whole, page: id, layers: InkFile.layers(of: self, at: spans))
    }

    /// Decodes a page from its page file and ink file as a journal stores them (`storedFiles`);
    /// a page file that holds its strokes itself needs no ink file. Errors name the file at
    /// fault: `pages/<id>.json` or `pages/<id>.ink.json`.
    public static func decode(pageFile: [UInt8], inkFile: [UInt8]?, id: String, limits: ModelLimits = .default) throws -> Page {
        try Identifier.validate(id, what: "page id")
        let whole = try InkFile.join(page: pageFile, ink: inkFile, id: id, limits: limits).whole
        return try Page.decode(bytes: whole, file: JournalStore.pagePath(id), limits: limits)
    }
}
