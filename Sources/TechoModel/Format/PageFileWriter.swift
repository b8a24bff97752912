// A page file written straight to bytes: the bytes `page.json.serializedBytes()` gives, without
// building a JSON value for every stroke point. Ink strokes of the common shape (a freehand tool
// with colour, width, opacity and points, the rest at their defaults) are written here key by
// key, in the writer's sorted order and indentation; every other element and stroke goes
// through its `json` and the generic writer. The tests compare both, byte for byte, on seeded
// random pages.

/// Writes page files.
enum PageFileWriter {
    /// A page file written or read before, whose elements' bytes can be copied: for each of
    /// the page's elements, the range of its object in `bytes` when those are the bytes the
    /// writer gives for it (nil otherwise).
    struct Written {
        var page: Page
        var bytes: [UInt8]
        var elements: [Range<Int>?]
    }

    /// The page file's bytes, and where each element's object is in them (from its `{` to its
    /// `}`), in page order. An element written as one of `before`'s (same id, and
    /// `encodesIdentically`) whose bytes there are the writer's is copied from them.
    /// - Complexity: linear in the bytes copied and in the elements written anew.
    static func serialize(_ page: Page, reusing before: Written? = nil) -> (bytes: [UInt8], elements: [Range<Int>]) {
        let capacity = before?.bytes.count ?? 0
        let out = ByteSink(capacity: capacity + capacity / 8 + 4096)
        var spans: [Range<Int>] = []
        spans.reserveCapacity(page.elements.count)
        var header = page.headerJSON
        header["elements"] = .null  // a place in the key order
        let keys = header.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        out.append("{\n")
        for (i, key) in keys.enumerated() {
            out.pad(1)
            JSONWriter.writeString(key, into: out)
            out.append(": ")
            if key == "elements" {
                writeElements(page.elements, reusing: before, into: out, spans: &spans)
            } else {
                JSONWriter.write(header[key] ?? .null, indent: 1, into: out)
            }
            out.append(i + 1 < keys.count ? ",\n" : "\n")
        }
        out.append("}\n")
        return (out.bytes, spans)
    }

    /// The elements array at indent 1.
    static func writeElements(_ elements: [Element], reusing before: Written?, into out: ByteSink, spans: inout [Range<Int>]) {
        if elements.isEmpty { out.append("[]"); return }
        out.append("[\n")
        var index: [String: Int]?
        for (i, e) in elements.enumerated() {
            out.pad(2)
            let start = out.count
            if let before, let span = reusable(e, at: i, in: before, index: &index) {
                out.append(before.bytes[span])
            } else {
                writeElement(e, indent: 2, into: out)
            }
            spans.append(start..<out.count)
            out.append(i + 1 < elements.count ? ",\n" : "\n")
        }
        out.pad(1)
        out.append(UInt8(ascii: "]"))
    }

