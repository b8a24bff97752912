// Element and page ids: [A-Za-z0-9_-]{1,64}; generated ids are "<type>-<n>".

/// Rules for page and element ids.
public enum Identifier {
    /// True when `s` matches `[A-Za-z0-9_-]{1,64}`.
    public static func isValid(_ s: String) -> Bool {
        let u = s.utf8
        guard !u.isEmpty, u.count <= 64 else { return false }
        return u.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2D
        }
    }

    /// Throws a `ValueError` quoting `s` unless it is a valid id.
    public static func validate(_ s: String, what: String = "id") throws {
        guard isValid(s) else {
            throw ValueError("invalid \(what) \"\(s)\": use 1 to 64 letters, digits, '_' or '-'")
        }
    }

    /// The next free id `<prefix>-<n>`: n is one more than the largest n already used with that
    /// prefix (1 when none), so ids are stable and never reused while their element exists.
    public static func next<S: Sequence>(prefix: String, existing: S) -> String where S.Element == String {
        var top = 0
        let head = prefix + "-"
        for id in existing where id.hasPrefix(head) {
            if let n = Int(id.dropFirst(head.count)), n > top { top = n }
        }
        return "\(prefix)-\(top + 1)"
    }
}

extension JSONNode {
    /// The value as a valid id, or nil after reporting.
    public func identifier() -> String? {
        guard let s = string() else { return nil }
        do { try Identifier.validate(s) } catch { report("\(error)"); return nil }
        return s
    }
}
