// Chromium as an `EngineBrowser`: the DevTools tab the Chromium tests use, with W3C action
// sources translated tick by tick into Input.dispatchMouseEvent (mouse and pen, with pressure as
// force), Input.dispatchTouchEvent and Input.dispatchKeyEvent, so the cross-engine journeys are
// written once.

import Foundation

final class ChromiumEngine: EngineBrowser {
    let engine = Engine.chromium
    let browser: Chromium
    let tab: BrowserTab

    init(width: Int = 1440, height: Int = 900) throws {
        browser = try Chromium(windowSize: (width, height))
        do { tab = try BrowserTab(browser, width: width, height: height, touch: true) } catch {
            browser.shutdown()
            throw error
        }
    }

    func navigate(_ url: String) throws {
        try tab.send("Page.navigate", ["url": url])
        try tab.waitFor("document.readyState === 'complete'", what: "the page to load")
    }

    func evaluateToString(_ promiseOfString: String) throws -> String {
        guard let s = try tab.evaluate(promiseOfString) as? String else { throw DevToolsError(description: "chromium: the script gave no string") }
        return s
    }

    func setFiles(_ selector: String, _ paths: [String]) throws { try tab.setFiles(selector, paths) }

    func shutdown() {
        tab.close()
        browser.shutdown()
    }

    // W3C actions to DevTools input.

    private var modifiers = 0
    private var lastPress: (x: Double, y: Double, count: Int)?

    private static let modifierBits = [W3CKey.alt: 1, W3CKey.control: 2, W3CKey.shift: 8]

    func perform(_ sources: [[String: Any]]) throws {
        let lists = sources.map { $0["actions"] as? [[String: Any]] ?? [] }
        var positions = Array(repeating: (0.0, 0.0), count: sources.count)
        var pressed = Array(repeating: false, count: sources.count)
        var force = Array(repeating: 0.5, count: sources.count)
        for tick in 0..<(lists.map(\.count).max() ?? 0) {
            var touchType: String?
            for (i, source) in sources.enumerated() where tick < lists[i].count {
                let a = lists[i][tick], kind = a["type"] as? String ?? ""
                if source["type"] as? String == "key" {
                    try key(kind, a["value"] as? String ?? "")
                    continue
                }
                let pointerType = (source["parameters"] as? [String: Any])?["pointerType"] as? String ?? "mouse"
                if let p = a["pressure"] as? Double { force[i] = p }
                switch kind {
                case "pointerMove":
                    positions[i] = ((a["x"] as? NSNumber)?.doubleValue ?? 0, (a["y"] as? NSNumber)?.doubleValue ?? 0)
                    if pointerType == "touch" {
                        if pressed[i] { touchType = touchType ?? "touchMove" }
                    } else {
                        try mouse("mouseMoved", positions[i], pressed: pressed[i], pointerType, force[i], clickCount: 0)
                    }
                case "pointerDown":
                    pressed[i] = true
                    if pointerType == "touch" { touchType = "touchStart"; continue }
                    let p = positions[i]
                    let count = lastPress.map { abs($0.x - p.0) < 4 && abs($0.y - p.1) < 4 ? $0.count + 1 : 1 } ?? 1
                    lastPress = (p.0, p.1, count)
                    try mouse("mousePressed", p, pressed: true, pointerType, force[i], clickCount: count)
                case "pointerUp":
                    pressed[i] = false
                    if pointerType == "touch" { touchType = "touchEnd"; continue }
                    try mouse("mouseReleased", positions[i], pressed: false, pointerType, force[i], clickCount: lastPress?.count ?? 1)
                default: continue
                }
            }
            if let touchType {
                let down = sources.indices.filter { pressed[$0] && (sources[$0]["parameters"] as? [String: Any])?["pointerType"] as? String == "touch" }
                try tab.touches(touchType, down.map { (id: $0, x: positions[$0].0, y: positions[$0].1) })
            }
        }
        lastPress = nil
    }

    private func mouse(_ type: String, _ p: (Double, Double), pressed: Bool, _ pointerType: String, _ force: Double, clickCount: Int) throws {
        try tab.mouse(
            type, p.0, p.1, buttons: pressed ? 1 : 0, clickCount: clickCount, pointerType: pointerType,
            force: pointerType == "pen" ? force : nil, modifiers: modifiers)
    }

    private func key(_ kind: String, _ value: String) throws {
        if let bit = ChromiumEngine.modifierBits[value] {
            modifiers = kind == "keyDown" ? modifiers | bit : modifiers & ~bit
            return
        }
        guard kind == "keyDown" || kind == "keyUp" else { return }
        let name: String, code: String, keyCode: Int
        switch value {
        case W3CKey.tab: (name, code, keyCode) = ("Tab", "Tab", 9)
        case W3CKey.escape: (name, code, keyCode) = ("Escape", "Escape", 27)
        case " ": (name, code, keyCode) = (" ", "Space", 32)
        case "=": (name, code, keyCode) = ("=", "Equal", 187)
        case "-": (name, code, keyCode) = ("-", "Minus", 189)
        default:
            let c = value.uppercased()
            let digit = value.first?.isNumber == true
            (name, code, keyCode) = (value, digit ? "Digit\(value)" : "Key\(c)", Int(c.unicodeScalars.first?.value ?? 0))
        }
        var p: [String: Any] = ["key": name, "code": code, "windowsVirtualKeyCode": keyCode, "nativeVirtualKeyCode": keyCode, "modifiers": modifiers]
        if kind == "keyUp" {
            p["type"] = "keyUp"
        } else if modifiers & ~8 == 0 && name.count == 1 {
            p["type"] = "keyDown"
            p["text"] = name
        } else {
            p["type"] = "rawKeyDown"
        }
        try tab.send("Input.dispatchKeyEvent", p)
    }
}
