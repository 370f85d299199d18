/*
 * check_host.h — the host side of `make check` (see check_host.c).
 */
#ifndef CHECK_HOST_H
#define CHECK_HOST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "frame.h"
#include "wire.h"

/* A check: prints ok/FAIL and the message, counts failures. */
extern int failures;
#define EXPECT(condition, ...)                     \
  do {                                             \
    if (condition) {                               \
      printf("  ok    ");                          \
    } else {                                       \
      printf("  FAIL  ");                          \
      failures++;                                  \
    }                                              \
    printf(__VA_ARGS__);                           \
    printf("\n");                                  \
  } while (0)

typedef struct {
  frame_t frame;
  uint8_t payload[FRAME_MAX_PAYLOAD];
  double time; /* host microseconds when read */
} rx_frame_t;

typedef struct {
  double us; /* simulated microseconds */
  int reg, value;
} write_t;

extern int fd;               /* the open pty */
extern bool auto_ack;        /* receive() acknowledges new reliable frames (default) */
extern double last_write_us; /* host time of the last write() */
extern double best_rtt;      /* fastest clock-query round trip (us) */
extern char trace_path[4096];

double now_us(void);
uint16_t le16(const uint8_t *p);
uint64_t le64(const uint8_t *p);

/* The link, host side (session 0x5A). */
void reset_host(void);
void write_all(const uint8_t *bytes, size_t count);
void send_message(uint8_t type, const uint8_t *payload, uint8_t length);
/* The frame send_message would write, into `wire` (FRAME_MAX_ENCODED + 1 bytes): returns its
 * length, its sequence number in `seq` (if not NULL); the next message gets the next number. */
size_t encode_message(uint8_t type, const uint8_t *payload, uint8_t length, uint8_t *wire, uint8_t *seq);
void send_ack(void);
/* Reads frames for up to `timeout_ms` or until one of `type` arrives (type < 0: the whole
 * time; timeout 0: what has arrived, without waiting); acknowledges new reliable frames, drops
 * retransmitted ones. */
int receive(rx_frame_t *out, int max, int type, int timeout_ms);
const rx_frame_t *find(const rx_frame_t *frames, int count, uint8_t type);

/* Clock sync with `rounds` clock queries; then board ticks <-> host microseconds. */
void clock_sync(int rounds);
double board_at(double host_us);
double host_at(double board_ticks);

/* The trace file's register writes (header_ok: the first line is the expected header). */
int read_trace(write_t *out, int max, bool *header_ok);

/* A queue/replace payload for channel 0 with 1-byte levels: segments {frames, start, end}. */
uint8_t batch(uint8_t *payload, uint32_t start, const int (*segments)[3], int count);

/* The `identify` test vector's bytes from docs/protocol.md. */
size_t identify_vector(const char *doc, uint8_t *out);

/* The application firmware's serial rate (the board's BOARD_LINK_BAUD, passed by the Makefile;
 * Optiboot alone runs at 115200). A pty carries bytes at any speed, so this is the rate the
 * checks work out wire times with; the emulator paces bytes at the rate the AVR's UART is set
 * to. */
#ifndef LINK_BAUD
#error "LINK_BAUD: the board's BOARD_LINK_BAUD (the Makefile passes -DLINK_BAUD)"
#endif

/* The emulator: start (returns the pid; `pty` gets its first stdout line), open its pty raw at
 * termios' fastest rate (a pty ignores it), stop with SIGINT (returns the exit status). */
pid_t spawn(const char *emulator, const char *firmware, const char *trace, const char *link, bool no_chip,
            const char *log, char *pty);
/* The same with --events `events` (NULL: none). */
pid_t spawn_with_events(const char *emulator, const char *firmware, const char *trace, const char *link,
                        bool no_chip, const char *events, const char *log, char *pty);
int open_pty(const char *pty);
int stop_emulator(pid_t child);

#endif
