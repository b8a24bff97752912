// One browser engine as the cross-engine journeys see it: open a URL, evaluate an expression to
// a JSON value, perform W3C input actions (the same action sources for WebKitWebDriver's classic
// WebDriver, Firefox's WebDriver BiDi and, translated to DevTools input events, Chromium), and
// choose files in a file input. `EngineTab` builds the journeys' gestures out of those actions.

import Foundation

/// The engines the journeys run in.
enum Engine: String, CaseIterable, CustomStringConvertible, Sendable {
    case chromium, webkit, firefox
    var description: String { rawValue }
}

protocol EngineBrowser: AnyObject {
    var engine: Engine { get }
    /// Navigates the one tab to `url` and returns once the load has finished.
    func navigate(_ url: String) throws
    /// Evaluates a script that yields a promise of a JSON string; returns that string.
    func evaluateToString(_ promiseOfString: String) throws -> String
    /// Performs W3C action sources (`{type: pointer|key, id, parameters, actions}`), tick by tick.
    func perform(_ sources: [[String: Any]]) throws
    /// Chooses `paths` in the file input matching `selector`, as the picker would.
    func setFiles(_ selector: String, _ paths: [String]) throws
    /// Ends the browser and everything it started.
    func shutdown()
}

/// The W3C WebDriver key values the journeys press.
enum W3CKey {
    static let control = "\u{E009}"
    static let shift = "\u{E008}"
    static let alt = "\u{E00A}"
    static let tab = "\u{E004}"
    static let escape = "\u{E00C}"
}

/// The journeys' face on an engine: the editor's hooks and real input, by W3C actions.
final class EngineTab {
    let browser: EngineBrowser
    var engine: Engine { browser.engine }

    init(_ browser: EngineBrowser) { self.browser = browser }

    /// Opens `url` and waits until the editor says it has shown its first render.
    func open(_ url: String) throws {
        try browser.navigate(url)
        try waitFor("document.body && document.body.dataset.techoReady === 'true'", what: "the editor to load", timeout: 30)
    }

    /// Evaluates `expression` in the page (a promise is awaited) and returns its JSON value.
    @discardableResult
    func evaluate(_ expression: String) throws -> Any? {
        let script =
            "Promise.resolve().then(() => (\(expression))).then((v) => JSON.stringify({v: v === undefined ? null : v}), (e) => JSON.stringify({e: String(e && e.stack || e)}))"
        let text = try browser.evaluateToString(script)
        guard let o = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? [String: Any] else {
            throw DevToolsError(description: "\(engine): \(expression) gave \(text)")
        }
        if let e = o["e"] { throw DevToolsError(description: "\(engine): page threw on \(expression): \(e)") }
        return o["v"] is NSNull ? nil : o["v"]
    }

    func number(_ expression: String) throws -> Double {
        guard let v = try evaluate(expression) as? NSNumber else { throw DevToolsError(description: "\(engine): \(expression) is not a number") }
        return v.doubleValue
    }

    /// Polls `expression` until it is truthy: a condition, never a fixed sleep.
    func waitFor(_ expression: String, what: String, timeout: TimeInterval = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while true {
            do {
                if try evaluate("!!(\(expression))") as? Bool == true { return }
            } catch { last = "\(error)" }
            if Date() > deadline {
                let status = (try? evaluate("(() => { const s = document.getElementById('status'); return s ? s.textContent : null; })()")) ?? nil
                throw DevToolsError(
                    description: "\(engine): timed out after \(Int(timeout)) s waiting for \(what) (\(expression)); "
                        + "status \(String(describing: status)) \(last)")
            }
            usleep(30_000)
        }
    }

    /// The CSS box of the first element matching `selector`: (left, top, width, height).
    func box(_ selector: String) throws -> (x: Double, y: Double, w: Double, h: Double) {
        let quoted = String(data: try JSONSerialization.data(withJSONObject: [selector]), encoding: .utf8) ?? "[]"
        guard
            let r = try evaluate(
                "(() => { const e = document.querySelector(\(quoted)[0]); if (!e) return null; const b = e.getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; })()"
            ) as? [NSNumber]
        else { throw DevToolsError(description: "\(engine): no element matches \(selector)") }
        return (r[0].doubleValue, r[1].doubleValue, r[2].doubleValue, r[3].doubleValue)
    }

    // Real input, as W3C action sources. A source keeps its id for one pointer type, because a
    // driver refuses an id it has seen with another type.

