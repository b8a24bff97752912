// GNU libmicrohttpd, and the call Swift cannot make itself: MHD_start_daemon is a C variadic
// function, which Swift does not import. This inline wrapper passes fixed arguments through;
// it holds no logic.
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// The form of MHD_OPTION_UNESCAPE_CALLBACK's function (the header names no type for it).
typedef size_t (*techo_mhd_unescape_callback)(void *cls, struct MHD_Connection *connection, char *s);

/// Starts a daemon with the options techo serve uses; NULL on failure. It has no listening
/// socket of its own (MHD_USE_NO_LISTEN_SOCKET among `flags`): connections come to it through
/// MHD_add_connection once their heads have been read.
static inline struct MHD_Daemon *techo_mhd_start(unsigned int flags,
                                                 MHD_AccessHandlerCallback handler,
                                                 MHD_RequestCompletedCallback completed,
                                                 MHD_NotifyConnectionCallback notify,
                                                 techo_mhd_unescape_callback unescape, void *cls,
                                                 unsigned int connection_limit, unsigned int timeout_seconds,
                                                 size_t memory_limit) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, cls,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, cls,
                            MHD_OPTION_UNESCAPE_CALLBACK, unescape, cls,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_END);
}
