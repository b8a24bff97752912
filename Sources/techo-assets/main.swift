// techo-assets: makes the images the demo journal and the benchmark page use, procedurally and
// deterministically (no downloaded pictures).
//
//   techo-assets demo  OUTDIR   photos (JPEG, and a phone's HEIC), stickers (PNG, a WebP and an
//                               SVG), paper and tape patterns for Resources/demo
//   techo-assets bench OUTDIR   four 4032x3024 phone photos (smooth, and again with a real
//                               phone's grain in grain/), twelve 512x512 stickers, paper
//                               and four more as phones store HEICs (heic/: grids of 8x6
//                               HEVC tiles)
//   techo-assets bench-heic OUTDIR   only those HEICs
//   techo-assets heic-fixtures SOURCE.png OUTDIR
//                               SOURCE as HEICs stored turned, with irot/imir and EXIF
//                               orientations 5, 6 and 8 (and an EXIF GPS position) that show it
//                               upright: the importer's orientation and GPS fixtures
//   techo-assets heic-grid OUT.heic WIDTH HEIGHT [TILE] | heic-grid OUT.heic SOURCE.png [TILE]
//                               a HEIC stored as a grid of HEVC tiles (512 px by default), as
//                               phones write photos: a grainy landscape, or SOURCE
//
// Files that already exist are kept, so repeated runs are instant.
import Foundation
import TechoCodecs

let args = CommandLine.arguments
if args.count >= 2 && args[1] == "heic-grid" { heicGridCommand(Array(args.dropFirst(2))) }
guard (args.count == 3 && ["demo", "bench", "bench-heic"].contains(args[1])) || (args.count == 4 && args[1] == "heic-fixtures") else {
    let usage = "usage: techo-assets demo|bench|bench-heic OUTDIR | heic-fixtures SOURCE.png OUTDIR | heic-grid OUT.heic WIDTH HEIGHT [TILE]"
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(64)
}
let out = URL(fileURLWithPath: args[args.count - 1])
var made = 0

