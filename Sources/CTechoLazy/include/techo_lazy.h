#ifndef TECHO_LAZY_H
#define TECHO_LAZY_H
/*
 * Why this exists: techo's C libraries (librsvg with cairo and GLib, libheif with its codecs,
 * libwebp, libmicrohttpd with GnuTLS, FreeType, HarfBuzz and its subsetter, fontconfig, libcrypto, libpng,
 * libjpeg, libdeflate, libqrencode, libde265) are not linked into techo; each is opened the
 * first time one of its functions is called, so a command that needs none of them (`techo
 * --version`, `techo --help`, most editing commands) does not pay for loading them
 * (docs/decisions/startup.md). This target defines every function of those libraries that
 * techo calls, with the library's own prototype: a trampoline that opens the library (dlopen,
 * once, never closed), finds the function (dlsym) and calls it. Swift keeps calling the
 * functions by their own names.
 *
 * A library that cannot be opened is a broken install (scripts/setup-deps.sh installs them).
 * Callers ask techo_lazy_available first and throw a typed error; a trampoline that still
 * cannot find its library or function ends the process (status 1) with a message naming the
 * library and the Debian package.
 *
 * All this is for Linux (ELF, glibc's loader, Debian sonames). Elsewhere no trampoline is
 * compiled, the libraries are linked as usual, and techo_lazy_available says 1.
 */
#include <stddef.h>

/* The lazily loaded libraries. */
typedef enum {
    TECHO_LAZY_RSVG = 0,     /* librsvg-2.so.2 (librsvg2-2) */
    TECHO_LAZY_CAIRO,        /* libcairo.so.2 (libcairo2) */
    TECHO_LAZY_GOBJECT,      /* libgobject-2.0.so.0 (libglib2.0-0) */
    TECHO_LAZY_GLIB,         /* libglib-2.0.so.0 (libglib2.0-0) */
    TECHO_LAZY_HEIF,         /* libheif.so.1 (libheif1) */
    TECHO_LAZY_WEBP,         /* libwebp.so.7 (libwebp7) */
    TECHO_LAZY_WEBPDEMUX,    /* libwebpdemux.so.2 (libwebpdemux2) */
    TECHO_LAZY_MICROHTTPD,   /* libmicrohttpd.so.12 (libmicrohttpd12) */
    TECHO_LAZY_FREETYPE,     /* libfreetype.so.6 (libfreetype6) */
    TECHO_LAZY_HARFBUZZ,     /* libharfbuzz.so.0 (libharfbuzz0b) */
    TECHO_LAZY_HARFBUZZ_SUBSET, /* libharfbuzz-subset.so.0 (libharfbuzz-subset0) */
    TECHO_LAZY_FONTCONFIG,   /* libfontconfig.so.1 (libfontconfig1) */
    TECHO_LAZY_CRYPTO,       /* libcrypto.so.3 (libssl3) */
    TECHO_LAZY_PNG,          /* libpng16.so.16 (libpng16-16) */
    TECHO_LAZY_JPEG,         /* libjpeg.so.62 (libjpeg62-turbo) */
    TECHO_LAZY_DEFLATE,      /* libdeflate.so.0 (libdeflate0) */
    TECHO_LAZY_QRENCODE,     /* libqrencode.so.4 (libqrencode4) */
    TECHO_LAZY_DE265,        /* libde265.so.0 (libde265-0) */
    TECHO_LAZY_COUNT
} techo_lazy_library;

/* Opens `lib` if it is not open yet. Returns 1 when it is open; otherwise 0 and, when `msg` is
 * not NULL, a NUL-terminated message (library, Debian package, the loader's reason) in it. */
int techo_lazy_available(techo_lazy_library lib, char *msg, size_t msg_cap);

/* The soname `lib` is opened by ("librsvg-2.so.2"); NULL for no such library. Opens nothing. */
const char *techo_lazy_soname(techo_lazy_library lib);

/* Whether `lib` has been opened in this process (for tests; opens nothing). */
int techo_lazy_is_loaded(techo_lazy_library lib);

#endif
