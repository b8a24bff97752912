/* Opening the lazily loaded libraries: once each, under one lock, never closed (GLib-based
 * libraries register types and threads that must not be unloaded). */
#define _GNU_SOURCE /* for PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#include "lazy_internal.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    const char *soname;
    const char *package;   /* the Debian package that ships it */
    void *handle;          /* set once, read without the lock */
    int failed;
    char error[384];
} library;

static library libraries[TECHO_LAZY_COUNT] = {
    [TECHO_LAZY_RSVG] = {.soname = "librsvg-2.so.2", .package = "librsvg2-2"},
    [TECHO_LAZY_CAIRO] = {.soname = "libcairo.so.2", .package = "libcairo2"},
    [TECHO_LAZY_GOBJECT] = {.soname = "libgobject-2.0.so.0", .package = "libglib2.0-0"},
    [TECHO_LAZY_GLIB] = {.soname = "libglib-2.0.so.0", .package = "libglib2.0-0"},
    [TECHO_LAZY_HEIF] = {.soname = "libheif.so.1", .package = "libheif1"},
    [TECHO_LAZY_WEBP] = {.soname = "libwebp.so.7", .package = "libwebp7"},
    [TECHO_LAZY_WEBPDEMUX] = {.soname = "libwebpdemux.so.2", .package = "libwebpdemux2"},
    [TECHO_LAZY_MICROHTTPD] = {.soname = "libmicrohttpd.so.12", .package = "libmicrohttpd12"},
    [TECHO_LAZY_FREETYPE] = {.soname = "libfreetype.so.6", .package = "libfreetype6"},
    [TECHO_LAZY_HARFBUZZ] = {.soname = "libharfbuzz.so.0", .package = "libharfbuzz0b"},
    [TECHO_LAZY_HARFBUZZ_SUBSET] = {.soname = "libharfbuzz-subset.so.0", .package = "libharfbuzz-subset0"},
    [TECHO_LAZY_FONTCONFIG] = {.soname = "libfontconfig.so.1", .package = "libfontconfig1"},
    [TECHO_LAZY_CRYPTO] = {.soname = "libcrypto.so.3", .package = "libssl3"},
    [TECHO_LAZY_PNG] = {.soname = "libpng16.so.16", .package = "libpng16-16"},
    [TECHO_LAZY_JPEG] = {.soname = "libjpeg.so.62", .package = "libjpeg62-turbo"},
    [TECHO_LAZY_DEFLATE] = {.soname = "libdeflate.so.0", .package = "libdeflate0"},
    [TECHO_LAZY_QRENCODE] = {.soname = "libqrencode.so.4", .package = "libqrencode4"},
    [TECHO_LAZY_DE265] = {.soname = "libde265.so.0", .package = "libde265-0"},
};

/* Recursive, because a library's constructors may call into another lazy library. */
static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

/* TECHO_LAZY_REFUSE=SONAME makes that library fail to open, as on an install that lacks it, so
 * the tests can check what a user would then see (StartupTests). */
static int refused(const char *soname) {
    const char *r = getenv("TECHO_LAZY_REFUSE");
    return r && strcmp(r, soname) == 0;
}

static void *open_library(techo_lazy_library lib) {
    library *l = &libraries[lib];
    void *h = __atomic_load_n(&l->handle, __ATOMIC_ACQUIRE);
    if (h) return h;
    pthread_mutex_lock(&lock);
    if (!l->handle && !l->failed) {
        h = refused(l->soname) ? NULL : dlopen(l->soname, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
        if (h) {
            __atomic_store_n(&l->handle, h, __ATOMIC_RELEASE);
        } else {
            const char *why = refused(l->soname) ? "refused (TECHO_LAZY_REFUSE)" : dlerror();
            snprintf(l->error, sizeof l->error,
                     "cannot load %s (Debian package %s; scripts/setup-deps.sh installs it, so the install is broken): %s",
                     l->soname, l->package, why ? why : "unknown error");
            l->failed = 1;
        }
    }
    h = l->handle;
    pthread_mutex_unlock(&lock);
    return h;
}

int techo_lazy_available(techo_lazy_library lib, char *msg, size_t msg_cap) {
    if ((unsigned)lib >= TECHO_LAZY_COUNT) {
        if (msg && msg_cap) snprintf(msg, msg_cap, "no lazily loaded library %d", (int)lib);
        return 0;
    }
    if (open_library(lib)) return 1;
    if (msg && msg_cap) snprintf(msg, msg_cap, "%s", libraries[lib].error);
    return 0;
}

const char *techo_lazy_soname(techo_lazy_library lib) {
    return (unsigned)lib < TECHO_LAZY_COUNT ? libraries[lib].soname : NULL;
}

int techo_lazy_is_loaded(techo_lazy_library lib) {
    return (unsigned)lib < TECHO_LAZY_COUNT && __atomic_load_n(&libraries[lib].handle, __ATOMIC_ACQUIRE) != NULL;
}

/* Ends the process with exit status 1 (techo's "the command failed"). Not abort(): the crash
 * report that would follow buries the one line that says what to install. _exit, because other
 * threads are running and this is no orderly exit; it is as if the command were killed, which
 * every journal change survives (docs/limits.md). */
static _Noreturn void stop(void) {
    fflush(stderr);
    _exit(1);
}

void *techo_lazy_symbol(techo_lazy_library lib, const char *name) {
    void *h = open_library(lib);
    if (!h) {
        fprintf(stderr, "techo: %s (needed for %s)\n", libraries[lib].error, name);
        stop();
    }
    void *fn = dlsym(h, name);
    if (!fn) {
        fprintf(stderr, "techo: %s has no function %s (Debian package %s is older or newer than techo was built for)\n",
                libraries[lib].soname, name, libraries[lib].package);
        stop();
    }
    return fn;
}

/* The link keeps the libraries' -l flags (SwiftPM adds `pkg-config --libs` for every system
 * library target, and there is no way to take only the headers), but since every function techo
 * calls is defined here, nothing references the libraries themselves, and with --as-needed the
 * linker records none of them as needed. The flag must come before those -l flags; flags a
 * target gives in linkerSettings come after them, but the autolink entries of the objects (what
 * `link` in a module map becomes, read from this section by swift-autolink-extract) come
 * before. So the flag is one such entry. */
__attribute__((used, section(".swift1_autolink_entries"))) static const char techo_lazy_link_as_needed[] = "-Wl,--as-needed";

#else
/* Elsewhere the libraries are linked as before: the autolink entry above is ELF-only, so nothing
 * drops pkg-config's -l flags, and no trampoline is compiled. */
#include <stdio.h>

int techo_lazy_available(techo_lazy_library lib, char *msg, size_t msg_cap) {
    if ((unsigned)lib < TECHO_LAZY_COUNT) return 1;
    if (msg && msg_cap) snprintf(msg, msg_cap, "no lazily loaded library %d", (int)lib);
    return 0;
}

const char *techo_lazy_soname(techo_lazy_library lib) { return (unsigned)lib < TECHO_LAZY_COUNT ? "" : NULL; }

int techo_lazy_is_loaded(techo_lazy_library lib) { return (unsigned)lib < TECHO_LAZY_COUNT; }
#endif
