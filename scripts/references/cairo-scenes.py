#!/usr/bin/python3
# Renders the primitive scenes of Tests/TechoRasterTests/Fixtures/primitives with cairo, the
# independent anti-aliasing renderer the raster engine is compared with: each NAME.json (the
# scene, described in that folder's README) becomes NAME.cairo.png.
#
# Needs Debian's python3-cairo (pycairo over cairo 1.16, pixman image surfaces) and python3-pil
# (to decode the JPEG photo; cairo reads only PNG). Run by `make references`, or alone:
#   /usr/bin/python3 scripts/references/cairo-scenes.py [NAME...]
# Deterministic: the same cairo, pixman, libpng and zlib write the same bytes.
import json
import math
import sys
from pathlib import Path

import cairo
from PIL import Image

HERE = Path(__file__).resolve().parent
SCENES = HERE.parent.parent / "Tests/TechoRasterTests/Fixtures/primitives"

CAPS = {"butt": cairo.LINE_CAP_BUTT, "round": cairo.LINE_CAP_ROUND, "square": cairo.LINE_CAP_SQUARE}
JOINS = {"miter": cairo.LINE_JOIN_MITER, "round": cairo.LINE_JOIN_ROUND, "bevel": cairo.LINE_JOIN_BEVEL}
RULES = {"nonzero": cairo.FILL_RULE_WINDING, "evenodd": cairo.FILL_RULE_EVEN_ODD}
FILTERS = {"bilinear": cairo.FILTER_BILINEAR, "good": cairo.FILTER_GOOD, "nearest": cairo.FILTER_NEAREST}


def rgb(hex_colour):
    """`#rrggbb` as cairo's three doubles."""
    h = hex_colour.lstrip("#")
    return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))


def polyline(cr, op):
    (x, y), *rest = op["points"]
    cr.move_to(x, y)
    for x, y in rest:
        cr.line_to(x, y)
    if op.get("closed"):
        cr.close_path()


def stroke_style(cr, op):
    cr.set_line_width(op["width"])
    cr.set_line_cap(CAPS[op.get("cap", "butt")])
    cr.set_line_join(JOINS[op.get("join", "miter")])
    cr.set_miter_limit(op.get("miter_limit", 10))
    cr.set_dash(op.get("dash", []), op.get("dash_offset", 0))


def image_surface(path):
    """A picture as a cairo surface: PNGs through cairo's own reader, JPEGs through Pillow
    (libjpeg-turbo, default ISLOW IDCT and fancy upsampling), opaque so no premultiplying."""
    if path.suffix == ".png":
        return cairo.ImageSurface.create_from_png(str(path))
    im = Image.open(path).convert("RGB")
    w, h = im.size
    data = bytearray(im.convert("RGBA").tobytes("raw", "BGRA"))
    stride = cairo.ImageSurface.format_stride_for_width(cairo.FORMAT_RGB24, w)
    assert stride == w * 4
    return cairo.ImageSurface.create_for_data(data, cairo.FORMAT_RGB24, w, h, stride)


def draw(cr, ops):
    for op in ops:
        kind = op["op"]
        cr.save()
        if kind == "fill_circle":
            cr.arc(op["cx"], op["cy"], op["r"], 0, 2 * math.pi)
            cr.set_source_rgb(*rgb(op["color"]))
            cr.fill()
        elif kind == "fill_polygon":
            polyline(cr, op)
            cr.set_fill_rule(RULES[op.get("fill_rule", "nonzero")])
            cr.set_source_rgb(*rgb(op["color"]))
            cr.fill()
        elif kind == "stroke_polyline":
            polyline(cr, op)
            stroke_style(cr, op)
            cr.set_source_rgb(*rgb(op["color"]))
            cr.stroke()
        elif kind == "stroke_ellipse":
            cr.save()
            cr.translate(op["cx"], op["cy"])
            cr.scale(op["rx"], op["ry"])
            cr.arc(0, 0, 1, 0, 2 * math.pi)
            cr.restore()
            cr.set_line_width(op["width"])
            cr.set_source_rgb(*rgb(op["color"]))
            cr.stroke()
        elif kind == "erase_polyline":
            polyline(cr, op)
            stroke_style(cr, op)
            cr.set_operator(cairo.OPERATOR_DEST_OUT)
            cr.set_source_rgb(0, 0, 0)
            cr.stroke()
        elif kind == "layer":
            assert op.get("composite", "over") == "over"
            cr.push_group()
            draw(cr, op["ops"])
            cr.pop_group_to_source()
            cr.paint_with_alpha(op.get("opacity", 1))
        elif kind == "image":
            surface = image_surface(SCENES / op["src"])
            assert [surface.get_width(), surface.get_height()] == op["src_size"]
            a, b, c, d, tx, ty = op["matrix"]
            pattern = cairo.SurfacePattern(surface)
            to_image = cairo.Matrix(a, b, c, d, tx, ty)
            to_image.invert()
            pattern.set_matrix(to_image)
            pattern.set_filter(FILTERS[op["filter"]])
            pattern.set_extend(cairo.EXTEND_NONE)
            cr.set_source(pattern)
            cr.paint_with_alpha(op.get("opacity", 1))
        else:
            raise SystemExit(f"unknown op {kind!r}")
        cr.restore()


def render(scene_path):
    scene = json.loads(scene_path.read_text())
    assert scene["antialias"] == "ANTIALIAS_DEFAULT"
    canvas = scene["canvas"]
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, canvas["width"], canvas["height"])
    cr = cairo.Context(surface)
    cr.set_antialias(cairo.ANTIALIAS_DEFAULT)
    if canvas.get("background"):
        cr.set_source_rgb(*rgb(canvas["background"]))
        cr.paint()
    draw(cr, scene["ops"])
    surface.flush()
    out = scene_path.parent / scene["reference_png"]
    surface.write_to_png(str(out))
    return out


def main(names):
    paths = [SCENES / f"{n}.json" for n in names] or sorted(SCENES.glob("*.json"))
    for path in paths:
        render(path)
    print(f"cairo {cairo.cairo_version_string()} (pycairo {cairo.version}): "
          f"rendered {len(paths)} scenes into {SCENES.relative_to(HERE.parent.parent)}/")


if __name__ == "__main__":
    main(sys.argv[1:])
