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

/// As techo_mhd_start, speaking TLS (HTTPS) with the PEM certificate chain `cert` and its PEM
/// private key `key` (both NUL-terminated), which the library copies.
static inline struct MHD_Daemon *techo_mhd_start_tls(unsigned int flags,
                                                     MHD_AccessHandlerCallback handler,
                                                     MHD_RequestCompletedCallback completed,
                                                     MHD_NotifyConnectionCallback notify,
                                                     techo_mhd_unescape_callback unescape, void *cls,
                                                     unsigned int connection_limit, unsigned int timeout_seconds,
                                                     size_t memory_limit, unsigned int per_address,
                                                     const char *cert, const char *key) {
    return MHD_start_daemon(flags | MHD_USE_TLS, 0, NULL, NULL, handler, cls,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, cls,
                            MHD_OPTION_UNESCAPE_CALLBACK, unescape, cls,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address,
                            MHD_OPTION_HTTPS_MEM_CERT, cert,
                            MHD_OPTION_HTTPS_MEM_KEY, key,
                            MHD_OPTION_END);
}

/// Sets one connection's idle timeout, in seconds (MHD_set_connection_option is variadic).
static inline enum MHD_Result techo_mhd_connection_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}
