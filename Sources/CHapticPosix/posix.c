#define _GNU_SOURCE
#include "CHapticPosix.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static speed_t chaptic_speed(int baud) {
  switch (baud) {
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 500000: return B500000;
    case 576000: return B576000;
    case 921600: return B921600;
    case 1000000: return B1000000;
    case 1500000: return B1500000;
    case 2000000: return B2000000;
    default: return 0;
  }
}

int chaptic_get_baud(int fd) {
  struct termios tio;
  if (tcgetattr(fd, &tio) != 0) return -1;
  speed_t speed = cfgetospeed(&tio);
  static const int rates[] = {9600, 19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000, 921600, 1000000, 1500000, 2000000};
  for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
    if (chaptic_speed(rates[i]) == speed) return rates[i];
  }
  return 0;
}

int chaptic_configure_serial(int fd, int baud) {
  speed_t speed = chaptic_speed(baud);
  if (speed == 0) { errno = EINVAL; return -1; }
  struct termios tio;
  if (tcgetattr(fd, &tio) != 0) return -1;
  cfmakeraw(&tio);
  tio.c_cflag &= ~(CSTOPB | PARENB | CRTSCTS | CSIZE);
  tio.c_cflag |= CS8 | CLOCAL | CREAD;
  tio.c_iflag &= ~(IXON | IXOFF | IXANY);
  tio.c_cc[VMIN] = 0;
  tio.c_cc[VTIME] = 0;
  if (cfsetispeed(&tio, speed) != 0 || cfsetospeed(&tio, speed) != 0) return -1;
  return tcsetattr(fd, TCSANOW, &tio);
}

int chaptic_open_pty(char *slave_path, size_t capacity) {
  int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master < 0) return -1;
  if (grantpt(master) != 0 || unlockpt(master) != 0) { int e = errno; close(master); errno = e; return -1; }
  if (ptsname_r(master, slave_path, capacity) != 0) { int e = errno; close(master); errno = e; return -1; }
  struct termios tio;
  if (tcgetattr(master, &tio) == 0) {
    cfmakeraw(&tio);
    tcsetattr(master, TCSANOW, &tio);
  }
  return master;
}

int chaptic_assert_dtr(int fd) {
  int bits = TIOCM_DTR;
  return ioctl(fd, TIOCMBIS, &bits);
}

int chaptic_set_exclusive(int fd) {
  return ioctl(fd, TIOCEXCL);
}

int chaptic_replace_symlink(const char *target, const char *link_path) {
  char temporary[4096];
  if (snprintf(temporary, sizeof temporary, "%s.tmp%d", link_path, (int)getpid()) >= (int)sizeof temporary) {
    errno = ENAMETOOLONG;
    return -1;
  }
  unlink(temporary);
  if (symlink(target, temporary) != 0) return -1;
  if (rename(temporary, link_path) != 0) { int e = errno; unlink(temporary); errno = e; return -1; }
  return 0;
}

int chaptic_wait_readable(int fd, int wake_fd, long long timeout_ns, short *revents, int *woken) {
  struct pollfd entries[2] = {{.fd = fd, .events = POLLIN, .revents = 0}, {.fd = wake_fd, .events = POLLIN, .revents = 0}};
  if (timeout_ns < 0) timeout_ns = 0;
  struct timespec wait = {.tv_sec = (time_t)(timeout_ns / 1000000000LL), .tv_nsec = (long)(timeout_ns % 1000000000LL)};
  int ready = ppoll(entries, wake_fd >= 0 ? 2 : 1, &wait, NULL);
  *revents = entries[0].revents;
  *woken = 0;
  if (ready > 0 && wake_fd >= 0 && (entries[1].revents & POLLIN)) {
    uint64_t count;
    while (read(wake_fd, &count, sizeof count) > 0) {
    }
    *woken = 1;
    ready -= 1;
  }
  return ready > 0 ? 1 : ready;
}

int chaptic_wait_many(const int *fds, int count, int wake_fd, long long timeout_ns, short *revents, int *woken) {
  struct pollfd entries[1025];
  if (count < 0 || count > 1024) {
    errno = EINVAL;
    return -1;
  }
  for (int i = 0; i < count; i++) entries[i] = (struct pollfd){.fd = fds[i], .events = POLLIN, .revents = 0};
  entries[count] = (struct pollfd){.fd = wake_fd, .events = POLLIN, .revents = 0};
  if (timeout_ns < 0) timeout_ns = 0;
  struct timespec wait = {.tv_sec = (time_t)(timeout_ns / 1000000000LL), .tv_nsec = (long)(timeout_ns % 1000000000LL)};
  int ready = ppoll(entries, (nfds_t)count + (wake_fd >= 0 ? 1 : 0), &wait, NULL);
  *woken = 0;
  if (ready < 0) return -1;
  for (int i = 0; i < count; i++) revents[i] = entries[i].revents;
  if (ready > 0 && wake_fd >= 0 && (entries[count].revents & POLLIN)) {
    uint64_t drained;
    while (read(wake_fd, &drained, sizeof drained) > 0) {
    }
    *woken = 1;
    ready -= 1;
  }
  return ready;
}

int chaptic_wake_open(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

void chaptic_wake(int wake_fd) {
  uint64_t one = 1;
  ssize_t written = write(wake_fd, &one, sizeof one);
  (void)written; /* EAGAIN: the counter is full, a wake is pending anyway */
}

int chaptic_tcp_connect(const char *host, int port, int timeout_ms, int *failure) {
  char service[16];
  snprintf(service, sizeof service, "%d", port);
  struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *found = NULL;
  int code = getaddrinfo(host, service, &hints, &found);
  if (code != 0) {
    *failure = code < 0 ? code : -code;
    return -1;
  }
  int last = ECONNREFUSED;
  for (struct addrinfo *a = found; a; a = a->ai_next) {
    int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      last = errno;
      continue;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
      freeaddrinfo(found);
      return fd;
    }
    if (errno == EINPROGRESS) {
      struct pollfd entry = {.fd = fd, .events = POLLOUT, .revents = 0};
      int ready = poll(&entry, 1, timeout_ms);
      int error = 0;
      socklen_t length = sizeof error;
      if (ready == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0) {
        freeaddrinfo(found);
        return fd;
      }
      last = ready == 0 ? ETIMEDOUT : (error != 0 ? error : errno);
    } else {
      last = errno;
    }
    close(fd);
  }
  freeaddrinfo(found);
  *failure = last;
  return -1;
}

const char *chaptic_gai_message(int code) { return gai_strerror(code); }

long chaptic_send(int fd, const void *bytes, unsigned long count) { return (long)send(fd, bytes, count, MSG_NOSIGNAL); }
