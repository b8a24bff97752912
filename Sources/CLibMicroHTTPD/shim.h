// GNU libmicrohttpd, and the two calls Swift cannot make itself: MHD_start_daemon and
// MHD_get_daemon_info are C variadic functions, which Swift does not import. These inline
// wrappers pass fixed arguments through; they hold no logic.
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// The form of MHD_OPTION_UNESCAPE_CALLBACK's function (the header names no type for it).
typedef size_t (*techo_mhd_unescape_callback)(void *cls, struct MHD_Connection *connection, char *s);

/// Starts a daemon bound to `addr` with the options techo serve uses; NULL on failure.
static inline struct MHD_Daemon *techo_mhd_start(unsigned int flags, const struct sockaddr *addr,
                                                 MHD_AccessHandlerCallback handler,
                                                 MHD_RequestCompletedCallback completed,
                                                 techo_mhd_unescape_callback unescape, void *cls,
                                                 unsigned int connection_limit, unsigned int timeout_seconds,
                                                 size_t memory_limit) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, cls,
                            MHD_OPTION_SOCK_ADDR, addr,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_UNESCAPE_CALLBACK, unescape, cls,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_END);
}

/// The port a daemon listens on (the one the kernel chose for port 0); 0 when unknown.
static inline uint16_t techo_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
