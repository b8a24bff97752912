// The journal itself: title, format version, page order and settings.

/// Journal-wide settings.
public struct JournalSettings: Hashable, Sendable {
    /// Undo steps kept, 1…10000. Default 100.
    public var historyLimit: Int
    public init(historyLimit: Int = 100) throws {
        guard (1...10_000).contains(historyLimit) else { throw ValueError("historyLimit must be 1…10000 (got \(historyLimit))") }
        self.historyLimit = historyLimit
    }
    public static let `default` = JournalSettings(unchecked: 100)
    private init(unchecked limit: Int) { historyLimit = limit }
}

/// A journal's top-level record (`journal.json`).
///
/// ## Guarantees
/// `pageOrder` holds valid, unique page ids; `formatVersion` is one this build reads.
public struct Journal: Hashable, Sendable {
    /// The file-format version this build reads and writes: 3 since every stroke has an `id`,
    /// 2 since ink strokes can be in a page's ink file (`pages/<id>.ink.json`); version 1 and 2
    /// files are read as they are (their strokes get ids as they are read).
    public static let currentFormatVersion = 3

    /// Title. Default "".
    public var title: String
    /// File-format version (`"techo"` in the files). Always `currentFormatVersion`.
    public var formatVersion: Int
    /// Page ids in reading order.
    public var pageOrder: [String]
    /// Settings. Default `.default`.
    public var settings: JournalSettings

    public init(title: String = "", pageOrder: [String] = [], settings: JournalSettings = .default) throws {
        for id in pageOrder { try Identifier.validate(id, what: "page id") }
        guard Set(pageOrder).count == pageOrder.count else { throw ValueError("page order lists a page twice") }
        guard title.count <= 1000 else { throw ValueError("title is over 1000 characters") }
        self.title = title; self.formatVersion = Journal.currentFormatVersion; self.pageOrder = pageOrder; self.settings = settings
    }

    /// A fresh page id `p<n>` (p1, p2, …).
    public func nextPageID() -> String {
        var n = 1
        while pageOrder.contains("p\(n)") { n += 1 }
        return "p\(n)"
    }

    /// Traps when a guarantee is broken.
    public func checkInvariants() {
        precondition(pageOrder.allSatisfy(Identifier.isValid) && Set(pageOrder).count == pageOrder.count, "bad page order")
        precondition(formatVersion == Journal.currentFormatVersion, "unknown format version")
    }
}
