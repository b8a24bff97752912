#!/usr/bin/python3
# Remakes the PNG references of Tests/TechoCodecsTests/Fixtures/pngsuite and .../libpng by the
# rule in Fixtures/README.md, with two decoders that must agree byte for byte on every file that
# has a reference: libpng (Debian 12: 1.6.39) through png-rgba.c, built here against Debian's
# libpng-dev, and pngdecode.py, a plain-Python decoder written from the PNG specification. techo
# itself decodes through libpng, so libpng alone would make its own references.
#
# - pngsuite/ref/NAME.rgba: the raw RGBA bytes;
# - libpng/ref/**.rgba.png: the same bytes as an 8-bit RGBA PNG (Pillow, optimize), as committed;
# - both EXPECTED.tsv files: the width, height and sha256_rgba columns.
#
# It stops before rewriting an EXPECTED.tsv when the decoders disagree with each other or libpng
# with a row: a row without a reference (`must-fail`) must be refused, one with a reference
# (`ok`, `ok-or-fail`) decoded.
# Needs a C compiler (cc, or the Swift toolchain's clang), libpng-dev and python3-pil. Run by
# `make references`, or alone:  /usr/bin/python3 scripts/references/png-references.py
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(HERE))
from pngdecode import decode as decode_in_python  # noqa: E402
from tsv import Table, unlisted  # noqa: E402

ROOT = HERE.parent.parent
FIXTURES = ROOT / "Tests/TechoCodecsTests/Fixtures"


def build_decoder(folder: str) -> str:
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("clang")
    if not cc:
        raise SystemExit("png references: no C compiler (cc or clang) on PATH")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libpng"], capture_output=True, text=True, check=True)
    out = f"{folder}/png-rgba"
    subprocess.run([cc, "-O2", str(HERE / "png-rgba.c"), "-o", out, *flags.stdout.split()], check=True)
    return out


def decode(decoder, path):
    """(width, height, RGBA bytes), or None when libpng refuses the file."""
    result = subprocess.run([decoder, str(path)], capture_output=True)
    if result.returncode != 0:
        return None
    head, pixels = result.stdout.split(b"\n", 1)
    width, height = map(int, head.split())
    assert len(pixels) == width * height * 4, path
    return width, height, pixels


def rgba_png(width, height, pixels) -> bytes:
    out = io.BytesIO()
    Image.frombytes("RGBA", (width, height), pixels).save(out, "PNG", optimize=True)
    return out.getvalue()


def remake(decoder, corpus, as_png):
    folder = FIXTURES / corpus
    table = Table(folder / "EXPECTED.tsv")
    problems, refs = [], []
    for row in table:
        decoded = decode(decoder, folder / row["file"])
        if row["reference"] == "-":
            if decoded is not None:
                problems.append(f"{row['file']}: {row['expected']} without a reference, but libpng decoded it")
            continue
        if decoded is None:
            problems.append(f"{row['file']}: {row['expected']}, but libpng refused it")
            continue
        width, height, pixels = decoded
        try:
            second = decode_in_python((folder / row["file"]).read_bytes())
        except Exception as error:  # any failure of the plain decoder is a disagreement
            second = f"refused ({error})"
        if second != decoded:
            problems.append(f"{row['file']}: libpng and pngdecode.py disagree ({second if isinstance(second, str) else 'pixels'})")
            continue
        target = folder / row["reference"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(rgba_png(width, height, pixels) if as_png else pixels)
        refs.append(target)
        row["width"], row["height"] = str(width), str(height)
        row["sha256_rgba"] = hashlib.sha256(pixels).hexdigest()
    problems += [f"{p.relative_to(folder)}: a reference no row of EXPECTED.tsv names" for p in unlisted(folder / "ref", refs)]
    if problems:
        raise SystemExit(f"png references ({corpus}):\n  " + "\n  ".join(problems))
    table.write()
    return len(refs), len(table.rows) - len(refs)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        decoder = build_decoder(tmp)
        version = subprocess.run(["pkg-config", "--modversion", "libpng"], capture_output=True, text=True).stdout.strip()
        for corpus, as_png in (("pngsuite", False), ("libpng", True)):
            made, refused = remake(decoder, corpus, as_png)
            print(f"libpng {version} and pngdecode.py: remade {made} references in {corpus}/ref and its "
                  f"EXPECTED.tsv's sizes and hashes; {refused} must-fail files refused")


if __name__ == "__main__":
    main()
