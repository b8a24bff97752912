// Seeded byte mutations of valid files: every decode either succeeds or throws ImageError.
import TechoCodecs
import TechoGeometry
import Testing

@Suite struct RobustnessTests {
    @Test(arguments: [
        "pngsuite/basi6a08.png", "pngsuite/basn3p04.png", "pngsuite/tbbn3p08.png",
        "jpeg/libjpeg-turbo/testorig.jpg", "jpeg/generated/gen_progressive.jpg",
        "jpeg/generated/gen_arith.jpg", "jpeg/generated/gen_ycck.jpg",
    ])
    func mutatedFilesNeverCrash(file: String) throws {
        let original = try readFile("\(fixturesDirectory)/\(file)")
        var rng = SplitMix64(seed: UInt64(original.count))
        var decoded = 0, refused = 0
        for round in 0..<150 {
            var bytes = original
            // Flip a few bytes, mostly in the header where the structure is.
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let span = round % 2 == 0 ? min(bytes.count, 300) : bytes.count
                bytes[Int(rng.next() % UInt64(span))] = rng.byte()
            }
            if round % 5 == 0 { bytes.removeLast(Int(rng.next() % UInt64(bytes.count / 2))) }
            do {
                let d = try ImageDecoder.decodeStraight(bytes, name: "m-\(round)")
                d.pixels.checkInvariants()
                #expect(ImageLimits.default.allows(width: d.pixels.width, height: d.pixels.height))
                decoded += 1
            } catch let error as ImageError {
                #expect(error.file == "m-\(round)")
                refused += 1
            }
        }
        #expect(decoded + refused == 150)
        #expect(refused > 0, "no mutation was refused: the mutations are not reaching the decoder")
    }
}
