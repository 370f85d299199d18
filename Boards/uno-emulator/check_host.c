/*
 * check_host.c — the host side used by check_emu.c: a reliable-link client over the pty
 * (SYN, sequence numbers, acknowledgements), clock sync against the board clock, the trace
 * reader, a segment-batch builder, and starting/stopping the emulator.
 */
#define _GNU_SOURCE
#include "check_host.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

int failures;
int fd = -1;
bool auto_ack = true;
double last_write_us;
char trace_path[4096];

double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* ---- The host side of the link ---- */

static uint8_t host_seq;
static bool host_started;
static bool following;
static uint8_t board_session, board_expected;
static cobs_decoder_t decoder;
static uint8_t decoder_raw[FRAME_MAX_RAW];

void write_all(const uint8_t *bytes, size_t count) {
  while (count > 0) {
    ssize_t n = write(fd, bytes, count);
    if (n < 0 && errno == EAGAIN) continue;
    if (n <= 0) return;
    bytes += n;
    count -= (size_t)n;
  }
  last_write_us = now_us();
}

size_t encode_message(uint8_t type, const uint8_t *payload, uint8_t length, uint8_t *wire, uint8_t *seq) {
  if (seq) *seq = host_seq;
  frame_t f = {PROTOCOL_VERSION, FLAG_RELIABLE, 0x5A, host_seq++, 0, type, length, payload};
  if (!host_started) {
    f.flags |= FLAG_SYN;
    host_started = true;
  }
  if (following) {
    f.flags |= FLAG_ACK_VALID;
    f.ack = board_expected;
  }
  return frame_encode(&f, wire);
}

void send_message(uint8_t type, const uint8_t *payload, uint8_t length) {
  uint8_t wire[FRAME_MAX_ENCODED + 1];
  write_all(wire, encode_message(type, payload, length, wire, NULL));
}

void send_ack(void) {
  frame_t f = {PROTOCOL_VERSION, FLAG_ACK_VALID, 0x5A, 0, board_expected, MSG_ACK, 0, NULL};
  uint8_t wire[32];
  write_all(wire, frame_encode(&f, wire));
}

/* Reads frames for up to `timeout_ms` or until one of `type` arrives (type < 0: the whole
 * time). New in-order reliable frames are acknowledged; duplicates are dropped. */
int receive(rx_frame_t *out, int max, int type, int timeout_ms) {
  int count = 0;
  double end = now_us() + timeout_ms * 1000.0;
  for (bool first = true; count < max; first = false) {
    int left = (int)((end - now_us()) / 1000.0);
    if (left < 0 && !first) break;
    if (left < 0) left = 0; /* timeout 0: what has arrived, one look */
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, left) <= 0) {
      if (timeout_ms == 0) break;
      continue;
    }
    uint8_t bytes[512];
    ssize_t n = read(fd, bytes, sizeof bytes);
    double t = now_us();
    bool new_reliable = false, found = false;
    for (ssize_t i = 0; i < n; i++) {
      if (cobs_decoder_feed(&decoder, bytes[i]) != COBS_FRAME) continue;
      frame_t f;
      if (!frame_parse(decoder_raw, decoder.length, &f)) continue;
      if (f.flags & FLAG_RELIABLE) {
        if ((f.flags & FLAG_SYN) && (!following || f.session != board_session)) {
          following = true;
          board_session = f.session;
          board_expected = f.seq;
        }
        if (!following || f.seq != board_expected) continue; /* duplicate (retransmission) */
        board_expected++;
        new_reliable = true;
      }
      if (count < max) {
        out[count].frame = f;
        memcpy(out[count].payload, f.payload, f.length);
        out[count].frame.payload = out[count].payload;
        out[count].time = t;
        if ((int)f.type == type) found = true;
        count++;
      }
    }
    if (new_reliable && auto_ack) send_ack();
    if (found) break;
  }
  return count;
}

const rx_frame_t *find(const rx_frame_t *frames, int count, uint8_t type) {
  for (int i = 0; i < count; i++) {
    if (frames[i].frame.type == type) return &frames[i];
  }
  return NULL;
}

uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
uint64_t le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

/* ---- Clock sync: board ticks (2 MHz) against host microseconds ---- */

static double sync_host_us; /* a host time ... */
static double sync_board;   /* ... and the board ticks then */
double best_rtt = 1e9;

void clock_sync(int rounds) {
  for (int i = 0; i < rounds; i++) {
    uint8_t q[2] = {(uint8_t)i, 0x77};
    double sent = now_us();
    send_message(MSG_CLOCK_QUERY, q, 2);
    rx_frame_t frames[8];
    int n = receive(frames, 8, MSG_CLOCK, 200);
    const rx_frame_t *c = find(frames, n, MSG_CLOCK);
    if (!c || c->payload[0] != (uint8_t)i) continue;
    double rtt = c->time - sent;
    if (rtt < best_rtt) {
      best_rtt = rtt;
      sync_host_us = sent + rtt / 2;
      sync_board = (double)le64(c->payload + 2);
    }
  }
}

