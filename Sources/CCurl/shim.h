// Typed wrappers for libcurl's variadic functions, which Swift cannot call.
// One wrapper per argument type; no logic lives here.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <curl/curl.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/ip.h>

// MARK: curl_easy_setopt

static inline CURLcode ccurl_easy_setopt_long(CURL *_Nonnull h, CURLoption o, long v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode ccurl_easy_setopt_off_t(CURL *_Nonnull h, CURLoption o, curl_off_t v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode ccurl_easy_setopt_string(CURL *_Nonnull h, CURLoption o, const char *_Nullable v) {
    return curl_easy_setopt(h, o, v);
}
/* A blob option (CURLOPT_SSLCERT_BLOB, CURLOPT_SSLKEY_BLOB, ...): libcurl copies the bytes now. */
static inline CURLcode ccurl_easy_setopt_blob(CURL *_Nonnull h, CURLoption o, const void *_Nullable data, size_t length) {
    struct curl_blob blob = { (void *)data, length, CURL_BLOB_COPY };
    return curl_easy_setopt(h, o, &blob);
}
static inline CURLcode ccurl_easy_setopt_pointer(CURL *_Nonnull h, CURLoption o, void *_Nullable v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode ccurl_easy_setopt_slist(CURL *_Nonnull h, CURLoption o, struct curl_slist *_Nullable v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode ccurl_easy_setopt_share(CURL *_Nonnull h, CURLSH *_Nullable v) {
    return curl_easy_setopt(h, CURLOPT_SHARE, v);
}
static inline CURLcode ccurl_easy_setopt_write_function(CURL *_Nonnull h, curl_write_callback _Nullable f) {
    return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f);
}
static inline CURLcode ccurl_easy_setopt_header_function(CURL *_Nonnull h, curl_write_callback _Nullable f) {
    return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, f);
}
static inline CURLcode ccurl_easy_setopt_read_function(CURL *_Nonnull h, curl_read_callback _Nullable f) {
    return curl_easy_setopt(h, CURLOPT_READFUNCTION, f);
}
static inline CURLcode ccurl_easy_setopt_seek_function(CURL *_Nonnull h, curl_seek_callback _Nullable f) {
    return curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, f);
}
static inline CURLcode ccurl_easy_setopt_xferinfo_function(CURL *_Nonnull h, curl_xferinfo_callback _Nullable f) {
    return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f);
}
static inline CURLcode ccurl_easy_setopt_opensocket_function(CURL *_Nonnull h, curl_opensocket_callback _Nullable f) {
    return curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, f);
}
static inline CURLcode ccurl_easy_setopt_closesocket_function(CURL *_Nonnull h, curl_closesocket_callback _Nullable f) {
    return curl_easy_setopt(h, CURLOPT_CLOSESOCKETFUNCTION, f);
}
static inline CURLcode ccurl_easy_setopt_sockopt_function(CURL *_Nonnull h, curl_sockopt_callback _Nullable f) {
    return curl_easy_setopt(h, CURLOPT_SOCKOPTFUNCTION, f);
}
static inline CURLcode ccurl_easy_setopt_debug_function(CURL *_Nonnull h, curl_debug_callback _Nullable f) {
    return curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, f);
}
static inline CURLcode ccurl_easy_setopt_prereq_function(CURL *_Nonnull h, curl_prereq_callback _Nullable f) {
    return curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, f);
}

// MARK: curl_easy_getinfo

static inline CURLcode ccurl_easy_getinfo_long(CURL *_Nonnull h, CURLINFO i, long *_Nonnull v) {
    return curl_easy_getinfo(h, i, v);
}
static inline CURLcode ccurl_easy_getinfo_off_t(CURL *_Nonnull h, CURLINFO i, curl_off_t *_Nonnull v) {
    return curl_easy_getinfo(h, i, v);
}
static inline CURLcode ccurl_easy_getinfo_double(CURL *_Nonnull h, CURLINFO i, double *_Nonnull v) {
    return curl_easy_getinfo(h, i, v);
}
static inline CURLcode ccurl_easy_getinfo_string(CURL *_Nonnull h, CURLINFO i, const char *_Nullable *_Nonnull v) {
    return curl_easy_getinfo(h, i, v);
}
static inline CURLcode ccurl_easy_getinfo_pointer(CURL *_Nonnull h, CURLINFO i, void *_Nullable *_Nonnull v) {
    return curl_easy_getinfo(h, i, v);
}
static inline CURLcode ccurl_easy_getinfo_socket(CURL *_Nonnull h, CURLINFO i, curl_socket_t *_Nonnull v) {
    return curl_easy_getinfo(h, i, v);
}

// MARK: curl_multi_setopt / curl_share_setopt

static inline CURLMcode ccurl_multi_setopt_long(CURLM *_Nonnull m, CURLMoption o, long v) {
    return curl_multi_setopt(m, o, v);
}
static inline CURLSHcode ccurl_share_setopt_long(CURLSH *_Nonnull s, CURLSHoption o, long v) {
    return curl_share_setopt(s, o, v);
}
static inline CURLSHcode ccurl_share_setopt_lock_function(CURLSH *_Nonnull s, curl_lock_function _Nullable f) {
    return curl_share_setopt(s, CURLSHOPT_LOCKFUNC, f);
}
static inline CURLSHcode ccurl_share_setopt_unlock_function(CURLSH *_Nonnull s, curl_unlock_function _Nullable f) {
    return curl_share_setopt(s, CURLSHOPT_UNLOCKFUNC, f);
}
static inline CURLSHcode ccurl_share_setopt_pointer(CURLSH *_Nonnull s, CURLSHoption o, void *_Nullable v) {
    return curl_share_setopt(s, o, v);
}

// MARK: values defined as macros

static inline curl_socket_t ccurl_socket_bad(void) { return CURL_SOCKET_BAD; }
static inline size_t ccurl_write_func_pause(void) { return CURL_WRITEFUNC_PAUSE; }
static inline size_t ccurl_read_func_abort(void) { return CURL_READFUNC_ABORT; }
static inline size_t ccurl_read_func_pause(void) { return CURL_READFUNC_PAUSE; }
static inline int ccurl_prereq_func_ok(void) { return CURL_PREREQFUNC_OK; }
static inline int ccurl_prereq_func_abort(void) { return CURL_PREREQFUNC_ABORT; }

#endif
