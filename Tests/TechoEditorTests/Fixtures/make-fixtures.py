#!/usr/bin/env python3
# Draws the editor tests' stickers with the standard library only (zlib + struct), so they can
# be made again byte for byte: python3 make-fixtures.py. Public domain (CC0), like their PNGs.
import math, struct, zlib

def write_png(path, w, h, pixel):
    rows = bytearray()
    for y in range(h):
        rows.append(0)
        for x in range(w):
            rows.extend(pixel(x + 0.5, y + 0.5))
    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
    ihdr = struct.pack('>IIBBBBB', w, h, 8, 6, 0, 0, 0)
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) + chunk(b'IDAT', zlib.compress(bytes(rows), 9)) + chunk(b'IEND', b''))

def coverage(d):  # anti-aliased edge: d is the signed distance in pixels, inside < 0
    return max(0.0, min(1.0, 0.5 - d))

def tomato(x, y):
    # A red round fruit with a green leaf on top: not symmetric, so turns and flips show.
    body = coverage(math.hypot(x - 48, y - 54) - 38)
    leaf = coverage(math.hypot((x - 48) / 1.8, y - 16) - 8)
    if leaf > 0:
        return (70, 140, 60, round(255 * max(leaf, body)))
    return (214, 72, 56, round(255 * body))

def star(x, y):
    # A blue five-pointed star.
    a = math.atan2(y - 32, x - 32)
    r = math.hypot(x - 32, y - 32)
    edge = 14 + 14 * (0.5 + 0.5 * math.cos(5 * (a + math.pi / 2)))
    return (61, 133, 198, round(255 * coverage(r - edge)))

write_png('tomato.png', 96, 96, tomato)
write_png('star.png', 64, 64, star)
