// Linux calls that Swift's Glibc module does not show: glibc declares them only under _GNU_SOURCE,
// which that module is built without. Declarations only; no logic lives here.
#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H

#include <pthread.h>
#include <stdint.h>

/* sync_file_range(2): start (or wait for) the writeback of a file's byte range. */
int sync_file_range(int fd, int64_t offset, int64_t nbytes, unsigned int flags);
static const unsigned int CLINUX_SYNC_FILE_RANGE_WRITE = 2;

/* pthread_setname_np(3): the name the kernel shows for a thread (at most 15 bytes; ERANGE beyond). */
int pthread_setname_np(pthread_t thread, const char *name);

#endif
