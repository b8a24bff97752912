#!/usr/bin/env python3
"""Writes CTechoLazy: the symbol list of each lazily loaded library and its trampolines.

  python3 scripts/lazy-trampolines.py lists        # after a build: refresh symbols/<lib>.txt
  python3 scripts/lazy-trampolines.py trampolines  # from the lists: rewrite trampolines_<lib>.c

Why (docs/decisions/startup.md): techo no longer links the heavy C libraries; every function of
theirs that techo calls is defined by CTechoLazy with the library's own prototype, and opens the
library on first call. `lists` finds those functions: every name that techo's Swift and C code
uses (the undefined symbols of the compiled objects of every target, so it also catches the
`*Internal` functions libwebp's static inline wrappers call, which a grep of the Swift misses;
plus a grep of the sources, for targets not built) that the library exports. Build everything
first (`swift build -c release -Xswiftc -enable-testing --build-tests`, and techo-assets,
techo-bench and techo-fuzz) so every caller is seen. `trampolines` reads each function's
prototype from the library's own header (clang's AST dump), so the generated definitions are
exactly the header's declarations, and the compiler checks them when it builds CTechoLazy.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.path.join(ROOT, "Sources", "CTechoLazy")
LIBDIR = "/usr/lib/x86_64-linux-gnu"

# key (TECHO_LAZY_<KEY> in techo_lazy.h), soname, pkg-config module (for the include paths), headers.
LIBRARIES = [
    ("rsvg", "librsvg-2.so.2", "librsvg-2.0", ["librsvg/rsvg.h"]),
    ("cairo", "libcairo.so.2", "cairo", ["cairo.h", "cairo-pdf.h", "cairo-ft.h"]),
    ("gobject", "libgobject-2.0.so.0", "gobject-2.0", ["glib-object.h"]),
    ("glib", "libglib-2.0.so.0", "glib-2.0", ["glib.h"]),
    ("heif", "libheif.so.1", "libheif", ["libheif/heif.h"]),
    ("webp", "libwebp.so.7", "libwebp", ["webp/decode.h", "webp/encode.h"]),
    ("webpdemux", "libwebpdemux.so.2", "libwebpdemux", ["webp/demux.h"]),
    ("microhttpd", "libmicrohttpd.so.12", "libmicrohttpd", ["stddef.h", "stdint.h", "sys/socket.h", "microhttpd.h"]),
    ("freetype", "libfreetype.so.6", "freetype2", ["ft2build.h", "freetype/freetype.h", "freetype/ftoutln.h", "freetype/ftglyph.h", "freetype/tttables.h"]),
    ("harfbuzz", "libharfbuzz.so.0", "harfbuzz", ["hb.h", "hb-ft.h", "hb-ot.h"]),
    ("harfbuzz_subset", "libharfbuzz-subset.so.0", "harfbuzz-subset", ["hb.h", "hb-subset.h"]),
    ("fontconfig", "libfontconfig.so.1", "fontconfig", ["fontconfig/fontconfig.h"]),
    ("crypto", "libcrypto.so.3", "libcrypto", ["openssl/evp.h"]),
    ("png", "libpng16.so.16", "libpng", ["png.h"]),
    ("jpeg", "libjpeg.so.62", "libjpeg", ["stdio.h", "jpeglib.h"]),
    ("deflate", "libdeflate.so.0", "libdeflate", ["libdeflate.h"]),
    ("qrencode", "libqrencode.so.4", "libqrencode", ["qrencode.h"]),
    ("de265", "libde265.so.0", "libde265", ["libde265/de265.h"]),
]

# Variadic functions cannot be forwarded by a generated trampoline; lazy_variadic.c writes these.
HANDWRITTEN = {"MHD_start_daemon", "MHD_get_daemon_info", "MHD_set_connection_option"}


def run(args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


def exported(soname):
    """Functions the library exports, and its exported data objects."""
    funcs, data = set(), set()
    for line in run(["nm", "-D", "--defined-only", os.path.join(LIBDIR, soname)]).splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        kind, name = parts[1], parts[2].split("@")[0]
        (funcs if kind in "TtWi" else data).add(name)
    return funcs, data


def used_names():
    """Undefined symbols of every compiled object (but CTechoLazy's own), and source identifiers."""
    names, words = set(), set()
    build = os.path.join(ROOT, ".build")
    for dirpath, _, files in os.walk(build):
        if "CTechoLazy.build" in dirpath or "/checkouts" in dirpath:
            continue
        objs = [os.path.join(dirpath, f) for f in files if f.endswith(".o")]
        for i in range(0, len(objs), 200):
            out = run(["nm", "-u", "--format=posix"] + objs[i:i + 200])
            names.update(line.split()[0] for line in out.splitlines() if line.endswith(" U") or " U" in line)
    ident = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
    for top in ("Sources", "Tests"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            if dirpath.startswith(TARGET):
                continue
            for f in files:
                if f.endswith((".swift", ".c", ".h")):
                    with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as fh:
                        words.update(ident.findall(fh.read()))
    return names, words


def write_lists():
    names, words = used_names()
    os.makedirs(os.path.join(TARGET, "symbols"), exist_ok=True)
    taken = set()  # a name two libraries export goes to the first (one definition per name)
    for key, soname, pkg, headers in LIBRARIES:
        funcs, data = exported(soname)
        # A word of the sources counts only when the library's headers declare it as a function
        # (techo's own `SHA256` type is not libcrypto's SHA256).
        protos, inline = prototypes(pkg, headers)
        names |= {w for w in words if w in protos and w not in inline}
        bad = sorted(names & data)
        if bad:
            sys.exit(f"{soname}: techo uses exported data {bad}; a trampoline cannot stand in for data")
        used = sorted((names & funcs) - taken)
        taken.update(used)
        with open(os.path.join(TARGET, "symbols", f"{key}.txt"), "w") as fh:
            fh.write(f"# The functions of {soname} that techo calls (scripts/lazy-trampolines.py lists).\n")
            fh.writelines(n + "\n" for n in used)
        print(f"{key}: {len(used)} functions")


def split_top(s, sep=","):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def prototypes(pkg, headers):
    """name -> (return type, [parameter types], variadic, noreturn), from clang's AST of the headers."""
    cflags = run(["pkg-config", "--cflags", pkg]).split()
    src = "".join(f"#include <{h}>\n" for h in headers)
    dump = run(["clang", "-fsyntax-only", "-w", "-x", "c", "-", "-Xclang", "-ast-dump", "-fno-color-diagnostics"] + cflags, input=src)
    lines = dump.splitlines()
    protos, inline = {}, set()
    decl = re.compile(r"^(\W*)FunctionDecl 0x[0-9a-f]+ (?:parent 0x[0-9a-f]+ )?(?:prev 0x[0-9a-f]+ )?<.*?> \S+(?: [a-z]+)* ([A-Za-z_]\w*) '([^']*)'")
    for i, line in enumerate(lines):
        m = decl.match(line)
        if not m:
            continue
        depth, name, ftype = len(m.group(1)), m.group(2), m.group(3)
        # A body (CompoundStmt child) means a static inline function of the header, not a symbol.
        j = i + 1
        while j < len(lines) and len(re.match(r"^\W*", lines[j]).group(0)) > depth:
            if re.match(r"^\W*CompoundStmt", lines[j]) and len(re.match(r"^\W*", lines[j]).group(0)) == depth + 2:
                inline.add(name)
            j += 1
        if name in protos:
            continue
        # 'RET (P1, P2)': the parameter list is the last parenthesised group. (A function
        # declared through a typedef of its type has no such group; none of those is used.)
        noreturn = ftype.endswith("__attribute__((noreturn))")
        if noreturn:
            ftype = ftype[: -len("__attribute__((noreturn))")].strip()
        if not ftype.endswith(")"):
            continue
        level, k = 0, len(ftype) - 1
        while k >= 0:
            level += {")": 1, "(": -1}.get(ftype[k], 0)
            if level == 0:
                break
            k -= 1
        ret, params = ftype[:k].strip(), split_top(ftype[k + 1:-1])
        variadic = bool(params) and params[-1] == "..."
        if variadic:
            params = params[:-1]
        if params == ["void"]:
            params = []
        protos[name] = (ret, params, variadic, noreturn)
    return protos, inline


def declare(ptype, pname):
    if "(*)" in ptype:
        return ptype.replace("(*)", f"(*{pname})", 1)
    m = re.match(r"^(.*?)\s*(\[.*\])$", ptype)
    if m:
        return f"{m.group(1)} {pname}{m.group(2)}"
    return f"{ptype}{pname}" if ptype.endswith("*") else f"{ptype} {pname}"


def write_trampolines():
    for key, soname, pkg, headers in LIBRARIES:
        with open(os.path.join(TARGET, "symbols", f"{key}.txt")) as fh:
            names = [l.strip() for l in fh if l.strip() and not l.startswith("#")]
        protos, inline = prototypes(pkg, headers)
        enum = "TECHO_LAZY_" + key.upper()
        out = [
            f"/* The functions of {soname} techo calls, each opening the library on first call.",
            f" * Generated by scripts/lazy-trampolines.py from symbols/{key}.txt; do not edit. The",
            " * library's own header is included, so the compiler checks every definition against it. */",
            "#include \"lazy_internal.h\"",
        ]
        out += [f"#include <{h}>" for h in headers]
        # Elsewhere than Linux the libraries stay linked (lazy.c), so no trampoline is compiled.
        out += ["", "#if defined(__linux__)", "#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"", ""]
        for name in names:
            if name in HANDWRITTEN:
                continue
            if name not in protos:
                sys.exit(f"{key}: no declaration of {name} in {headers}")
            if name in inline:
                sys.exit(f"{key}: {name} is inline in {headers}")
            ret, params, variadic, noreturn = protos[name]
            if variadic:
                sys.exit(f"{key}: {name} is variadic: write it in lazy_variadic.c and add it to HANDWRITTEN")
            args = [f"a{i}" for i in range(len(params))]
            plist = ", ".join(declare(p, a) for p, a in zip(params, args)) or "void"
            head = f"{ret} {name}({plist})" if not ret.endswith("*") else f"{ret}{name}({plist})"
            call = f"fn({', '.join(args)});"
            if noreturn:  # png_error: the library longjmps out, or aborts
                head, call = "__attribute__((noreturn)) " + head, call + "\n    __builtin_unreachable();"
            out += [
                f"{head} {{",
                f"    static __typeof__(&{name}) fn;",
                f"    TECHO_LAZY_RESOLVE(fn, {enum}, \"{name}\");",
                f"    {call if ret == 'void' else 'return ' + call}",
                "}",
                "",
            ]
        out += ["#endif", ""]
        with open(os.path.join(TARGET, f"trampolines_{key}.c"), "w") as fh:
            fh.write("\n".join(out))
        print(f"trampolines_{key}.c: {len([n for n in names if n not in HANDWRITTEN])} functions")


if __name__ == "__main__":
    if sys.argv[1:] == ["lists"]:
        write_lists()
    elif sys.argv[1:] == ["trampolines"]:
        write_trampolines()
    else:
        sys.exit(__doc__)
