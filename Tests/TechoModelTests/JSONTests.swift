import Foundation
import Testing

@testable import TechoModel

@Suite struct JSONTests {
    @Test func writerSortsKeysAndFormatsNumbers() throws {
        let v: JSONValue = ["b": 1.0, "a": [1, 2.5, -0.1, 1e-7, 123456789012], "c": ["z": true, "y": .null], "s": "q\"\\\n\u{1}"]
        #expect(
            v.serialized() == """
                {
                  "a": [1, 2.5, -0.1, 1e-07, 123456789012],
                  "b": 1,
                  "c": {
                    "y": null,
                    "z": true
                  },
                  "s": "q\\"\\\\\\n\\u0001"
                }

                """)
    }

    @Test func shortestRoundTripDoubles() throws {
        var rng = SeededRNG(seed: 7)
        for _ in 0..<2000 {
            let d = Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF) * (Bool.random(using: &rng) ? 1 : -1)
            let text = JSONValue.number(d).serialized()
            guard case .number(let back) = try JSONParser.parse(text) else { Issue.record("not a number"); return }
            #expect(back == d, "\(d) wrote \(text)")
        }
        #expect(JSONValue.number(0.1).serialized() == "0.1\n")
        #expect(JSONValue.number(300).serialized() == "300\n")
    }

    @Test func decimalNumbersParseExactlyAsStrtod() throws {
        var rng = SeededRNG(seed: 9)
        for _ in 0..<5000 {
            let digits = Int.random(in: 1...17, using: &rng)
            var text = (0..<digits).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
            while text.count > 1 && text.hasPrefix("0") { text.removeFirst() }
            if Bool.random(using: &rng), text.count > 1 {
                text.insert(".", at: text.index(text.startIndex, offsetBy: Int.random(in: 1..<text.count, using: &rng)))
            }
            if Bool.random(using: &rng) { text = "-" + text }
            guard case .number(let d) = try JSONParser.parse(text) else { Issue.record("not a number"); return }
            #expect(d == Double(text), "\(text)")
        }
    }

    @Test func parseWriteParseIsStable() throws {
        let text = #"{"x": [1, {"k": "\u00e9\ud83d\ude00"}], "e": [], "o": {}, "n": -0.5e2, "t": [true, false, null]}"#
        let v = try JSONParser.parse(text)
        let once = v.serialized()
        #expect(try JSONParser.parse(once) == v)
        #expect(try JSONParser.parse(once).serialized() == once)
        guard case .object(let o) = v, case .array(let x) = o["x"], case .object(let k) = x[1] else { Issue.record("shape"); return }
        #expect(k["k"] == .string("é😀"))
        #expect(o["n"] == .number(-50))
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9, "expected a string key"),
        ("[1, 2", 1, 6, "unexpected end of input"),
        ("{\n  \"a\": tru\n}", 2, 8, "invalid literal"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key \"a\""),
        ("01", 1, 1, "leading zero"),
        ("1e999", 1, 1, "out of range"),
        ("\"a\tb\"", 1, 3, "control character"),
        ("\"\\ud800\"", 1, 8, "unpaired surrogate"),
        ("[1] x", 1, 5, "after the JSON value"),
        ("{\"a\" 1}", 1, 6, "expected ':'"),
    ])
    func syntaxErrorsNameLineAndColumn(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try JSONParser.parse(text, file: "t.json")
            Issue.record("parsed \(text)")
        } catch let e as JSONSyntaxError {
            #expect(e.line == line && e.column == column, "\(e)")
            #expect(e.message.contains(message), "\(e)")
            #expect(e.description.hasPrefix("t.json:\(line):\(column): "))
        } catch { Issue.record("\(error)") }
    }

    @Test func depthLimit() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        _ = try JSONParser.parse(ok)
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
        // A million open brackets fail fast at depth 65, without recursing further.
        let huge = String(repeating: "{\"a\":", count: 1_000_000)
        do { _ = try JSONParser.parse(huge); Issue.record("parsed") } catch let e as JSONSyntaxError {
            #expect(e.message.contains("deeper than 64"))
        }
    }

    @Test func sizeLimitIsCheckedFirst() {
        let big = [UInt8](repeating: 0x20, count: (8 << 20) + 1)
        do { _ = try JSONParser.parse(big); Issue.record("parsed") } catch let e as JSONSyntaxError {
            #expect(e.message.contains("over the limit of 8388608 bytes"))
        } catch { Issue.record("\(error)") }
    }

    @Test func decodingCollectsEveryProblemWithPaths() throws {
        let ctx = DecodingContext(file: "m.json")
        let v = try JSONParser.parse(#"{"a": "x", "b": [1, "two", 3], "n": 1e308, "extra": 1, "w": -2}"#)
        let o = ctx.root(v).object()
        _ = o?.required("a")?.number()
        _ = o?.required("b")?.array()?.map { $0.number() }
        _ = o?.required("n")?.number()
        _ = o?.required("w")?.number(in: 0...100)
        _ = o?.required("missing")
        o?.finish()
        #expect(
            ctx.problems.map(\.description) == [
                "a: expected a number, found a string",
                "b[1]: expected a number, found a string",
                "n: must be between -1000000000 and 1000000000 (got 1e+308)",
                "w: must be between 0 and 100 (got -2)",
                "missing: missing required field \"missing\"",
                "extra: unknown field \"extra\"",
            ])
        #expect(throws: JSONDecodingError.self) { try ctx.throwIfProblems() }
    }
}
