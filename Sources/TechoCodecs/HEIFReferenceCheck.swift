// Refusing HEIF files whose derived images refer to themselves, before libheif sees them.
//
// A grid or overlay image (`grid`, `iovl`, `iden`) is made of the items its `dimg` references
// name. libheif 1.15 follows those references recursively while decoding and never checks for
// a cycle: a grid that names itself, directly or through other items, recurses until the stack
// overflows (found by `techo-fuzz heif`). The `iref` box is read here (ISO/IEC 14496-12
// §8.11.12, bounds-checked with BoxReader, and again the way libheif reads it, which ignores
// the references' own sizes: found by `make fuzz`, target heif) and a cycle, or a chain of
// derived images deeper than `maxDepth`, is refused with an error instead.
//
// An image's alpha plane is another item, named by an `auxl` reference from the alpha item to
// the image, and libheif decodes it with the same recursive call: an alpha item that is a grid
// made from the image it belongs to recurses just the same (found by `make fuzz`, target heif,
// in its 30-minute run). So the graph holds both: decoding an item needs the items its `dimg`
// names and the items that are `auxl` of it.

enum HEIFReferenceCheck {
    /// The deepest chain of derived images accepted: 8. Phones write one level (a grid of
    /// tiles); an overlay of grids is two.
    static let maxDepth = 8

    /// Throws `ImageError.corrupt` naming `file` when the `dimg` and `auxl` references form a
    /// cycle or a chain deeper than `maxDepth`. Files without an `iref` box pass. Returns the
    /// deepest chain found: 0 for a file of coded images only, 1 for a grid of coded tiles.
    @discardableResult
    static func check(_ bytes: [UInt8], format: ImageFormat, file: String) throws -> Int {
        let graph = derivations(bytes)
        guard !graph.isEmpty else { return 0 }
        var depth: [UInt32: Int] = [:]
        var visiting: Set<UInt32> = []
        func walk(_ id: UInt32) throws -> Int {
            if let d = depth[id] { return d }
            guard !visiting.contains(id) else {
                let why = "image item \(id) is made from itself (a cycle of derived-image or alpha-image references)"
                throw ImageError(file: file, format: format, reason: .corrupt(why))
            }
            visiting.insert(id)
            var d = 0
            for next in graph[id] ?? [] { d = max(d, 1 + (try walk(next))) }
            visiting.remove(id)
            guard d <= maxDepth else {
                throw ImageError(file: file, format: format, reason: .corrupt("derived images nest more than \(maxDepth) deep"))
            }
            depth[id] = d
            return d
        }
        var deepest = 0
        for id in graph.keys.sorted() { deepest = max(deepest, try walk(id)) }
        return deepest
    }

    /// Item id → the items decoding it needs, from the top-level `meta` box's `iref`: those its
    /// `dimg` reference names, and those whose `auxl` reference names it (its alpha, its depth).
    static func derivations(_ bytes: [UInt8]) -> [UInt32: [UInt32]] {
        guard let meta = BoxReader.boxes(bytes, in: 0..<bytes.count).first(where: { $0.type == "meta" }),
            meta.payload.count >= 4,
            let iref = BoxReader.boxes(bytes, in: (meta.payload.lowerBound + 4)..<meta.payload.upperBound).first(where: { $0.type == "iref" }),
            iref.payload.count >= 4
        else { return [:] }
        let wide = bytes[iref.payload.lowerBound] != 0  // version 1: 32-bit item ids
        var graph: [UInt32: [UInt32]] = [:]
        func add(_ type: String, from: UInt32, to: UInt32) {
            if type == "dimg" { graph[from, default: []].append(to) }
            if type == "auxl" { graph[to, default: []].append(from) }
        }
        for ref in BoxReader.boxes(bytes, in: (iref.payload.lowerBound + 4)..<iref.payload.upperBound) {
            var r = BoxReader.Cursor(bytes: bytes, at: ref.payload.lowerBound, end: ref.payload.upperBound)
            guard let from = wide ? r.u32() : r.u16().map(UInt32.init), let count = r.u16() else { continue }
            for _ in 0..<count {
                guard let to = wide ? r.u32() : r.u16().map(UInt32.init) else { break }
                add(ref.type, from: from, to: to)
            }
        }
        // libheif 1.15 reads the references one after another from each child's header and never
        // skips by a child's size, so a child whose size is wrong (too large for the box, say) is
        // dropped above but still read by libheif: read them its way too, and keep both.
        var r = BoxReader.Cursor(bytes: bytes, at: iref.payload.lowerBound + 4, end: iref.payload.upperBound)
        while let size = r.u32(), let type = r.fourCC() {
            if size == 1 { guard r.skip(8) else { break } }  // a 64-bit size follows
            if type == "uuid" { guard r.skip(8), r.skip(8) else { break } }  // a 16-byte user type follows
            guard let from = wide ? r.u32() : r.u16().map(UInt32.init), let count = r.u16() else { break }
            for _ in 0..<count {
                guard let to = wide ? r.u32() : r.u16().map(UInt32.init) else { break }
                add(type, from: from, to: to)
            }
        }
        return graph
    }
}
