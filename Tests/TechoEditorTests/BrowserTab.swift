// One tab of the browser, attached with a flat session, and the real input events the tests send:
// Input.dispatchMouseEvent (mouse and pen), Input.dispatchTouchEvent, Input.dispatchKeyEvent and
// Input.dispatchDragEvent. Nothing is synthesized inside the page.

import Foundation

final class BrowserTab {
    let browser: Chromium
    let session: String
    let targetId: String
    /// The page's console errors and uncaught exceptions, for failure messages.
    private(set) var problems: [String] = []

    init(_ browser: Chromium, width: Int = 1440, height: Int = 900, touch: Bool = false) throws {
        self.browser = browser
        let target = try browser.send("Target.createTarget", ["url": "about:blank"])
        guard let id = target["targetId"] as? String else { throw DevToolsError(description: "Target.createTarget gave no targetId") }
        targetId = id
        let attached = try browser.send("Target.attachToTarget", ["targetId": id, "flatten": true])
        guard let s = attached["sessionId"] as? String else { throw DevToolsError(description: "Target.attachToTarget gave no sessionId") }
        session = s
        try send("Page.enable")
        try send("Runtime.enable")
        try send(
            "Emulation.setDeviceMetricsOverride",
            [
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": touch,
            ])
        if touch { try send("Emulation.setTouchEmulationEnabled", ["enabled": true, "maxTouchPoints": 5]) }
    }

    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], timeout: TimeInterval = 30) throws -> [String: Any] {
        try browser.send(method, params, session: session, timeout: timeout)
    }

    /// Several commands written at once, then every answer awaited (`Chromium.sendAll`).
    func sendAll(_ commands: [(String, [String: Any])], timeout: TimeInterval = 30) throws {
        try browser.sendAll(commands, session: session, timeout: timeout)
    }

    /// Opens `url` and waits until the editor says it has shown its first render.
    func open(_ url: String) throws {
        try send("Page.navigate", ["url": url])
        try waitFor("document.body && document.body.dataset.techoReady === 'true'", what: "the editor to load", timeout: 30)
    }

    /// Evaluates `expression` in the page (awaiting a promise) and returns its JSON value.
    @discardableResult
    func evaluate(_ expression: String) throws -> Any? {
        let r = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if let ex = r["exceptionDetails"] as? [String: Any] {
            let text = (ex["exception"] as? [String: Any])?["description"] ?? ex["text"] ?? ex
            throw DevToolsError(description: "page threw on \(expression): \(text)")
        }
        return (r["result"] as? [String: Any])?["value"]
    }

    func number(_ expression: String) throws -> Double {
        guard let v = try evaluate(expression) as? NSNumber else { throw DevToolsError(description: "\(expression) is not a number") }
        return v.doubleValue
    }

    /// Polls `expression` until it is truthy: a condition, never a fixed sleep. A promise is
    /// awaited and its value tested (a promise object itself is not an answer).
    func waitFor(_ expression: String, what: String, timeout: TimeInterval = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let v = try? evaluate("Promise.resolve(\(expression)).then((v) => !!v)")
            if v as? Bool == true { return }
            if Date() > deadline {
                collectProblems()
                throw DevToolsError(description: "timed out after \(Int(timeout)) s waiting for \(what) (\(expression)); page problems: \(problems)")
            }
            usleep(30_000)
        }
    }

    func collectProblems() {
        if let status = try? evaluate(
            "(() => { const s = document.getElementById('status'); return s && s.classList.contains('error') ? s.textContent : null; })()") as? String
        {
            problems.append("the editor says: \(status)")
        }
        if let state = try? evaluate(
            "window.techoEditor ? JSON.stringify({refreshing: !!techoEditor.refreshing, inGesture: techoEditor.inGesture, tool: techoEditor.tool.name, state: techoEditor.tool.current}) : null"
        ) as? String {
            problems.append("editor state \(state)")
        }
        for e in browser.takeEvents("Runtime.exceptionThrown", session: session) {
            problems.append("\((e["exceptionDetails"] as? [String: Any])?["exception"] ?? e)")
        }
        for e in browser.takeEvents("Runtime.consoleAPICalled", session: session) where e["type"] as? String == "error" {
            problems.append("\(e["args"] ?? e)")
        }
    }

    /// The CSS box of the first element matching `selector`: (left, top, width, height).
    func box(_ selector: String) throws -> (x: Double, y: Double, w: Double, h: Double) {
        let quoted = String(data: try JSONSerialization.data(withJSONObject: [selector]), encoding: .utf8) ?? "[]"
        guard
            let r = try evaluate(
                "(() => { const e = document.querySelector(\(quoted)[0]); if (!e) return null; const b = e.getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; })()"
            ) as? [NSNumber]
        else {
            throw DevToolsError(description: "no element matches \(selector)")
        }
        return (r[0].doubleValue, r[1].doubleValue, r[2].doubleValue, r[3].doubleValue)
    }

    // Real input.

    func mouse(
        _ type: String, _ x: Double, _ y: Double, buttons: Int = 0, clickCount: Int = 0,
        pointerType: String = "mouse", force: Double? = nil, modifiers: Int = 0
    ) throws {
        var p: [String: Any] = ["type": type, "x": x, "y": y, "modifiers": modifiers, "pointerType": pointerType]
        if type != "mouseMoved" || buttons != 0 { p["button"] = "left" }
        if buttons != 0 || type == "mouseReleased" { p["buttons"] = type == "mouseReleased" ? 0 : buttons }
        if clickCount > 0 { p["clickCount"] = clickCount }
        if let force { p["force"] = force }
        try send("Input.dispatchMouseEvent", p)
    }

    /// A press, a move in `steps` steps along the segment, and a release.
    func drag(
        from a: (Double, Double), to b: (Double, Double), steps: Int = 12, pointerType: String = "mouse",
        pressure: ((Double) -> Double)? = nil
    ) throws {
        try mouse("mouseMoved", a.0, a.1, pointerType: pointerType)
        try mouse("mousePressed", a.0, a.1, buttons: 1, clickCount: 1, pointerType: pointerType, force: pressure?(0))
        for i in 1...steps {
            let t = Double(i) / Double(steps)
            try mouse(
                "mouseMoved", a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, buttons: 1,
                pointerType: pointerType, force: pressure?(t))
        }
        try mouse("mouseReleased", b.0, b.1, clickCount: 1, pointerType: pointerType, force: pressure?(1))
    }

    func click(_ x: Double, _ y: Double, count: Int = 1) throws {
        try mouse("mouseMoved", x, y)
        try mouse("mousePressed", x, y, buttons: 1, clickCount: count)
        try mouse("mouseReleased", x, y, clickCount: count)
    }

    /// Clicks the middle of the element matching `selector`.
    func click(_ selector: String) throws {
        let b = try box(selector)
        try click(b.x + b.w / 2, b.y + b.h / 2)
    }

    /// `points`: one `[(x, y)]` list per finger (by index), all moved together at each step.
    func touch(_ type: String, _ points: [(Double, Double)]) throws {
        let list: [[String: Any]] = points.enumerated().map { i, p in
            ["x": p.0, "y": p.1, "id": i, "radiusX": 4, "radiusY": 4, "force": 1]
        }
        try send("Input.dispatchTouchEvent", ["type": type, "touchPoints": list])
    }

    /// Fingers by their own ids, so one can lift (`touchEnd` names the points that end) while
    /// another stays down.
    func touches(_ type: String, _ points: [(id: Int, x: Double, y: Double)]) throws {
        let list: [[String: Any]] = points.map { ["x": $0.x, "y": $0.y, "id": $0.id, "radiusX": 4, "radiusY": 4, "force": 1] }
        try send("Input.dispatchTouchEvent", ["type": type, "touchPoints": list])
    }

    /// A key press: keyDown (with its text when it types) and keyUp. `modifiers`: 2 Ctrl, 8 Shift.
    func key(_ key: String, code: String, keyCode: Int, modifiers: Int = 0) throws {
        let base: [String: Any] = [
            "key": key, "code": code, "windowsVirtualKeyCode": keyCode,
            "nativeVirtualKeyCode": keyCode, "modifiers": modifiers,
        ]
        try send("Input.dispatchKeyEvent", base.merging(["type": "rawKeyDown"]) { $1 })
        try send("Input.dispatchKeyEvent", base.merging(["type": "keyUp"]) { $1 })
    }

    /// Drags files from outside the browser onto the page point (x, y) and drops them.
    func dropFiles(_ paths: [String], at x: Double, _ y: Double) throws {
        let data: [String: Any] = ["items": [], "files": paths, "dragOperationsMask": 1]
        for type in ["dragEnter", "dragOver", "drop"] {
            try send("Input.dispatchDragEvent", ["type": type, "x": x, "y": y, "data": data])
        }
    }

    /// Chooses `paths` in the file input matching `selector`, as a person would in the picker.
    func setFiles(_ selector: String, _ paths: [String]) throws {
        let doc = try send("DOM.getDocument", ["depth": 0])
        guard let root = (doc["root"] as? [String: Any])?["nodeId"] as? Int else { throw DevToolsError(description: "DOM.getDocument gave no root") }
        let q = try send("DOM.querySelector", ["nodeId": root, "selector": selector])
        guard let node = q["nodeId"] as? Int, node != 0 else { throw DevToolsError(description: "no element matches \(selector)") }
        try send("DOM.setFileInputFiles", ["files": paths, "nodeId": node])
    }

    /// A PNG of the CSS rectangle, one device pixel per CSS pixel.
    func screenshot(x: Double, y: Double, w: Double, h: Double) throws -> Data {
        let r = try send(
            "Page.captureScreenshot",
            [
                "format": "png", "fromSurface": true,
                "clip": ["x": x, "y": y, "width": w, "height": h, "scale": 1],
            ], timeout: 60)
        guard let b64 = r["data"] as? String, let data = Data(base64Encoded: b64) else {
            throw DevToolsError(description: "Page.captureScreenshot gave no image")
        }
        return data
    }

    func close() {
        _ = try? browser.send("Target.closeTarget", ["targetId": targetId], timeout: 5)
    }
}
