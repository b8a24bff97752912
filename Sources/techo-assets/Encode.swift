// Writes canvases through techo's own codecs, adding the EXIF a phone would write.
import TechoCodecs
import TechoRaster

func pixmap(_ c: Canvas, grain: Float = 0) -> Pixmap {
    Pixmap(width: c.width, height: c.height, straightRGBA: c.rgba8(grain: grain, seed: 1))
}

func encodePNG(_ c: Canvas) throws -> [UInt8] {
    try PNGEncoder.encode(pixmap(c), level: 9, name: "generated PNG")
}

/// `sensorGrain`: the luminance noise of `Canvas.rgba8(sensorGrain:seed:)`; 0 for the light grain.
func encodeJPEG(_ c: Canvas, quality: Int, orientation: Int?, gps: Bool, sensorGrain: Float = 0, texture: Float = 0) throws -> [UInt8] {
    let pixels =
        sensorGrain > 0
        ? Pixmap(width: c.width, height: c.height, straightRGBA: c.rgba8(sensorGrain: sensorGrain, texture: texture, seed: 1)) : pixmap(c, grain: 3.0 / 255)
    let jpeg = try JPEGEncoder.encode(pixels, quality: quality, dpi: 72, name: "generated JPEG")
    guard orientation != nil || gps else { return jpeg }
    return insertAPP1(jpeg, exif: exifSegment(orientation: orientation ?? 1, gps: gps))
}

/// A minimal little-endian EXIF block: IFD0 with Orientation (and a GPS IFD pointer when asked,
/// holding a latitude, so the importer's GPS removal has something to remove).
func exifSegment(orientation: Int, gps: Bool) -> [UInt8] {
    var t: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]  // "II*\0", IFD0 at 8
    func u16(_ v: Int) { t += [UInt8(v & 0xff), UInt8(v >> 8 & 0xff)] }
    func u32(_ v: Int) { t += [UInt8(v & 0xff), UInt8(v >> 8 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 24 & 0xff)] }
    let entries = gps ? 2 : 1
    u16(entries)
    u16(0x0112); u16(3); u32(1); u16(orientation); u16(0)  // Orientation, SHORT
    let gpsIFD = 8 + 2 + entries * 12 + 4
    if gps { u16(0x8825); u16(4); u32(1); u32(gpsIFD) }  // GPSInfo IFD pointer, LONG
    u32(0)  // no IFD1
    if gps {
        let rationals = gpsIFD + 2 + 2 * 12 + 4
        u16(2)
        u16(0x0001); u16(2); u32(2); t += [0x4E, 0, 0, 0]  // GPSLatitudeRef "N"
        u16(0x0002); u16(5); u32(3); u32(rationals)  // GPSLatitude 3 RATIONAL
        u32(0)
        for (n, d) in [(35, 1), (0, 1), (4200, 100)] { u32(n); u32(d) }
    }
    return Array("Exif".utf8) + [0, 0] + t
}

func insertAPP1(_ jpeg: [UInt8], exif: [UInt8]) -> [UInt8] {
    precondition(jpeg.count > 2 && jpeg[0] == 0xFF && jpeg[1] == 0xD8, "not a JPEG")
    let n = exif.count + 2
    return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(n >> 8), UInt8(n & 0xff)] + exif + jpeg[2...]
}