    static func move(_ p: (Double, Double), pressure: Double? = nil) -> [String: Any] {
        var a: [String: Any] = ["type": "pointerMove", "x": p.0, "y": p.1, "origin": "viewport", "duration": 0]
        if let pressure { a["pressure"] = pressure }
        return a
    }

    static func down(pressure: Double? = nil) -> [String: Any] {
        var a: [String: Any] = ["type": "pointerDown", "button": 0]
        if let pressure { a["pressure"] = pressure }
        return a
    }

    static let up: [String: Any] = ["type": "pointerUp", "button": 0]

    static func pointer(_ type: String, id: String? = nil, _ actions: [[String: Any]]) -> [String: Any] {
        ["type": "pointer", "id": id ?? type, "parameters": ["pointerType": type], "actions": actions]
    }

    /// A press, a move in `steps` steps along the segment, and a release; `held` keys (W3C
    /// values) are down for the whole drag.
    func drag(
        from a: (Double, Double), to b: (Double, Double), steps: Int = 12, pointerType: String = "mouse",
        pressure: ((Double) -> Double)? = nil, held: [String] = []
    ) throws {
        var pointer: [[String: Any]] = [EngineTab.move(a), EngineTab.down(pressure: pressure?(0))]
        for i in 1...steps {
            let t = Double(i) / Double(steps)
            pointer.append(EngineTab.move((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t), pressure: pressure?(t)))
        }
        pointer.append(EngineTab.up)
        var sources = [EngineTab.pointer(pointerType, pointer)]
        if !held.isEmpty {
            // Keys down on the first ticks, up after the pointer's last; pauses keep the ticks aligned.
            let keys =
                held.map { ["type": "keyDown", "value": $0] as [String: Any] }
                + Array(repeating: ["type": "pause"], count: max(0, pointer.count - held.count))
                + held.map { ["type": "keyUp", "value": $0] }
            sources.insert(["type": "key", "id": "keyboard", "actions": keys], at: 0)
            sources[1]["actions"] = Array(repeating: ["type": "pause"] as [String: Any], count: held.count) + pointer
        }
        try browser.perform(sources)
    }

    func click(_ x: Double, _ y: Double, count: Int = 1) throws {
        var actions = [EngineTab.move((x, y))]
        for _ in 0..<count { actions += [EngineTab.down(), EngineTab.up] }
        try browser.perform([EngineTab.pointer("mouse", actions)])
    }

    /// Clicks the middle of the element matching `selector`.
    func click(_ selector: String) throws {
        let b = try box(selector)
        try click(b.x + b.w / 2, b.y + b.h / 2)
    }

    /// Presses `key` (a character or a W3C key value) with `modifiers` held.
    func press(_ key: String, with modifiers: [String] = []) throws {
        let actions: [[String: Any]] =
            modifiers.map { ["type": "keyDown", "value": $0] } + [["type": "keyDown", "value": key], ["type": "keyUp", "value": key]]
            + modifiers.reversed().map { ["type": "keyUp", "value": $0] }
        try browser.perform([["type": "key", "id": "keyboard", "actions": actions]])
    }

    /// Types `text` key by key.
    func type(_ text: String) throws {
        let actions: [[String: Any]] = text.map { String($0) }.flatMap { [["type": "keyDown", "value": $0], ["type": "keyUp", "value": $0]] }
        try browser.perform([["type": "key", "id": "keyboard", "actions": actions]])
    }

    /// Fingers, each from its first point to its last through the same number of steps; they go
    /// down one tick apart, as a hand's do, and stay down (`liftFingers` ends them).
    func fingersDown(_ paths: [[(Double, Double)]]) throws {
        let pause: [String: Any] = ["type": "pause"]
        let sources = paths.enumerated().map { i, path -> [String: Any] in
            var actions = [EngineTab.move(path[0])] + Array(repeating: pause, count: i) + [EngineTab.down()]
            actions += Array(repeating: pause, count: paths.count - 1 - i)
            actions += path.dropFirst().map { EngineTab.move($0) }
            return EngineTab.pointer("touch", id: "finger\(i)", actions)
        }
        try browser.perform(sources)
    }

    /// Lifts the fingers `fingersDown` put down, together.
    func liftFingers(_ count: Int) throws {
        try browser.perform((0..<count).map { EngineTab.pointer("touch", id: "finger\($0)", [EngineTab.up]) })
    }
}
