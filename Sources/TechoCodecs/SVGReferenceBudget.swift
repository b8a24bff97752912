// A bound on how far an SVG's <use> references expand, checked before librsvg renders it.
//
// librsvg refuses a document once it has instanced 500 000 referenced elements, but reaching
// that limit in an exponential chain (each group using the previous one ten times) costs tens
// of seconds of rendering. This scanner reads the tags only (no entities, no CSS), records which
// `<use href="#id">` sit inside which element with an `id`, and works out how many elements the
// references instance, memoised, with cycles counted as nothing (librsvg refuses those itself).
// A sticker instances a handful; over `limit` is refused at once with an error.

enum SVGReferenceBudget {
    /// The most elements `<use>` may instance: 100 000, a few times what the most detailed
    /// sticker sheet needs and well under librsvg's own limit.
    static let limit = 100_000

    /// How many elements the document's `<use>` references instance in total, saturating at
    /// `limit + 1`.
    /// - Complexity: O(bytes + ids × uses).
    static func instancedElements(_ bytes: [UInt8]) -> Int {
        var usesInside: [String: [String]] = [:]  // id → targets of the <use>s inside it
        var topLevel: [String] = []  // targets of <use>s inside no id'd element
        var stack: [(name: String, id: String?)] = []
        var i = 0
        let n = bytes.count
        func starts(_ s: String, at k: Int) -> Bool {
            let u = Array(s.utf8)
            return k + u.count <= n && Array(bytes[k..<(k + u.count)]) == u
        }
        func skip(past s: String, from k: Int) -> Int {
            let u = Array(s.utf8)
            var j = k
            while j + u.count <= n {
                if bytes[j] == u[0], Array(bytes[j..<(j + u.count)]) == u { return j + u.count }
                j += 1
            }
            return n
        }
        while i < n {
            guard bytes[i] == UInt8(ascii: "<") else { i += 1; continue }
            if starts("<!--", at: i) { i = skip(past: "-->", from: i); continue }
            if starts("<![CDATA[", at: i) { i = skip(past: "]]>", from: i); continue }
            if starts("<?", at: i) || starts("<!", at: i) { i = skip(past: ">", from: i); continue }
            // A tag: read to its closing '>' outside quotes.
            var j = i + 1, quote: UInt8 = 0
            while j < n, quote != 0 || bytes[j] != UInt8(ascii: ">") {
                if quote != 0 { if bytes[j] == quote { quote = 0 } } else if bytes[j] == 0x22 || bytes[j] == 0x27 { quote = bytes[j] }
                j += 1
            }
            let tag = String(decoding: bytes[(i + 1)..<min(j, n)], as: UTF8.self)
            i = j + 1
            if tag.hasPrefix("/") {
                if !stack.isEmpty { stack.removeLast() }
                continue
            }
            let name = String(tag.prefix { !$0.isWhitespace && $0 != "/" })
            let selfClosing = tag.hasSuffix("/")
            let local = name.split(separator: ":").last.map(String.init) ?? name
            if local == "use", let href = attribute("href", in: tag), href.hasPrefix("#") {
                let target = String(href.dropFirst())
                if let owner = stack.last(where: { $0.id != nil })?.id { usesInside[owner, default: []].append(target) } else { topLevel.append(target) }
            }
            if !selfClosing { stack.append((name, attribute("id", in: tag))) }
            if stack.count > 10_000 { return limit + 1 }
        }
        var memo: [String: Int] = [:]
        var visiting: Set<String> = []
        func expand(_ id: String) -> Int {
            if let m = memo[id] { return m }
            guard !visiting.contains(id) else { return 0 }
            visiting.insert(id)
            var total = 1
            for t in usesInside[id] ?? [] {
                total = min(limit + 1, total + expand(t))
            }
            visiting.remove(id)
            memo[id] = total
            return total
        }
        var total = 0
        for t in topLevel { total = min(limit + 1, total + expand(t)) }
        // A <use> that is itself inside a used element is counted through its owner; ids never
        // used from the top level still render when they are not in <defs>: count them too.
        for id in usesInside.keys { total = min(limit + 1, max(total, expand(id))) }
        return total
    }

    /// The value of attribute `name` (or any `prefix:name`) in a tag's text, unquoted.
    private static func attribute(_ name: String, in tag: String) -> String? {
        var rest = Substring(tag)
        while let r = rest.range(of: name + "=") {
            let before = rest[..<r.lowerBound].last
            rest = rest[r.upperBound...]
            if let b = before, !(b.isWhitespace || b == ":") { continue }
            guard let q = rest.first, q == "\"" || q == "'" else { continue }
            let body = rest.dropFirst()
            guard let end = body.firstIndex(of: q) else { return nil }
            return String(body[..<end])
        }
        return nil
    }
}
