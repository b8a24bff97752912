#!/usr/bin/python3
# Remakes the JPEG corpus of Tests/TechoCodecsTests/Fixtures/jpeg with libjpeg-turbo's own tools
# (Debian 12: libjpeg-turbo-progs 2.1.5), as that folder's part of Fixtures/README.md describes:
#
# 1. the made inputs under generated/, from libjpeg-turbo/testorig.ppm: cjpeg for every coding
#    kind, exiftool for the EXIF orientations, Pillow for CMYK, and byte edits for the damaged
#    files. gen_ycck.jpg came from an encoder that is not kept and stays as committed;
# 2. every reference under ref/: `djpeg -pnm` with default settings (islow IDCT, fancy
#    upsampling, orientation not applied; greyscale expanded to RGB), written as an RGB PNG;
# 3. the width, height and sha256_rgba columns of EXPECTED.tsv, from the same decodes.
#
# It stops before rewriting EXPECTED.tsv when djpeg's outcome disagrees with a row's expectation (an
# `ok` row must decode without a warning, `ok-warn` with one, a row without a reference must be
# refused) or with the djpeg messages its note quotes (joined by " | "). Needs Debian's libjpeg-turbo-progs,
# libimage-exiftool-perl and python3-pil. Run by `make references`, or alone:
#   /usr/bin/python3 scripts/references/jpeg-references.py
import hashlib
import io
import re
import subprocess
import sys
from pathlib import Path

from PIL import Image

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
from tsv import Table, unlisted  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT / "Tests/TechoCodecsTests/Fixtures/jpeg"
SOURCE = "libjpeg-turbo/testorig.ppm"

# generated/ file -> cjpeg options (quality 90 unless said), as EXPECTED.tsv's notes say.
CJPEG = {
    "gen_411.jpg": ["-quality", "90", "-sample", "4x1"],
    "gen_420.jpg": ["-quality", "90", "-sample", "2x2"],
    "gen_422.jpg": ["-quality", "90", "-sample", "2x1"],
    "gen_440.jpg": ["-quality", "90", "-sample", "1x2"],
    "gen_444.jpg": ["-quality", "90", "-sample", "1x1"],
    "gen_arith.jpg": ["-quality", "90", "-arithmetic"],
    "gen_arith_progressive.jpg": ["-quality", "90", "-arithmetic", "-progressive"],
    "gen_gray.jpg": ["-quality", "90", "-grayscale"],
    "gen_icc.jpg": ["-quality", "90", "-icc", "libjpeg-turbo/test3.icc"],
    "gen_optimize.jpg": ["-quality", "90", "-optimize"],
    "gen_progressive.jpg": ["-quality", "90", "-progressive"],
    "gen_progressive_444.jpg": ["-quality", "90", "-progressive", "-sample", "1x1"],
    "gen_progressive_gray.jpg": ["-quality", "90", "-progressive", "-grayscale"],
    "gen_progressive_restart.jpg": ["-quality", "90", "-progressive", "-restart", "2"],
    "gen_q1_16bit_dqt.jpg": ["-quality", "1"],  # not -baseline: 16-bit tables, SOF1
    "gen_restart_1block.jpg": ["-quality", "90", "-restart", "1B"],
    "gen_restart_1row.jpg": ["-quality", "90", "-restart", "1"],
    "gen_rgb.jpg": ["-quality", "90", "-rgb"],
}


def run(args, **kw):
    return subprocess.run(args, cwd=CORPUS, capture_output=True, check=True, **kw).stdout


def without_dht(jpeg: bytes) -> bytes:
    """The file with every DHT segment (FFC4) before the first scan removed."""
    out, i = [jpeg[:2]], 2
    while i < len(jpeg):
        marker = jpeg[i + 1]
        if marker == 0xDA:
            out.append(jpeg[i:])
            break
        length = int.from_bytes(jpeg[i + 2:i + 4], "big")
        if marker != 0xC4:
            out.append(jpeg[i:i + 2 + length])
        i += 2 + length
    return b"".join(out)


def make_inputs():
    gen = CORPUS / "generated"
    for name, options in CJPEG.items():
        (gen / name).write_bytes(run(["cjpeg", *options, SOURCE]))
    (gen / "gen_no_dht_mjpeg.jpg").write_bytes(without_dht((gen / "gen_422.jpg").read_bytes()))
    testorig = (CORPUS / "libjpeg-turbo/testorig.jpg").read_bytes()
    (gen / "gen_no_eoi.jpg").write_bytes(testorig[:-2])
    (gen / "gen_trailing_garbage.jpg").write_bytes(testorig + bytes(range(256)) * 4)
    for v in (3, 6, 8):
        out = gen / f"gen_exif_orientation_{v}.jpg"
        out.unlink(missing_ok=True)
        run(["exiftool", "-q", "-n", f"-Orientation={v}", "-o", str(out), "generated/gen_420.jpg"])
    cmyk = io.BytesIO()
    Image.open(CORPUS / SOURCE).convert("CMYK").save(cmyk, "JPEG", quality=90)
    (gen / "gen_cmyk_pillow.jpg").write_bytes(cmyk.getvalue())
    return len(CJPEG) + 7


def png_bytes(image: Image.Image) -> bytes:
    """An RGB PNG as the committed references were written: Pillow, optimize (zlib level 9)."""
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def main():
    made = make_inputs()
    table = Table(CORPUS / "EXPECTED.tsv")
    problems, refs = [], []
    for row in table:
        decode = subprocess.run(["djpeg", "-pnm", row["file"]], cwd=CORPUS, capture_output=True)
        message = " | ".join(decode.stderr.decode().strip().split("\n"))
        expected, reference = row["expected"], row["reference"]
        quoted = re.search(r"\[djpeg 2\.1\.5: ([^\]]*)\]", row["note"])
        if quoted and quoted.group(1) != message:
            problems.append(f"{row['file']}: djpeg says {message!r}, the note quotes {quoted.group(1)!r}")
        if reference == "-":
            if decode.returncode != 1:
                problems.append(f"{row['file']}: {expected} without a reference, but djpeg decoded it")
            continue
        allowed = {"ok": (0,), "ok-warn": (2,), "ok-or-fail": (0, 2)}.get(expected, ())
        if decode.returncode not in allowed:
            problems.append(f"{row['file']}: {expected}, but djpeg exited {decode.returncode} ({message})")
            continue
        image = Image.open(io.BytesIO(decode.stdout)).convert("RGB")
        (CORPUS / reference).parent.mkdir(parents=True, exist_ok=True)
        (CORPUS / reference).write_bytes(png_bytes(image))
        refs.append(CORPUS / reference)
        row["width"], row["height"] = str(image.width), str(image.height)
        row["sha256_rgba"] = hashlib.sha256(image.convert("RGBA").tobytes()).hexdigest()
    stray = unlisted(CORPUS / "ref", refs)
    problems += [f"{p.relative_to(CORPUS)}: a reference no row of EXPECTED.tsv names" for p in stray]
    if problems:
        raise SystemExit("jpeg references:\n  " + "\n  ".join(problems))
    table.write()
    version = subprocess.run(["djpeg", "-version"], capture_output=True).stderr.decode().split("\n")[0]
    print(f"{version}: remade {made} inputs in generated/, {len(refs)} references in ref/ and "
          f"EXPECTED.tsv's sizes and hashes under {CORPUS.relative_to(ROOT)}/")


if __name__ == "__main__":
    main()
