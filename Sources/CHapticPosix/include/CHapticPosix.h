#ifndef CHAPTICPOSIX_H
#define CHAPTICPOSIX_H

#include <stddef.h>

/// Opens a new pseudo-terminal master (posix_openpt + grantpt + unlockpt), puts the pair in raw
/// mode and writes the slave's path into `slave_path`. Returns the master fd, or -1 with errno.
int chaptic_open_pty(char *slave_path, size_t capacity);

/// Configures a serial or pty fd: raw 8N1, no flow control, CLOCAL|CREAD, the given baud rate
/// (a standard rate; returns -1 with EINVAL otherwise). Returns 0 or -1 with errno.
int chaptic_configure_serial(int fd, int baud);

/// Asserts DTR (TIOCMBIS). Returns 0, or -1 with errno (ENOTTY/EINVAL on ptys: callers ignore).
int chaptic_assert_dtr(int fd);

/// Requests exclusive mode (TIOCEXCL). Returns 0 or -1 with errno.
int chaptic_set_exclusive(int fd);

/// Points the symbolic link `link_path` at `target`, replacing an existing link atomically.
int chaptic_replace_symlink(const char *target, const char *link_path);

/// Waits up to `timeout_ns` nanoseconds for `fd` to become readable (ppoll: poll's whole
/// milliseconds cannot wait a fraction of a board's frame). Returns 1 when readable (or hung
/// up), 0 on timeout, -1 with errno (EINTR on a signal); `revents` gets poll's flags.
int chaptic_wait_readable(int fd, long long timeout_ns, short *revents);

#endif
