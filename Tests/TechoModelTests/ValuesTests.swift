import Testing

@testable import TechoModel

@Suite struct ValuesTests {
    static let sizeCases: [(String, Bool, Double, Double)] = [
        ("A4", false, 2480.0, 3508.0), ("A5", false, 1748.0, 2480.0), ("a6", false, 1240.0, 1748.0), ("B5", false, 2079.0, 2953.0),
        ("B6", false, 1476.0, 2079.0), ("Letter", false, 2550.0, 3300.0), ("Hobonichi", false, 1240.0, 1748.0),
        ("Weeks", false, 1110.0, 2220.0), ("TN", false, 1299.0, 2480.0), ("A5", true, 2480.0, 1748.0),
        ("1000x500", false, 1000.0, 500.0), ("100x50mm", false, 1181.0, 591.0),
    ]

    static let colourCases: [(String, RGBA)] = [
        ("#abc", RGBA(r: 0xAA, g: 0xBB, b: 0xCC)), ("#abcd", RGBA(r: 0xAA, g: 0xBB, b: 0xCC, a: 0xDD)),
        ("#5B3A29", RGBA(r: 0x5B, g: 0x3A, b: 0x29)), ("#11223344", RGBA(r: 0x11, g: 0x22, b: 0x33, a: 0x44)),
        ("rgb(255, 0, 10)", RGBA(r: 255, g: 0, b: 10)), ("rgba(0,0,0,0.5)", RGBA(a: 128)), ("rgb(100%, 50%, 0%)", RGBA(r: 255, g: 128, b: 0)),
        ("hsl(0, 100%, 50%)", RGBA(r: 255)), ("hsl(120,100%,25%)", RGBA(g: 128)), ("hsla(240, 100%, 50%, 0.25)", RGBA(b: 255, a: 64)),
        ("hsl(30deg, 50%, 50%)", RGBA(r: 191, g: 128, b: 64)), ("RebeccaPurple", RGBA(r: 0x66, g: 0x33, b: 0x99)),
        ("transparent", RGBA(a: 0)), ("lightgoldenrodyellow", RGBA(r: 0xFA, g: 0xFA, b: 0xD2)),
    ]

    static let lengthCases: [(String, Double, Double)] = [
        ("12mm", 300.0, 12 * 300 / 25.4), ("1.5cm", 300.0, 1.5 * 300 / 2.54), ("2in", 300.0, 600.0), ("18pt", 300.0, 75.0),
        ("40px", 300.0, 40.0), ("40", 72.0, 40.0), (" 5 MM ", 254.0, 50.0), ("-3mm", 254.0, -30.0),
    ]

    @Test(arguments: ValuesTests.lengthCases)
    func lengthsConvertThroughDPI(text: String, dpi: Double, px: Double) throws {
        #expect(near(try Length(parsing: text).pixels(dpi: dpi), px))
    }

    @Test(arguments: ["", "mm", "12 furlongs", "1e400mm", "nan", "12mmm"])
    func badLengthsQuoteTheValue(text: String) {
        do { _ = try Length(parsing: text); Issue.record("parsed \(text)") } catch {
            #expect("\(error)".contains("\"\(text)\""))
        }
    }

    @Test(arguments: ValuesTests.colourCases)
    func colours(text: String, rgba: RGBA) throws {
        #expect(try RGBA(parsing: text) == rgba)
    }

    @Test func all148NamedColoursParseAndRoundTrip() throws {
        #expect(cssNamedColors.count == 148)
        for name in cssNamedColors.keys {
            let c = try RGBA(parsing: name)
            #expect(try RGBA(parsing: c.description) == c)
        }
        #expect(try RGBA(parsing: "grey") == RGBA(parsing: "gray"))
    }

    @Test(arguments: ["#12", "#ggg", "rgb(1,2)", "hsl(1, 2, 3)", "blurple", "rgb(a,b,c)", "cmyk(1,2,3,4)", ""])
    func badColoursQuoteTheValue(text: String) {
        do { _ = try RGBA(parsing: text); Issue.record("parsed \(text)") } catch {
            #expect("\(error)".hasPrefix("invalid colour \"\(text)\""))
        }
    }

    @Test(arguments: ValuesTests.sizeCases)
    func pageSizesAt300DPI(text: String, landscape: Bool, w: Double, h: Double) throws {
        let s = try PageSize(parsing: text, dpi: 300, landscape: landscape)
        #expect(s.width == w && s.height == h)
    }

    @Test func autoSides() throws {
        let s = try PageSize(parsing: "1748xauto", dpi: 300)
        #expect(s.width == 1748 && s.height == nil)
        #expect(s.description == "1748xauto")
        #expect(try PageSize(parsing: "1748xauto", dpi: 300, landscape: true).width == nil)
    }

    @Test(arguments: ["autoxauto", "A7", "0x100", "100x", "20000x100", "12000x12000", "-5x5", "axb"])
    func badPageSizes(text: String) {
        do { _ = try PageSize(parsing: text, dpi: 300); Issue.record("parsed \(text)") } catch {
            #expect("\(error)".contains("\"\(text)\""))
        }
    }

    @Test func identifiers() {
        #expect(Identifier.isValid("day-1_A"))
        #expect(Identifier.isValid(String(repeating: "a", count: 64)))
        #expect(!Identifier.isValid(String(repeating: "a", count: 65)))
        for bad in ["", "a b", "a/b", "..", "é", "a.b"] { #expect(!Identifier.isValid(bad), "\(bad)") }
        #expect(Identifier.next(prefix: "image", existing: []) == "image-1")
        #expect(Identifier.next(prefix: "image", existing: ["image-1", "image-7", "text-9", "image-x"]) == "image-8")
    }

    @Test func strokeValidation() throws {
        #expect(throws: ValueError.self) { try Stroke(tool: .pencil, width: 2) }
        #expect(throws: ValueError.self) { try Stroke(tool: .line, width: 2, from: Point(0, 0)) }
        #expect(throws: ValueError.self) { try Stroke(tool: .pencil, width: 0, points: [StrokePoint(0, 0)]) }
        #expect(throws: ValueError.self) { try Stroke(tool: .path, width: 1) }
        #expect(throws: ValueError.self) { try Stroke(tool: .pencil, width: 1, points: [StrokePoint(0, 0, pressure: 2)]) }
        var limits = ModelLimits(); limits.maxStrokePoints = 3
        #expect(throws: ValueError.self) { try Stroke(tool: .eraser, width: 1, points: Array(repeating: StrokePoint(0, 0), count: 4), limits: limits) }
        let dot = try Stroke(tool: .pencil, width: 3, points: [StrokePoint(5, 5)])
        dot.checkInvariants()
        #expect(try Stroke(tool: .dash, width: 2, from: .zero, to: Point(1, 1)).effectiveDash == [6, 6])
    }
}
