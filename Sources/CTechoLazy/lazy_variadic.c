/* The variadic functions of the lazy libraries techo calls, written by hand: a generated
 * trampoline cannot pass "..." on, so each goes to the library's va_list form or takes only
 * the arguments techo passes. */
#include "lazy_internal.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

#if defined(__linux__)

/* libmicrohttpd's own va_list form takes the option list as it is. */
struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
                                    MHD_AccessHandlerCallback dh, void *dh_cls, ...) {
    static __typeof__(&MHD_start_daemon_va) fn;
    TECHO_LAZY_RESOLVE(fn, TECHO_LAZY_MICROHTTPD, "MHD_start_daemon_va");
    va_list ap;
    va_start(ap, dh_cls);
    struct MHD_Daemon *daemon = fn(flags, port, apc, apc_cls, dh, dh_cls, ap);
    va_end(ap);
    return daemon;
}

/* techo passes one option only, MHD_CONNECTION_OPTION_TIMEOUT with its unsigned int seconds. */
enum MHD_Result MHD_set_connection_option(struct MHD_Connection *connection, enum MHD_CONNECTION_OPTION option, ...) {
    static __typeof__(&MHD_set_connection_option) fn;
    TECHO_LAZY_RESOLVE(fn, TECHO_LAZY_MICROHTTPD, "MHD_set_connection_option");
    if (option != MHD_CONNECTION_OPTION_TIMEOUT) return MHD_NO;
    va_list ap;
    va_start(ap, option);
    unsigned int seconds = va_arg(ap, unsigned int);
    va_end(ap);
    return fn(connection, option, seconds);
}
#endif
