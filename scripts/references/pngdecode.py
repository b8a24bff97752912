# A small PNG decoder in plain Python (zlib from the standard library), written from the PNG
# specification, for the reference rule of Tests/TechoCodecsTests/Fixtures/README.md. techo
# decodes PNGs through libpng, so png-references.py requires this decoder and libpng to agree on
# every reference: neither alone decides what the tests expect.
#
# The rule: 8-bit RGBA, row-major, top-down; no gamma or colour management; bit depths 1, 2 and 4
# scaled by v * 255 / (2^depth - 1); 16-bit samples reduced to their high byte; the tRNS key of
# grey and truecolour images compared with the full-depth samples; palette tRNS per entry, entries
# past its end opaque, indices past the palette's end opaque black; Adam7 de-interlaced.
import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
DEPTHS = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))


class PNGError(Exception):
    pass


def chunks(data):
    if data[:8] != SIGNATURE:
        raise PNGError("not a PNG signature")
    i = 8
    while i + 12 <= len(data):
        (length,) = struct.unpack(">I", data[i:i + 4])
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + length]
        if len(body) != length or i + 12 + length > len(data):
            raise PNGError(f"chunk {kind!r} runs past the end")
        (crc,) = struct.unpack(">I", data[i + 8 + length:i + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise PNGError(f"chunk {kind!r}: bad CRC")
        yield kind, body
        if kind == b"IEND":
            return
        i += 12 + length
    raise PNGError("no IEND")


def unfilter(raw, pos, rows, rowbytes, bpp):
    """The pass's rows, unfiltered, and the position after them."""
    out, prior = [], bytearray(rowbytes)
    for _ in range(rows):
        kind = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + rowbytes])
        if len(line) != rowbytes:
            raise PNGError("image data too short")
        pos += 1 + rowbytes
        if kind == 1:
            for x in range(bpp, rowbytes):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif kind == 2:
            for x in range(rowbytes):
                line[x] = (line[x] + prior[x]) & 255
        elif kind == 3:
            for x in range(rowbytes):
                left = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + ((left + prior[x]) >> 1)) & 255
        elif kind == 4:
            for x in range(rowbytes):
                a = line[x - bpp] if x >= bpp else 0
                b, c = prior[x], (prior[x - bpp] if x >= bpp else 0)
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        elif kind != 0:
            raise PNGError(f"filter type {kind}")
        out.append(line)
        prior = line
    return out, pos


def samples(line, count, depth):
    """The row's first `count` samples at their full depth."""
    if depth == 8:
        return list(line[:count])
    if depth == 16:
        return [line[2 * k] << 8 | line[2 * k + 1] for k in range(count)]
    per, mask = 8 // depth, (1 << depth) - 1
    return [(line[k // per] >> (8 - depth * (k % per + 1))) & mask for k in range(count)]


def decode(data):
    """(width, height, RGBA bytes) by the rule above; PNGError when the file cannot be read."""
    header, palette, trns, idat = None, [], None, []
    for kind, body in chunks(data):
        if kind == b"IHDR":
            if len(body) != 13:
                raise PNGError("IHDR length")
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = [tuple(body[k:k + 3]) for k in range(0, len(body) - 2, 3)]
        elif kind == b"tRNS":
            trns = body
        elif kind == b"IDAT":
            idat.append(body)
    if header is None or not idat:
        raise PNGError("no IHDR or no IDAT")
    width, height, depth, colour, compression, filtering, interlace = header
    if colour not in CHANNELS or depth not in DEPTHS[colour] or width == 0 or height == 0:
        raise PNGError(f"colour type {colour}, depth {depth}, {width}x{height}")
    if compression or filtering or interlace > 1:
        raise PNGError("unknown compression, filter or interlace method")
    if colour == 3 and not palette:
        raise PNGError("palette image without PLTE")
    channels = CHANNELS[colour]
    key = None
    if trns is not None and colour == 0 and len(trns) == 2:
        key = struct.unpack(">H", trns)
    elif trns is not None and colour == 2 and len(trns) == 6:
        key = struct.unpack(">HHH", trns)
    alphas = list(trns) if trns is not None and colour == 3 else []
    maxval = (1 << depth) - 1

    def eight(v):
        return v >> 8 if depth == 16 else v * 255 // maxval

    raw = zlib.decompress(b"".join(idat))
    out = bytearray(width * height * 4)
    passes = ADAM7 if interlace else ((0, 0, 1, 1),)
    bpp = max(1, channels * depth // 8)
    pos = 0
    for x0, y0, dx, dy in passes:
        pw, ph = (width - x0 + dx - 1) // dx, (height - y0 + dy - 1) // dy
        if pw <= 0 or ph <= 0:
            continue
        rows, pos = unfilter(raw, pos, ph, (pw * channels * depth + 7) // 8, bpp)
        for j, line in enumerate(rows):
            s = samples(line, pw * channels, depth)
            for i in range(pw):
                px = s[i * channels:(i + 1) * channels]
                if colour == 3:
                    index = px[0]
                    r, g, b = palette[index] if index < len(palette) else (0, 0, 0)
                    a = alphas[index] if index < len(alphas) else 255
                elif colour == 0:
                    r = g = b = eight(px[0])
                    a = 0 if key == (px[0],) else 255
                elif colour == 2:
                    r, g, b = (eight(v) for v in px)
                    a = 0 if key == tuple(px) else 255
                elif colour == 4:
                    r = g = b = eight(px[0])
                    a = eight(px[1])
                else:
                    r, g, b, a = (eight(v) for v in px)
                o = ((y0 + j * dy) * width + x0 + i * dx) * 4
                out[o:o + 4] = bytes((r, g, b, a))
    return width, height, bytes(out)
