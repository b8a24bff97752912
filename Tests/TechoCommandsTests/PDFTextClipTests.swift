// The rewrite of cairo's content streams that draws text through its outlines (PDFTextClip,
// docs/decisions/pdf.md): which text objects change, and that each keeps the text state it was
// shown with once it sits inside its own q … Q.
import Testing

@testable import TechoExport

@Suite struct PDFTextClipTests {
    static func rewritten(_ content: String) -> String? {
        PDFTextClip.rewrite(Array(content.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func aTextObjectBecomesAClipFilledWithItsColour() throws {
        let text = "\n12 0 0 -12 10 20 Tm\n/f-0-0 1 Tf\n[(Hi)-318(there)]TJ\nET"
        let out = try #require(Self.rewritten("0.1 0.2 0.3 rg /a0 gs\nBT" + text + "\n1 0 0 rg 0 0 5 5 re f\n"))
        #expect(out == "0.1 0.2 0.3 rg /a0 gs\nq BT 7 Tr" + text + " -32767 -32767 65534 65534 re f Q\n1 0 0 rg 0 0 5 5 re f\n")
    }

    @Test func theTextStateAnObjectSetIsSetAgainInTheNext() throws {
        let out = try #require(Self.rewritten("BT /f-1-0 1 Tf 0.5 Tc (a) Tj ET BT 1 0 0 1 3 4 Tm (b) Tj ET"))
        #expect(out.contains("q BT 7 Tr 1 0 0 1 3 4 Tm") == false)
        #expect(out.hasSuffix("q BT 7 Tr /f-1-0 1 Tf 0.5 Tc 1 0 0 1 3 4 Tm (b) Tj ET -32767 -32767 65534 65534 re f Q"), "\(out)")
    }

    @Test func qAndQRestoreTheTextStateAsAReaderDoes() throws {
        // The font set inside q … Q is gone after Q: the second object is not given it.
        let out = try #require(Self.rewritten("/f-9-0 1 Tf q BT /f-2-0 1 Tf (a) Tj ET Q BT (b) Tj ET"))
        #expect(out.hasSuffix("q BT 7 Tr /f-9-0 1 Tf (b) Tj ET -32767 -32767 65534 65534 re f Q"), "\(out)")
    }

    @Test func stringsMayHoldAnythingAndOtherOperatorsLeaveAnObjectAlone() throws {
        let out = try #require(Self.rewritten("BT /f 1 Tf (a ET \\) BT b) Tj <4554> Tj ET"))
        #expect(out == "q BT 7 Tr /f 1 Tf (a ET \\) BT b) Tj <4554> Tj ET -32767 -32767 65534 65534 re f Q")
        // A colour inside the text object: its fill could not be one colour.
        #expect(Self.rewritten("BT /f 1 Tf (a) Tj 1 0 0 rg (b) Tj ET") == nil)
        // A stream that sets a rendering mode itself, or holds an inline image.
        #expect(Self.rewritten("3 Tr BT /f 1 Tf (a) Tj ET") == nil)
        #expect(Self.rewritten("BT /f 1 Tf (a) Tj ET BI /W 1 /H 1 ID x EI") == nil)
    }
}
