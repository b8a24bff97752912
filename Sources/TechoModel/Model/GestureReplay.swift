// Replaying a recorded stream of UIKit-style recognizer events (JSON lines) as gestures.
// Values are incremental: the recognizer is reset after each event, as the usual sticker-view
// code does, so each event is one small gesture.

/// Reads a JSON-lines gesture recording.
///
/// Each non-blank line is an object: `{"gesture":"pinch","state":"changed","scale":1.04,
/// "location":[812,640]}`, `{"gesture":"rotation","rotation":0.02}` (radians, optional
/// `location`), `{"gesture":"pan","translation":[3,-1]}`, `{"gesture":"doubleTap"}`,
/// `{"gesture":"flip","axis":"h"}`. `state` is optional: `possible`, `began`, `changed`,
/// `ended`, `cancelled` or `failed`; events of cancelled/failed recognizers carry no change and
/// are skipped.
public enum GestureReplay {
    /// Recognizer states as UIKit names them.
    public enum State: String, CaseIterable, Sendable { case possible, began, changed, ended, cancelled, failed }

    /// The gestures of a recording, in order.
    /// - Throws: `GestureReplayError` naming the 1-based line and what is wrong.
    public static func parse(_ text: String, limits: ModelLimits = .default) throws -> [Gesture] {
        try parseLines(text, limits: limits).map(\.gesture)
    }

    /// Replays a recording onto `placement` as one operation: every event applies in order, or
    /// on the first refused one nothing does and the error names its line.
    public static func replay(_ text: String, onto placement: Placement, limits: ModelLimits = .default) throws -> Placement {
        var p = placement
        for (line, g) in try parseLines(text, limits: limits) {
            do { try p.apply(g) } catch let e as GestureError { throw GestureReplayError(line: line, message: e.message) }
        }
        return p
    }

    /// The gestures of a recording with their 1-based line numbers.
    static func parseLines(_ text: String, limits: ModelLimits) throws -> [(line: Int, gesture: Gesture)] {
        guard text.utf8.count <= limits.json.maxBytes else {
            throw GestureReplayError(line: 0, message: "the recording is over \(limits.json.maxBytes) bytes")
        }
        var out: [(line: Int, gesture: Gesture)] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces.union(.init(charactersIn: "\r")))
            if line.isEmpty { continue }
            let value: JSONValue
            do { value = try JSONParser.parse(line, limits: limits.json) } catch let e as JSONSyntaxError {
                throw GestureReplayError(line: i + 1, message: "column \(e.column): \(e.message)")
            }
            let ctx = DecodingContext(limits: limits)
            let g = decodeEvent(ctx.root(value))
            if let p = ctx.problems.first { throw GestureReplayError(line: i + 1, message: p.description) }
            if let g { out.append((i + 1, g)) }
        }
        return out
    }

    static func decodeEvent(_ node: JSONNode) -> Gesture? {
        guard let o = node.object() else { return nil }
        defer { o.finish() }
        let state = o.optional("state")?.choice(State.self)
        guard let kind = o.required("gesture")?.string() else { return nil }
        let skip = state == .cancelled || state == .failed
        func location() -> Point? {
            guard let n = o.optional("location"), let (x, y) = n.point() else { return nil }
            return Point(x, y)
        }
        switch kind {
        case "pinch":
            let s = o.required("scale")?.number(in: 1e-6...1e6)
            let at = location()
            guard let s, !skip else { return nil }
            return .pinch(scale: s, around: at)
        case "rotation", "rotate":
            let r = o.required("rotation")?.number(in: -1e3...1e3)
            let at = location()
            guard let r, !skip else { return nil }
            return .rotate(degrees: r * 180 / .pi, around: at)
        case "pan":
            guard let (dx, dy) = o.required("translation")?.point(), !skip else { return nil }
            return .pan(dx: dx, dy: dy)
        case "doubleTap", "tap":
            if kind == "tap" { o.accept("taps") }
            if kind == "tap", let n = o.optional("taps")?.integer(in: 1...2), n != 2 { return nil }
            return skip ? nil : .doubleTap
        case "flip":
            guard let a = o.required("axis")?.choice(FlipAxis.self), !skip else { return nil }
            return .flip(a)
        default:
            o.required("gesture")?.report("unknown gesture \"\(kind)\"; expected pinch, rotation, pan, doubleTap or flip")
            return nil
        }
    }
}

/// A gesture recording that does not parse, naming the 1-based line.
public struct GestureReplayError: Error, Equatable, CustomStringConvertible, Sendable {
    /// 1-based line number of the bad event (0 for the whole file).
    public var line: Int
    /// What is wrong.
    public var message: String
    public init(line: Int, message: String) { self.line = line; self.message = message }
    public var description: String { line > 0 ? "line \(line): \(message)" : message }
}
