#ifndef CHAPTICPOSIX_H
#define CHAPTICPOSIX_H

#include <stddef.h>

/// Opens a new pseudo-terminal master (posix_openpt + grantpt + unlockpt), puts the pair in raw
/// mode and writes the slave's path into `slave_path`. Returns the master fd, or -1 with errno.
int chaptic_open_pty(char *slave_path, size_t capacity);

/// Configures a serial or pty fd: raw 8N1, no flow control, CLOCAL|CREAD, the given baud rate
/// (a standard rate; returns -1 with EINVAL otherwise). Returns 0 or -1 with errno.
int chaptic_configure_serial(int fd, int baud);

/// The output baud rate `fd`'s termios is set to, as a number (a standard rate of
/// chaptic_configure_serial), 0 for any other, or -1 with errno.
int chaptic_get_baud(int fd);

/// Asserts DTR (TIOCMBIS). Returns 0, or -1 with errno (ENOTTY/EINVAL on ptys: callers ignore).
int chaptic_assert_dtr(int fd);

/// Requests exclusive mode (TIOCEXCL). Returns 0 or -1 with errno.
int chaptic_set_exclusive(int fd);

/// Points the symbolic link `link_path` at `target`, replacing an existing link atomically.
int chaptic_replace_symlink(const char *target, const char *link_path);

/// Waits up to `timeout_ns` nanoseconds for `fd` to become readable (ppoll: poll's whole
/// milliseconds cannot wait a fraction of a board's frame), or for `wake_fd` (an eventfd of
/// chaptic_wake_open, or -1 for none) to be signalled. Returns 1 when `fd` is readable (or hung
/// up), 0 on timeout or a wake (`*woken` 1, the eventfd drained), -1 with errno (EINTR on a
/// signal); `revents` gets poll's flags for `fd`.
int chaptic_wait_readable(int fd, int wake_fd, long long timeout_ns, short *revents, int *woken);

/// Waits up to `timeout_ns` nanoseconds for any of `count` descriptors (ppoll over `fds`, each
/// for input), or for `wake_fd` (an eventfd of chaptic_wake_open, drained; `*woken` 1). Writes
/// each descriptor's poll flags into `revents`. Returns how many descriptors are ready (0 on a
/// timeout or a wake alone), -1 with errno (EINTR on a signal). At most 1 024 descriptors.
int chaptic_wait_many(const int *fds, int count, int wake_fd, long long timeout_ns, short *revents, int *woken);

/// A non-blocking, close-on-exec eventfd that chaptic_wake signals; -1 with errno on failure.
int chaptic_wake_open(void);

/// Signals `wake_fd` (a wait on it returns at once, or the next one does).
void chaptic_wake(int wake_fd);

/// Connects a TCP socket to `host`:`port` (a name or an address, IPv4 or IPv6) within
/// `timeout_ms`: non-blocking, close-on-exec, TCP_NODELAY (small frames go at once, not behind
/// Nagle and a delayed ack). Returns the descriptor, or -1 with `*failure` a negative
/// getaddrinfo code (EAI_*, the name did not resolve) or a positive errno (ETIMEDOUT on the
/// timeout, ECONNREFUSED, …).
int chaptic_tcp_connect(const char *host, int port, int timeout_ms, int *failure);

/// The message of a getaddrinfo failure code.
const char *chaptic_gai_message(int code);

/// send(2) without SIGPIPE (a peer that closed gives EPIPE instead of killing the process).
long chaptic_send(int fd, const void *bytes, unsigned long count);

#endif