func emit(_ name: String, _ make: () throws -> [UInt8]) {
    let url = out.appendingPathComponent(name)
    if FileManager.default.fileExists(atPath: url.path) { return }
    do {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let bytes = try make()
        let tmp = url.appendingPathExtension("tmp")
        try Data(bytes).write(to: tmp)
        guard rename(tmp.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        made += 1
    } catch {
        FileHandle.standardError.write(Data("techo-assets: cannot write \(url.path): \(error)\n".utf8))
        exit(73)
    }
}

/// The canvas turned 90° counter-clockwise: what a phone held upright stores, to be shown with
/// EXIF orientation 6 (rotate 90° clockwise).
func storedForOrientation6(_ d: Canvas) -> Canvas {
    var s = Canvas(width: d.height, height: d.width)
    for sy in 0..<s.height {
        for sx in 0..<s.width { s.px[sy * s.width + sx] = d.px[sx * d.width + (s.height - 1 - sy)] }
    }
    return s
}

/// A phone's HEIC of `shown`: stored turned for `orientation`, with the matching irot/imir
/// boxes and EXIF (and a GPS position when asked).
func phoneHEIC(_ shown: [UInt8], width: Int, height: Int, orientation: Int, gps: Bool, quality: Int) throws -> [UInt8] {
    let s = stored(shown, width: width, height: height, forOrientation: orientation)
    return try encodeHEIC(
        rgba: s.bytes, width: s.width, height: s.height, quality: quality, orientation: orientation,
        exif: exifSegment(orientation: orientation, gps: gps), alpha: false)
}

if args[1] == "heic-fixtures" {
    do {
        let source = try ImageDecoder.decodeStraight(try FileBytes.contents(of: args[2], maxBytes: 1 << 20), name: args[2]).pixels
        for o in [5, 6, 8] {
            emit("quad-orient\(o).heic") { try phoneHEIC(source.bytes, width: source.width, height: source.height, orientation: o, gps: true, quality: 92) }
        }
    } catch {
        FileHandle.standardError.write(Data("techo-assets: \(error)\n".utf8))
        exit(65)
    }
} else if args[1] == "demo" {
    let scenes: [(String, Scene, Int, Int, Bool)] = [
        ("photos/lake.jpg", .sunsetLake, 1600, 1200, false),
        ("photos/meadow.jpg", .meadow, 1200, 1600, true),  // portrait shot, stored sideways + EXIF 6
        ("photos/sea.jpg", .seaside, 1600, 1200, false),
        ("photos/night.jpg", .nightHills, 1400, 1400, false),
    ]
    for (i, (name, scene, w, h, rotated)) in scenes.enumerated() {
        emit(name) {
            let shown = landscape(scene, width: w, height: h, seed: UInt32(100 + i))
            let stored = rotated ? storedForOrientation6(shown) : shown
            return try encodeJPEG(stored, quality: 88, orientation: rotated ? 6 : nil, gps: i == 0)
        }
    }
    // The meadow again as a phone's HEIC: portrait, stored sideways with irot and EXIF 6, GPS on.
    emit("photos/meadow.heic") {
        let shown = landscape(.meadow, width: 900, height: 1200, seed: 111)
        return try phoneHEIC(
            shown.rgba8(grain: 3.0 / 255, seed: 1), width: shown.width, height: shown.height,
            orientation: 6, gps: true, quality: 80)
    }
    for kind in StickerKind.allCases {
        emit("stickers/\(kind.rawValue).png") { try encodePNG(sticker(kind, size: 512)) }
    }
    // A chat app's sticker (WebP) and a sticker shop's vector (SVG).
    emit("stickers/cat.webp") { try encodeWebP(sticker(.cat, size: 512), quality: 88) }
    emit("stickers/sakura.svg") { sakuraSVG(size: 256) }
    emit("paper/kraft.png") { try encodePNG(paperTexture(size: 256, kraft: true, seed: 7)) }
    emit("paper/rice.png") { try encodePNG(paperTexture(size: 256, kraft: false, seed: 9)) }
    for p in ["gingham", "dots", "stripes"] {
        emit("tape/\(p).png") { try encodePNG(tapePattern(p, size: 48)) }
    }
} else if args[1] == "bench" {
    let scenes = Scene.allCases
    // A real phone photo's grain and detail (Canvas.rgba8(sensorGrain:texture:seed:)).
    let sensorGrain: Float = 0.015, texture: Float = 0.24
    for i in 0..<4 {
        emit("photos/photo\(i + 1).jpg") {
            let shown = landscape(scenes[i], width: i == 1 ? 3024 : 4032, height: i == 1 ? 4032 : 3024, seed: UInt32(200 + i))
            let stored = i == 1 ? storedForOrientation6(shown) : shown
            return try encodeJPEG(stored, quality: 90, orientation: i == 1 ? 6 : nil, gps: false)
        }
        // The same scenes with the grain of a real phone's photo (3.4-3.8 MB at quality 90):
        // the second bench page, whose pictures compress and decode like real ones.
        emit("grain/photo\(i + 1).jpg") {
            let shown = landscape(scenes[i], width: i == 1 ? 3024 : 4032, height: i == 1 ? 4032 : 3024, seed: UInt32(200 + i))
            let stored = i == 1 ? storedForOrientation6(shown) : shown
            return try encodeJPEG(stored, quality: 90, orientation: i == 1 ? 6 : nil, gps: false, sensorGrain: sensorGrain, texture: texture)
        }
    }
    for i in 0..<12 {
        let kind = StickerKind.allCases[i % StickerKind.allCases.count]
        emit("stickers/sticker\(String(format: "%02d", i + 1)).png") { try encodePNG(sticker(kind, size: 512, variant: i / 8 + 1)) }
    }
    emit("paper/kraft.png") { try encodePNG(paperTexture(size: 256, kraft: true, seed: 7)) }
}
if args[1] == "bench" || args[1] == "bench-heic" {
    // Four phone photos as phones store them: 4032x3024 grids of 8x6 HEVC tiles of 512 px.
    for i in 0..<4 {
        emit("heic/phone\(i + 1).heic") {
            try encodeHEICGrid(rgba: phoneGridPicture(i, width: 4032, height: 3024), width: 4032, height: 3024, tile: 512, quality: phoneGridQuality)
        }
    }
}
print("techo-assets: \(made) file(s) made in \(out.path)")