double board_at(double host_us) { return sync_board + (host_us - sync_host_us) * 2.0; }
double host_at(double board_ticks) { return sync_host_us + (board_ticks - sync_board) / 2.0; }

/* ---- The trace ---- */


int read_trace(write_t *out, int max, bool *header_ok) {
  FILE *f = fopen(trace_path, "r");
  if (!f) return 0;
  char line[128];
  int n = 0;
  if (fgets(line, sizeof line, f) && header_ok) *header_ok = strcmp(line, "time_us,register,value\n") == 0;
  while (n < max && fgets(line, sizeof line, f)) {
    if (sscanf(line, "%lf,%d,%d", &out[n].us, &out[n].reg, &out[n].value) == 3) n++;
  }
  fclose(f);
  return n;
}

/* ---- Segment batches ---- */

uint8_t batch(uint8_t *p, uint32_t start, const int (*segs)[3], int count) {
  uint8_t n = 0;
  p[n++] = 0;
  memcpy(p + n, &start, 4);
  n += 4;
  p[n++] = 1;
  p[n++] = (uint8_t)count;
  int previous = 0;
  for (int i = 0; i < count; i++) {
    int frames = segs[i][0], l0 = segs[i][1], l1 = segs[i][2];
    uint8_t flags = (uint8_t)((l0 != previous ? SEG_LEVEL_JUMP : 0) | (l1 != l0 ? SEG_LEVEL_RAMP : 0));
    p[n++] = flags;
    do {
      uint8_t byte = frames & 0x7F;
      frames >>= 7;
      p[n++] = frames ? (uint8_t)(byte | 0x80) : byte;
    } while (frames);
    if (flags & SEG_LEVEL_JUMP) p[n++] = (uint8_t)l0;
    if (flags & SEG_LEVEL_RAMP) p[n++] = (uint8_t)l1;
    previous = l1;
  }
  return n;
}

/* Reads the identify vector's bytes from docs/protocol.md. */
size_t identify_vector(const char *doc, uint8_t *out) {
  FILE *f = fopen(doc, "r");
  if (!f) return 0;
  char line[1024];
  size_t n = 0;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "identify ", 9) != 0) continue;
    char *cursor = line + 9;
    unsigned value;
    int used;
    while (sscanf(cursor, "%x%n", &value, &used) == 1) {
      out[n++] = (uint8_t)value;
      cursor += used;
    }
    break;
  }
  fclose(f);
  return n;
}

/* ---- Starting the emulator ---- */

/* Runs the emulator; returns its pid and its first stdout line (the pty) in `pty`. */
pid_t spawn(const char *emulator, const char *firmware, const char *trace, const char *link, bool no_chip,
            const char *log, char *pty) {
  return spawn_with_events(emulator, firmware, trace, link, no_chip, NULL, log, pty);
}

pid_t spawn_with_events(const char *emulator, const char *firmware, const char *trace, const char *link,
                        bool no_chip, const char *events, const char *log, char *pty) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) exit(2);
  pid_t child = fork();
  if (child == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    int logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (logfd >= 0) dup2(logfd, STDERR_FILENO);
    close(pipe_fds[0]);
    const char *args[12];
    int n = 0;
    args[n++] = emulator;
    args[n++] = "--firmware";
    args[n++] = firmware;
    if (trace) {
      args[n++] = "--trace";
      args[n++] = trace;
    }
    if (link) {
      args[n++] = "--link";
      args[n++] = link;
    }
    if (events) {
      args[n++] = "--events";
      args[n++] = events;
    }
    if (no_chip) args[n++] = "--no-chip";
    args[n] = NULL;
    execv(emulator, (char *const *)args);
    _exit(127);
  }
  close(pipe_fds[1]);
  size_t got = 0;
  struct pollfd p = {pipe_fds[0], POLLIN, 0};
  while (got < 255 && poll(&p, 1, 5000) > 0) {
    if (read(pipe_fds[0], pty + got, 1) != 1 || pty[got] == '\n') break;
    got++;
  }
  pty[got] = 0;
  close(pipe_fds[0]);
  return child;
}

int open_pty(const char *pty) {
  int f = open(pty, O_RDWR | O_NOCTTY | O_NONBLOCK);
  if (f < 0) return -1;
  struct termios tio;
  tcgetattr(f, &tio);
  cfmakeraw(&tio);
  cfsetspeed(&tio, B500000); /* a pty moves bytes at any speed; the emulator paces them */
  tcsetattr(f, TCSANOW, &tio);
  return f;
}

void reset_host(void) {
  host_seq = 0;
  host_started = false;
  following = false;
  cobs_decoder_init(&decoder, decoder_raw, FRAME_MAX_RAW, FRAME_MAX_ENCODED);
}

int stop_emulator(pid_t child) {
  kill(child, SIGINT);
  int wait_status = 0;
  waitpid(child, &wait_status, 0);
  return WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
}