    /// The bytes in `before` that element `e` (at `i` on the new page) can be copied from.
    static func reusable(_ e: Element, at i: Int, in before: Written, index: inout [String: Int]?) -> Range<Int>? {
        let old = before.page.elements
        var j: Int?
        if i < old.count && old[i].id == e.id {
            j = i
        } else {
            if index == nil { index = Dictionary(old.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a }) }
            j = index?[e.id]
        }
        guard let j, j < before.elements.count, let span = before.elements[j], old[j].encodesIdentically(e) else { return nil }
        return span
    }

    /// One element's object at `indent`.
    static func writeElement(_ e: Element, indent: Int, into out: ByteSink) {
        guard case .ink(let ink) = e.content, e.clip == nil, !e.locked else {
            JSONWriter.write(e.json, indent: indent, into: out)
            return
        }
        // An ink layer's keys in sorted order: hidden, id, opacity, strokes, type.
        out.append("{\n")
        if e.hidden {
            out.pad(indent + 1)
            out.append("\"hidden\": true,\n")
        }
        out.pad(indent + 1)
        out.append("\"id\": ")
        JSONWriter.writeString(e.id, into: out)
        out.append(",\n")
        if e.opacity != 1 {
            out.pad(indent + 1)
            out.append("\"opacity\": ")
            JSONNumberText.append(e.opacity, to: out)
            out.append(",\n")
        }
        out.pad(indent + 1)
        out.append("\"strokes\": ")
        if ink.strokes.isEmpty {
            out.append("[]")
        } else {
            out.append("[\n")
            for (i, s) in ink.strokes.enumerated() {
                out.pad(indent + 2)
                writeStroke(s, indent: indent + 2, into: out)
                out.append(i + 1 < ink.strokes.count ? ",\n" : "\n")
            }
            out.pad(indent + 1)
            out.append(UInt8(ascii: "]"))
        }
        out.append(",\n")
        out.pad(indent + 1)
        out.append("\"type\": \"ink\"\n")
        out.pad(indent)
        out.append(UInt8(ascii: "}"))
    }

    /// True for a stroke whose JSON has only `color`, `id`, `opacity`, `points`, `tool` and `width`.
    static func isPlain(_ s: Stroke) -> Bool {
        s.tool.usesPoints && s.from == nil && s.to == nil && s.d == nil && s.fill == nil && s.fillRule == .nonZero && s.cap == .round
            && s.join == .round && s.miterLimit == 10 && s.dash == nil && s.dashOffset == 0
    }

    /// One stroke's object at `indent`.
    static func writeStroke(_ s: Stroke, indent: Int, into out: ByteSink) {
        guard isPlain(s) else {
            JSONWriter.write(s.json, indent: indent, into: out)
            return
        }
        // Keys in sorted order: color, id, opacity, points, tool, width.
        out.append("{\n")
        if s.tool != .eraser || s.color != .black {
            out.pad(indent + 1)
            out.append("\"color\": \"")
            writeColor(s.color, into: out)
            out.append("\",\n")
        }
        if let id = s.id {
            out.pad(indent + 1)
            out.append("\"id\": ")
            JSONWriter.writeString(id, into: out)
            out.append(",\n")
        }
        if s.opacity != 1 {
            out.pad(indent + 1)
            out.append("\"opacity\": ")
            JSONNumberText.append(s.opacity, to: out)
            out.append(",\n")
        }
        out.pad(indent + 1)
        out.append("\"points\": ")
        if s.points.isEmpty {
            out.append("[]")
        } else {
            out.append("[\n")
            let last = s.points.count - 1
            for (i, p) in s.points.enumerated() {
                out.pad(indent + 2)
                out.append(UInt8(ascii: "["))
                JSONNumberText.append(p.x, to: out)
                out.append(", ")
                JSONNumberText.append(p.y, to: out)
                if let pressure = p.pressure {
                    out.append(", ")
                    JSONNumberText.append(pressure, to: out)
                }
                out.append(i < last ? "],\n" : "]\n")
            }
            out.pad(indent + 1)
            out.append(UInt8(ascii: "]"))
        }
        out.append(",\n")
        out.pad(indent + 1)
        out.append("\"tool\": ")
        JSONWriter.writeString(s.tool.rawValue, into: out)
        out.append(",\n")
        out.pad(indent + 1)
        out.append("\"width\": ")
        JSONNumberText.append(s.width, to: out)
        out.append(0x0A)
        out.pad(indent)
        out.append(UInt8(ascii: "}"))
    }

    /// `color.description` (`#rrggbb`, `#rrggbbaa` when not opaque) as bytes.
    static func writeColor(_ c: RGBA, into out: ByteSink) {
        let digits: StaticString = "0123456789abcdef"
        let d = digits.utf8Start
        out.write(c.a == 255 ? 7 : 9) { p in
            p[0] = UInt8(ascii: "#")
            p[1] = d[Int(c.r >> 4)]
            p[2] = d[Int(c.r & 15)]
            p[3] = d[Int(c.g >> 4)]
            p[4] = d[Int(c.g & 15)]
            p[5] = d[Int(c.b >> 4)]
            p[6] = d[Int(c.b & 15)]
            if c.a != 255 {
                p[7] = d[Int(c.a >> 4)]
                p[8] = d[Int(c.a & 15)]
            }
        }
    }
}
