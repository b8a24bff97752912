// The on-disk undo history: numbered step files holding line diffs, and a state file saying
// which steps exist and which is applied. See docs/decisions/history.md.

/// One entry of `techo history`.
public struct HistoryEntry: Equatable, Sendable {
    /// Step number, increasing over the journal's life.
    public var number: Int
    /// What the step did ("add image image-3").
    public var description: String
    /// True for steps that are applied (undoable); false for redoable ones.
    public var isApplied: Bool
}

/// Which steps exist: `first…top`; steps `first…current` are applied.
///
/// ## Guarantees
/// `first ≥ 1`, `first - 1 ≤ current ≤ top`, `top ≥ first - 1`.
struct HistoryState: Equatable {
    var first = 1
    var current = 0
    var top = 0

    var json: JSONValue { ["first": .number(Double(first)), "current": .number(Double(current)), "top": .number(Double(top))] }

    static func decode(_ bytes: [UInt8], file: String) throws -> HistoryState {
        let ctx = DecodingContext(file: file)
        let root = ctx.root(try JSONParser.parse(bytes, file: file))
        var s = HistoryState()
        if let o = root.object() {
            s.first = o.required("first")?.integer(in: 1...Int(Int32.max)) ?? 1
            s.current = o.required("current")?.integer(in: 0...Int(Int32.max)) ?? 0
            s.top = o.required("top")?.integer(in: 0...Int(Int32.max)) ?? 0
            o.finish()
        }
        if ctx.isClean && !(s.first - 1 <= s.current && s.current <= s.top) {
            ctx.report("", "inconsistent history state first=\(s.first) current=\(s.current) top=\(s.top)")
        }
        try ctx.throwIfProblems()
        return s
    }
}

/// A recorded step: its description and a diff per changed file.
struct HistoryStep: Equatable {
    var description: String
    var files: [(path: String, diff: LineDiff)]

    static func == (a: HistoryStep, b: HistoryStep) -> Bool {
        a.description == b.description && a.files.map(\.path) == b.files.map(\.path) && a.files.map(\.diff) == b.files.map(\.diff)
    }

    var json: JSONValue {
        [
            "description": .string(description),
            "files": .array(
                files.map { f in
                    [
                        "path": .string(f.path), "start": .number(Double(f.diff.start)),
                        "removed": .array(f.diff.removed.map(JSONValue.string)), "inserted": .array(f.diff.inserted.map(JSONValue.string)),
                    ]
                }),
        ]
    }

    static func decode(_ bytes: [UInt8], file: String) throws -> HistoryStep {
        let ctx = DecodingContext(file: file)
        let root = ctx.root(try JSONParser.parse(bytes, file: file))
        var step = HistoryStep(description: "", files: [])
        if let o = root.object() {
            step.description = o.required("description")?.string() ?? ""
            for item in o.required("files")?.array() ?? [] {
                guard let fo = item.object() else { continue }
                let path = fo.required("path")?.string()
                let start = fo.required("start")?.integer(in: 0...Int(Int32.max))
                let removed = fo.required("removed")?.array()?.compactMap { $0.string() }
                let inserted = fo.required("inserted")?.array()?.compactMap { $0.string() }
                fo.finish()
                if let path, let start, let removed, let inserted {
                    if !JournalStore.isManagedPath(path) { item.report("\"\(path)\" is not a journal file") }
                    step.files.append((path, LineDiff(start: start, removed: removed, inserted: inserted)))
                }
            }
            o.finish()
        }
        try ctx.throwIfProblems()
        return step
    }
}
