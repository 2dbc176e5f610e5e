// Typed wrappers for libmicrohttpd's variadic functions, which Swift cannot call.
// Options are passed as fixed arguments; no logic lives here.
#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Wraps `MHD_start_daemon` with the options urlsessiond sets.
static inline struct MHD_Daemon *_Nullable cmhd_start_daemon(
    unsigned int flags,
    const struct sockaddr *_Nullable bind_address,
    MHD_AccessHandlerCallback _Nonnull handler, void *_Nullable handler_cls,
    MHD_RequestCompletedCallback _Nonnull completed, void *_Nullable completed_cls,
    MHD_NotifyConnectionCallback _Nonnull notify_connection, void *_Nullable notify_connection_cls,
    unsigned int thread_pool_size,
    unsigned int connection_limit,
    unsigned int per_ip_connection_limit,
    unsigned int connection_timeout_seconds,
    size_t connection_memory_limit,
    unsigned int listen_backlog)
{
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls,
        MHD_OPTION_SOCK_ADDR, bind_address,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
        MHD_OPTION_NOTIFY_CONNECTION, notify_connection, notify_connection_cls,
        MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, listen_backlog,
        MHD_OPTION_END);
}

/// Wraps `MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT)`.
static inline uint16_t cmhd_daemon_bound_port(struct MHD_Daemon *_Nonnull daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// Wraps `MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS)`.
static inline const struct sockaddr *_Nullable cmhd_connection_client_address(struct MHD_Connection *_Nonnull c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// Wraps `MHD_create_response_from_callback` with `MHD_SIZE_UNKNOWN` (a macro Swift does not import):
/// a body of unknown length, sent chunked, pulled from `reader` until it returns
/// `MHD_CONTENT_READER_END_OF_STREAM`.
static inline struct MHD_Response *_Nullable cmhd_create_stream_response(
    size_t block_size, MHD_ContentReaderCallback _Nonnull reader, void *_Nullable reader_cls,
    MHD_ContentReaderFreeCallback _Nonnull free_reader_cls)
{
    return MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, block_size, reader, reader_cls, free_reader_cls);
}

/// Wraps `MHD_create_response_from_callback` for a body of `size` bytes known in advance (sent with
/// Content-Length, not chunked): the reader may still park the connection and answer 0 while it waits.
static inline struct MHD_Response *_Nullable cmhd_create_sized_stream_response(
    uint64_t size, size_t block_size, MHD_ContentReaderCallback _Nonnull reader, void *_Nullable reader_cls,
    MHD_ContentReaderFreeCallback _Nonnull free_reader_cls)
{
    return MHD_create_response_from_callback(size, block_size, reader, reader_cls, free_reader_cls);
}

/// Wraps `MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD)`; -1 when unknown.
static inline int cmhd_connection_socket(struct MHD_Connection *_Nonnull c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// Wraps `MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE)`: the application is done with an upgraded
/// connection's socket, which MHD then closes (on its own thread).
static inline enum MHD_Result cmhd_upgrade_close(struct MHD_UpgradeResponseHandle *_Nonnull urh) {
    return MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE);
}

#endif
