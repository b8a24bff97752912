#ifndef TECHO_LAZY_INTERNAL_H
#define TECHO_LAZY_INTERNAL_H
/* What the generated trampolines share: the resolver, and the macro each one starts with. */
#include "techo_lazy.h"

/* The address of `name` in `lib`, opening `lib` first; on failure prints which library,
 * package and function is missing and ends the process with status 1 (a trampoline cannot
 * return an error the library's API does not have). */
void *techo_lazy_symbol(techo_lazy_library lib, const char *name);

/* Loads the cached pointer `fn`, resolving it on the first call. Two threads resolving at
 * once store the same address, so a plain atomic store is enough. */
#define TECHO_LAZY_RESOLVE(fn, lib, name)                                                   \
    do {                                                                                    \
        if (__builtin_expect(__atomic_load_n(&(fn), __ATOMIC_ACQUIRE) == 0, 0))            \
            __atomic_store_n(&(fn), (__typeof__(fn))techo_lazy_symbol((lib), (name)),      \
                             __ATOMIC_RELEASE);                                             \
    } while (0)

#endif
