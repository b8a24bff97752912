#!/usr/bin/env python3
"""Writes the source PNGs the device-format fixtures are encoded from (standard library only).

quad.png        64x48 RGB: red top-left, green top-right, blue bottom-left, white bottom-right
                quadrants, so any rotation or mirror is visible in four pixels.
quad-alpha.png  the same, RGBA: the right half fades from opaque (left) to clear (right).
quad16.png      the same, 16-bit RGB (for a 10-bit HEIF).
frame2.png      a 64x48 yellow frame with a black centre (the second frame of the animation).
grid.png        120x100 RGB: the same four colours in quadrants split at x = 64 and y = 64 (one
                per tile of a grid of 64 px tiles), shaded 75-100 % from the top-left corner down
                to the bottom-right one, so the grid fixture's pixels vary within each tile.
"""
import struct, zlib, sys, os

W, H = 64, 48

def quad(x, y):
    left, top = x < W // 2, y < H // 2
    return {(True, True): (255, 0, 0), (False, True): (0, 255, 0),
            (True, False): (0, 0, 255), (False, False): (255, 255, 255)}[(left, top)]

def png(path, w, h, rows, color_type, depth=8):
    raw = b"".join(b"\x00" + r for r in rows)
    def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", w, h, depth, color_type, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

out = sys.argv[1] if len(sys.argv) > 1 else "source"
os.makedirs(out, exist_ok=True)
png(f"{out}/quad.png", W, H, [bytes(c for x in range(W) for c in quad(x, y)) for y in range(H)], 2)
def alpha(x): return 255 if x < W // 2 else round(255 * (W - 1 - x) / (W // 2 - 1))
png(f"{out}/quad-alpha.png", W, H, [bytes(c for x in range(W) for c in quad(x, y) + (alpha(x),)) for y in range(H)], 6)
png(f"{out}/quad16.png", W, H, [b"".join(struct.pack(">H", c * 257) for x in range(W) for c in quad(x, y)) for y in range(H)], 2, 16)
def f2(x, y): return (0, 0, 0) if 16 <= x < 48 and 12 <= y < 36 else (255, 255, 0)
png(f"{out}/frame2.png", W, H, [bytes(c for x in range(W) for c in f2(x, y)) for y in range(H)], 2)
GW, GH, GT = 120, 100, 64
def grid(x, y):
    base = {(True, True): (255, 0, 0), (False, True): (0, 255, 0),
            (True, False): (0, 0, 255), (False, False): (255, 255, 255)}[(x < GT, y < GT)]
    shade = 1 - 0.25 * (x + y) / (GW + GH - 2)
    return tuple(round(c * shade) for c in base)
png(f"{out}/grid.png", GW, GH, [bytes(c for x in range(GW) for c in grid(x, y)) for y in range(GH)], 2)
