/*
 * check_emu.c — end-to-end check of the emulated board (`make check`):
 *
 *   check-emu EMULATOR FIRMWARE.elf BUILD_DIR [docs/protocol.md]
 *
 * Starts the emulator, opens its pty (raw; the emulator paces it at the firmware's rate), and
 * talks to the firmware as a host:
 *  1. the `identify` test vector as raw bytes (no session yet: the board must ignore it),
 *     then a SYN identify of our own -> reset notice (0x0B, SYN) and capabilities (0x02);
 *  2. clock queries -> the board clock against ours;
 *  3. a queue batch -> RTP_INPUT writes in the trace at the frame times and levels;
 *  4. a late replace -> latency from our write() to the RTP write;
 *  5. silence -> the watchdog stops the drive (RTP 0) ~100 ms after our last frame, and the
 *     next status says "fired";
 *  6. calibration -> a calibration result (f0 175.1 Hz from the model);
 *  7. v1.1: capabilities announce the measured f0, calibrated; `identity request` -> 0 (no
 *     serial yet), then an assign kept; SIGUSR1 (a power cycle) -> both still there (the
 *     firmware's EEPROM: calibration record, serial at 1020-1023), an assign then ignored;
 *  8. SIGINT -> exit status 0, --link removed;
 *  9. --no-chip -> status fault bit 2; a missing firmware file -> exit status 1;
 * 10. the line kept busy for 2 s (check_stream, below; alone, on either board:
 *     check-emu --stream EMULATOR FIRMWARE.elf BUILD_DIR [SECONDS [WINDOW_BYTES]], make stream)
 *     -> no UART overrun, no bad frame, the main loop's longest stall under half the receive
 *     ring's fill time.
 * Prints what it measured; exit status 0 when every check passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_host.h"

/* --no-chip: the board runs and reports "driver not responding"; a missing firmware file is
 * exit status 1 with a message. */
static void check_without_chip(const char *emulator, const char *firmware, const char *build) {
  char log[4096], pty[256];
  snprintf(log, sizeof log, "%s/check-emulator-nochip.log", build);
  pid_t child = spawn(emulator, firmware, NULL, NULL, true, log, pty);
  fd = open_pty(pty);
  reset_host();
  usleep(50000);
  send_message(MSG_IDENTIFY, NULL, 0);
  rx_frame_t frames[64];
  receive(frames, 64, MSG_CAPABILITIES, 1000);
  send_message(MSG_STATUS_REQUEST, NULL, 0);
  int n = receive(frames, 64, MSG_STATUS, 1000);
  const rx_frame_t *status = find(frames, n, MSG_STATUS);
  EXPECT(status && (status->payload[5] & 0x04), "--no-chip: status faults 0x%02X (bit 2: driver not responding)",
         status ? status->payload[5] : 0xFF);
  close(fd);
  EXPECT(stop_emulator(child) == 0, "--no-chip: clean exit on SIGINT");

  snprintf(log, sizeof log, "%s/check-emulator-missing.log", build);
  child = spawn(emulator, "/nonexistent/hapticctl-uno.elf", NULL, NULL, false, log, pty);
  int wait_status = 0;
  waitpid(child, &wait_status, 0);
  char message[256] = {0};
  FILE *l = fopen(log, "r");
  if (l) {
    if (!fgets(message, sizeof message, l)) message[0] = 0;
    fclose(l);
  }
  message[strcspn(message, "\n")] = 0;
  EXPECT(WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 1 && pty[0] == 0 && strstr(message, "cannot read"),
         "missing firmware: exit status %d, stderr \"%s\"", WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1,
         message);
}

/* Sends a request and waits up to 500 ms for the answer of type `answer` (NULL if none). */
static const rx_frame_t *ask(rx_frame_t *frames, uint8_t type, const uint8_t *payload, uint8_t length, uint8_t answer) {
  send_message(type, payload, length);
  int n = receive(frames, 64, answer, 500);
  return find(frames, n, answer);
}

/* The serial an `identity` answer carries; -1 without one. */
static long long serial_of(const rx_frame_t *identity) {
  if (!identity || identity->frame.length != 4) return -1;
  const uint8_t *p = identity->payload;
  return (long long)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/* Capabilities' f0 (x10) and calibration state of the LRA; checks their values. */
static void expect_calibrated_f0(rx_frame_t *frames, const char *when) {
  const rx_frame_t *caps = ask(frames, MSG_IDENTIFY, NULL, 0, MSG_CAPABILITIES);
  const uint8_t *q = caps && caps->frame.length == 60 ? caps->payload + 34 : NULL;
  EXPECT(q && le16(q + 12) == 0x5B && le16(q + 16) == 1751 && q[25] == 2,
         "%s: capabilities features 0x%02X, f0 %.1f Hz, calibration %d (calibrated: the measured f0)", when,
         q ? le16(q + 12) : 0, q ? le16(q + 16) / 10.0 : 0, q ? q[25] : -1);
}

/* v1.1 (§6.3, §6.11) after a calibration: the measured f0 and the serial, also after a power
 * cycle (SIGUSR1), which keeps the EEPROM. */
static void check_identity(pid_t child, rx_frame_t *frames) {
  expect_calibrated_f0(frames, "after the calibration");
  const uint8_t assign[4] = {0x4D, 0x3C, 0x2B, 0x1A}; /* 0x1A2B3C4D, the §9 vector's */
  long long serial = serial_of(ask(frames, MSG_IDENTITY_REQUEST, NULL, 0, MSG_IDENTITY));
  EXPECT(serial == 0, "identity request: serial %lld (none yet)", serial);
  double sent = now_us();
  const rx_frame_t *identity = ask(frames, MSG_IDENTITY_REQUEST, assign, 4, MSG_IDENTITY);
  serial = serial_of(identity);
  EXPECT(serial == 0x1A2B3C4D, "identity request assigning 0x1A2B3C4D: serial 0x%llX, %.1f ms after the request",
         serial, identity ? (identity->time - sent) / 1000 : 0);
  /* Power cycle: a new boot (reset notice with SYN, power-on), then a host of its own. */
  kill(child, SIGUSR1);
  usleep(300000);
  reset_host();
  send_message(MSG_IDENTIFY, NULL, 0);
  int n = receive(frames, 64, MSG_CAPABILITIES, 1000);
  const rx_frame_t *notice = find(frames, n, MSG_RESET_NOTICE);
  EXPECT(notice && le16(notice->payload) == 2 && notice->payload[2] == 1,
         "power cycle: reset notice, boot count %u, cause %u (power-on)", notice ? le16(notice->payload) : 0,
         notice ? notice->payload[2] : 0);
  expect_calibrated_f0(frames, "after the power cycle");
  serial = serial_of(ask(frames, MSG_IDENTITY_REQUEST, NULL, 0, MSG_IDENTITY));
  EXPECT(serial == 0x1A2B3C4D, "identity request after the power cycle: serial 0x%llX (kept)", serial);
  const uint8_t other[4] = {5, 0, 0, 0};
  serial = serial_of(ask(frames, MSG_IDENTITY_REQUEST, other, 4, MSG_IDENTITY));
  EXPECT(serial == 0x1A2B3C4D, "identity request assigning 5: serial 0x%llX (the board keeps its own)", serial);
}

/* ---- The line kept busy: check-emu --stream, and the last step of make check ----
 *
 * For `seconds` the host sends as fast as the link lets it (docs/protocol.md §4.3: at most 8
 * reliable frames and 322 bytes unacknowledged, go-back-N on a NAK or after 50 ms), so the line
 * carries bytes back to back but for the acknowledgements' round trips: `replace` batches of
 * every kind the board decodes — 238-byte ones (21 ramps with frequencies, 2-byte levels, as
 * EmulatedLinkTests' burst), late ones whose first segments are over, short ones a few frames
 * ahead that cut into the staged frames (the H-bridge restages) — on every channel in turn,
 * with status requests and clock queries among them. What the UART went through is in the
 * emulator's exit summary: overruns (a byte lost in the two-byte buffer: interrupts off too
 * long), the receive ring's high-water mark and the main loop's longest stall against the
 * ring's fill time at the line rate; the board's own count of bad frames (a byte lost in a
 * full ring breaks its frame's CRC) is in its status. Works on either Uno board (it reads the
 * channels, the queue depth and the frequency ranges from the capabilities). */

typedef struct {
  unsigned channels, depth;
  bool signed_levels;
  uint16_t freq_min[WIRE_MAX_CHANNELS], freq_max[WIRE_MAX_CHANNELS];
} board_info_t;

static bool parse_capabilities(const rx_frame_t *caps, board_info_t *info) {
  const uint8_t *p = caps->payload, *end = p + caps->frame.length;
  p++; /* protocol version */
  for (int i = 0; i < 3; i++) { /* firmware name, version, board ID */
    if (p >= end) return false;
    p += 1 + *p;
  }
  if (p + 15 > end) return false;
  info->depth = le16(p + 8);
  info->signed_levels = (le16(p + 12) & BOARD_FEATURE_SIGNED_LEVELS) != 0;
  info->channels = p[14];
  if (info->channels == 0 || info->channels > WIRE_MAX_CHANNELS) return false;
  p += 15;
  for (unsigned c = 0; c < info->channels; c++, p += 11) {
    if (p + 11 > end) return false;
    info->freq_min[c] = le16(p + 5);
    info->freq_max[c] = le16(p + 7);
  }
  return true;
}

static uint32_t stream_random_state = 0x9E3779B9u;
static uint32_t stream_random(uint32_t n) {
  stream_random_state ^= stream_random_state << 13;
  stream_random_state ^= stream_random_state >> 17;
  stream_random_state ^= stream_random_state << 5;
  return stream_random_state % n;
}

/* A batch payload under construction. */
typedef struct {
  uint8_t bytes[FRAME_MAX_PAYLOAD];
  uint8_t length;
} payload_t;

static void put8(payload_t *p, unsigned v) { p->bytes[p->length++] = (uint8_t)v; }
static void put16(payload_t *p, unsigned v) {
  put8(p, v & 0xFF);
  put8(p, (v >> 8) & 0xFF);
}
static void put_frames(payload_t *p, uint32_t frames) {
  do {
    uint8_t byte = frames & 0x7F;
    frames >>= 7;
    put8(p, frames ? (uint8_t)(byte | 0x80) : byte);
  } while (frames);
}
static void batch_header(payload_t *p, unsigned channel, uint32_t start, unsigned level_bytes, unsigned count) {
  p->length = 0;
  put8(p, channel);
  put16(p, start & 0xFFFF);
  put16(p, start >> 16);
  put8(p, level_bytes);
  put8(p, count);
}

/* A level the channel drives: -127..127 on a signed board, 0..255 else, as a 1-byte level. */
static unsigned level_byte(const board_info_t *info) {
  return info->signed_levels ? (uint8_t)(int8_t)((int)stream_random(255) - 127) : stream_random(256);
}
static unsigned frequency(const board_info_t *info, unsigned c) {
  return info->freq_max[c] ? info->freq_min[c] + stream_random(info->freq_max[c] - info->freq_min[c] + 1u) : 0u;
}

/* 21 ramps (11 bytes each: a 238-byte payload), 2-byte levels, with frequencies, as
 * EmulatedLinkTests' burst: with `past` 0 all of them long, from 1 s ahead; else from 100 ms
 * ago, the first `past` of them one frame each (over: decoded, not stored), the rest long. */
static void big_batch(payload_t *p, const board_info_t *info, unsigned c, uint32_t now, unsigned past) {
  batch_header(p, c, past ? now - 200000u : now + 2000000u, 2, 21);
  for (unsigned i = 0; i < 21; i++) {
    put8(p, SEG_LEVEL_JUMP | SEG_LEVEL_RAMP | SEG_FREQ_JUMP | SEG_FREQ_RAMP);
    /* 16000+ frames take 2 bytes of LEB128 (a segment 11 bytes), 1 frame one (10). */
    put_frames(p, i < past ? 1u : 16000u + i);
    int top = info->signed_levels ? 127 : 255;
    put16(p, (uint16_t)(int16_t)(top - (int)(i % 3)));
    put16(p, (uint16_t)(int16_t)(10 + (int)stream_random(40)));
    put16(p, 100 + i);
    put16(p, 200 + i);
  }
}

/* 2-4 short ramps starting 0-6 ms ahead (within the staged frames: a restage), 1-byte levels,
 * frequency ramps on a channel with frequency control. */
static void short_batch(payload_t *p, const board_info_t *info, unsigned c, uint32_t now) {
  unsigned count = 2 + stream_random(3);
  batch_header(p, c, now + 2000u * stream_random(7), 1, count);
  for (unsigned i = 0; i < count; i++) {
    bool hz = info->freq_max[c] != 0;
    put8(p, SEG_LEVEL_JUMP | SEG_LEVEL_RAMP | (hz ? SEG_FREQ_JUMP | SEG_FREQ_RAMP : 0));
    put_frames(p, 1 + stream_random(8));
    put8(p, level_byte(info));
    put8(p, level_byte(info));
    if (hz) {
      put16(p, frequency(info, c));
      put16(p, frequency(info, c));
    }
  }
}

/* The host's unacknowledged reliable frames, oldest first (§4.3): at most 8, and at most
 * `window_bytes` bytes of them (322, the protocol's receive window, unless told otherwise),
 * one frame always when nothing else is unacknowledged. */
#define STREAM_WINDOW 8
typedef struct {
  uint8_t seq;
  uint16_t length;
  uint8_t wire[FRAME_MAX_ENCODED + 1];
} sent_t;

typedef struct {
  sent_t frames[STREAM_WINDOW];
  unsigned count, bytes;
  double progress_us, resent_us;
  unsigned long frames_sent, bytes_sent, resends, timeouts, naks, errors, replies;
} window_t;

static void window_send(window_t *w, uint8_t type, const uint8_t *payload, uint8_t length) {
  sent_t *f = &w->frames[w->count];
  f->length = (uint16_t)encode_message(type, payload, length, f->wire, &f->seq);
  write_all(f->wire, f->length);
  if (w->count == 0) w->progress_us = last_write_us;
  w->count++;
  w->bytes += f->length;
  w->frames_sent++;
  w->bytes_sent += f->length;
}

static void window_resend(window_t *w) {
  for (unsigned i = 0; i < w->count; i++) {
    write_all(w->frames[i].wire, w->frames[i].length);
    w->bytes_sent += w->frames[i].length;
    w->resends++;
  }
  w->resent_us = w->progress_us = now_us();
}

/* Takes what the board sent: acknowledgements free the window (a NAK resends from its `ack`:
 * go-back-N), errors and replies are counted. */
static void window_take(window_t *w, const rx_frame_t *frames, int n) {
  for (int i = 0; i < n; i++) {
    const frame_t *f = &frames[i].frame;
    if (f->type == MSG_ERROR) w->errors++;
    if (f->type == MSG_STATUS || f->type == MSG_CLOCK) w->replies++;
    if (!(f->flags & FLAG_ACK_VALID)) continue;
    unsigned acked = 0;
    while (acked < w->count && (uint8_t)(f->ack - w->frames[acked].seq - 1u) < 128u) acked++;
    if (acked > 0) {
      for (unsigned k = 0; k < acked; k++) w->bytes -= w->frames[k].length;
      memmove(w->frames, w->frames + acked, (w->count - acked) * sizeof w->frames[0]);
      w->count -= acked;
      w->progress_us = now_us();
    }
    if ((f->flags & FLAG_NAK) && w->count > 0 && now_us() - w->resent_us > 10000) {
      w->naks++;
      window_resend(w);
    }
  }
}

/* One look at what arrived (waiting up to 1 ms), and a go-back-N after 50 ms without progress. */
static void window_poll(window_t *w) {
  rx_frame_t frames[64];
  struct pollfd p = {fd, POLLIN, 0};
  (void)poll(&p, 1, 1);
  int n = receive(frames, 64, -1, 0);
  window_take(w, frames, n);
  if (w->count > 0 && now_us() - w->progress_us > 50000) {
    w->timeouts++;
    window_resend(w);
  }
}

/* The emulator's exit summary: the figures the stream is judged by. */
typedef struct {
  long overruns;
  long high_water, ring;
  double wait_ms, fill_ms, margin;
  long baud;
} emu_summary_t;

static emu_summary_t read_summary(const char *log) {
  emu_summary_t s = {-1, -1, -1, -1, -1, -1, 0};
  FILE *l = fopen(log, "r");
  char line[512];
  while (l && fgets(line, sizeof line, l)) {
    if (strncmp(line, "hapticctl-emu-uno:", 18) != 0) continue;
    printf("  %s", line);
    const char *at;
    if ((at = strstr(line, " dropped, "))) sscanf(at, " dropped, %ld UART overruns", &s.overruns);
    if ((at = strstr(line, "high-water "))) sscanf(at, "high-water %ld of %ld", &s.high_water, &s.ring);
    if ((at = strstr(line, "cycles ("))) sscanf(at, "cycles (%lf ms", &s.wait_ms);
    if ((at = strstr(line, "the ring fills in "))) {
      if ((at = strchr(at, '('))) sscanf(at, "(%lf ms at %ld baud", &s.fill_ms, &s.baud);
    }
    if ((at = strstr(line, "margin "))) sscanf(at, "margin %lfx", &s.margin);
  }
  if (l) fclose(l);
  return s;
}

/* Rows of `event` in the events file, and the sum of their count= details. */
static long count_events(const char *path, const char *event, long *sum) {
  FILE *f = fopen(path, "r");
  char line[256];
  long rows = 0;
  *sum = 0;
  while (f && fgets(line, sizeof line, f)) {
    char *comma = strchr(line, ',');
    if (!comma || strncmp(comma + 1, event, strlen(event)) != 0 || comma[1 + strlen(event)] != ',') continue;
    rows++;
    const char *count = strstr(line, "count=");
    *sum += count ? atol(count + 6) : 1;
  }
  if (f) fclose(f);
  return rows;
}

static const rx_frame_t *request(rx_frame_t *frames, uint8_t type, const uint8_t *payload, uint8_t length,
                                 uint8_t answer) {
  send_message(type, payload, length);
  int n = receive(frames, 64, answer, 500);
  return find(frames, n, answer);
}

static void check_stream(const char *emulator, const char *firmware, const char *build, double seconds,
                         unsigned window_bytes) {
  char log[4096], events[4096], pty[256];
  snprintf(log, sizeof log, "%s/check-stream-emulator.log", build);
  snprintf(events, sizeof events, "%s/check-stream-events.csv", build);
  pid_t child = spawn_with_events(emulator, firmware, NULL, NULL, false, events, log, pty);
  fd = open_pty(pty);
  if (fd < 0) {
    EXPECT(false, "stream: cannot open the emulator's pty %s", pty);
    kill(child, SIGKILL);
    return;
  }
  reset_host();
  usleep(50000);
  rx_frame_t frames[64];
  board_info_t info;
  const rx_frame_t *caps = request(frames, MSG_IDENTIFY, NULL, 0, MSG_CAPABILITIES);
  if (!caps || !parse_capabilities(caps, &info)) {
    EXPECT(false, "stream: capabilities");
    close(fd);
    stop_emulator(child);
    return;
  }
  clock_sync(4);
  const rx_frame_t *status = request(frames, MSG_STATUS_REQUEST, NULL, 0, MSG_STATUS);
  unsigned bad_before = status ? le16(status->payload + 6) : 0;

  window_t w;
  memset(&w, 0, sizeof w);
  double started = now_us(), end = started + seconds * 1e6;
  payload_t p;
  for (unsigned i = 0; now_us() < end; i++) {
    unsigned c = (i / 2) % info.channels;
    uint32_t now = (uint32_t)board_at(now_us());
    uint8_t type = MSG_REPLACE_SEGMENTS;
    /* Segments to play (not over) stay within the queue beside what a short batch left: at
     * most depth - 5 (no queueFull: every batch is decoded and stored). */
    unsigned fit = info.depth >= 26 ? 0 : 26 - info.depth;
    switch (i % 10) {
      case 0: big_batch(&p, &info, c, now, fit); break;
      case 5: big_batch(&p, &info, c, now, 19); break; /* 19 over, 2 to play */
      case 9:
        type = (i / 10) % 2 ? MSG_STATUS_REQUEST : MSG_CLOCK_QUERY;
        p.length = type == MSG_CLOCK_QUERY ? 2 : 0;
        p.bytes[0] = (uint8_t)i;
        p.bytes[1] = 0x55;
        break;
      default: short_batch(&p, &info, c, now); break;
    }
    uint16_t wire = (uint16_t)FRAME_WIRE_SIZE(FRAME_HEADER_SIZE + p.length + 2u);
    while (w.count > 0 && (w.count == STREAM_WINDOW || w.bytes + wire > window_bytes) && now_us() < end + 1e6) {
      window_poll(&w);
    }
    window_send(&w, type, p.bytes, p.length);
    window_poll(&w);
  }
  double sending = (now_us() - started) / 1e6;
  for (double wait = now_us(); w.count > 0 && now_us() - wait < 1e6;) window_poll(&w);
  window_take(&w, frames, receive(frames, 64, -1, 50));
  status = request(frames, MSG_STATUS_REQUEST, NULL, 0, MSG_STATUS);
  unsigned bad_after = status ? le16(status->payload + 6) : 0;
  const uint8_t all = 0xFF;
  send_message(MSG_STOP, &all, 1);
  receive(frames, 64, -1, 20);
  close(fd);
  int exit_status = stop_emulator(child);

  double line_s = w.bytes_sent * 10.0 / LINK_BAUD;
  printf("stream: %.1f s, %lu frames (%lu bytes, the line busy %.0f %% of the time at %d baud), %lu resent "
         "(%lu NAKs, %lu timeouts), %lu errors, %lu replies; %u channels, queue depth %u; at most %u bytes "
         "unacknowledged\n",
         sending, w.frames_sent, w.bytes_sent, 100.0 * line_s / sending, LINK_BAUD, w.resends, w.naks, w.timeouts,
         w.errors, w.replies, info.channels, info.depth, window_bytes);
  printf("emulator log (%s):\n", log);
  emu_summary_t sum = read_summary(log);
  long bad_sum, unused;
  long overrun_rows = count_events(events, "uart_overrun", &unused);
  (void)count_events(events, "bad_frames", &bad_sum);
  EXPECT(exit_status == 0, "stream: the emulator exits 0 (%d)", exit_status);
  EXPECT(line_s / sending > 0.5, "stream: the line kept busy (%.0f %% of %.1f s)", 100.0 * line_s / sending, sending);
  EXPECT(sum.overruns == 0 && overrun_rows == 0, "stream: %ld UART overruns (%ld uart_overrun events)", sum.overruns,
         overrun_rows);
  EXPECT(status && bad_after == bad_before && bad_sum == 0,
         "stream: %u bad frames by the board's status (%ld in the events), %lu errors, %lu frames resent",
         bad_after - bad_before, bad_sum, w.errors, w.resends);
  EXPECT(sum.high_water >= 0 && sum.high_water < sum.ring, "stream: receive ring high-water %ld of %ld bytes",
         sum.high_water, sum.ring);
  EXPECT(sum.margin >= 2.0,
         "stream: the main loop left bytes in the ring at most %.2f ms, the ring fills in %.2f ms at %ld baud: "
         "margin %.1fx (2x wanted)",
         sum.wait_ms, sum.fill_ms, sum.baud, sum.margin);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc >= 5 && strcmp(argv[1], "--stream") == 0) {
    double seconds = argc > 5 ? atof(argv[5]) : 2.0;
    unsigned window_bytes = argc > 6 ? (unsigned)atoi(argv[6]) : 322u;
    check_stream(argv[2], argv[3], argv[4], seconds, window_bytes);
    printf("%s\n", failures ? "make stream: FAILED" : "make stream: all checks passed");
    return failures ? 1 : 0;
  }
  if (argc < 4) {
    fprintf(stderr, "usage: check-emu EMULATOR FIRMWARE.elf BUILD_DIR [protocol.md]\n"
                    "       check-emu --stream EMULATOR FIRMWARE.elf BUILD_DIR [SECONDS [WINDOW_BYTES]]\n");
    return 2;
  }
  const char *doc = argc > 4 ? argv[4] : "../../docs/protocol.md";
  char link[4096], log[4096];
  snprintf(trace_path, sizeof trace_path, "%s/check-trace.csv", argv[3]);
  snprintf(link, sizeof link, "%s/check-link", argv[3]);
  snprintf(log, sizeof log, "%s/check-emulator.log", argv[3]);
  setvbuf(stdout, NULL, _IOLBF, 0);

  /* 0. Start the emulator; its first stdout line is the pty. */
  double started = now_us();
  char pty[256];
  pid_t child = spawn(argv[1], argv[2], trace_path, link, false, log, pty);
  printf("emulator: pty %s (first stdout line after %.0f ms)\n", pty, (now_us() - started) / 1000);
  EXPECT(strncmp(pty, "/dev/pts/", 9) == 0, "the first stdout line is the pty path");
  char target[256] = {0};
  ssize_t tl = readlink(link, target, sizeof target - 1);
  EXPECT(tl > 0 && strcmp(target, pty) == 0, "--link %s points at it", link);

  fd = open_pty(pty);
  if (fd < 0) {
    printf("cannot open %s: %s\n", pty, strerror(errno));
    kill(child, SIGKILL);
    return 1;
  }
  reset_host();
  usleep(100000);

  /* 1. The raw identify vector (session 0x5A, seq 7, no SYN): ignored, no session yet. */
  uint8_t vector[64];
  size_t vector_length = identify_vector(doc, vector);
  EXPECT(vector_length == 11, "identify vector read from %s", doc);
  const uint8_t delimiter = 0;
  write_all(&delimiter, 1);
  write_all(vector, vector_length);
  rx_frame_t frames[64];
  int n = receive(frames, 64, -1, 150);
  EXPECT(find(frames, n, MSG_CAPABILITIES) == NULL, "the vector frame (no SYN, no session) is not answered");
  /* Our own SYN identify. */
  double identify_sent = now_us();
  send_message(MSG_IDENTIFY, NULL, 0);
  int m = receive(frames + n, 64 - n, MSG_CAPABILITIES, 1000);
  n += m;
  const rx_frame_t *first_reliable = NULL;
  for (int i = 0; i < n && !first_reliable; i++) {
    if (frames[i].frame.flags & FLAG_RELIABLE) first_reliable = &frames[i];
  }
  EXPECT(first_reliable && first_reliable->frame.type == MSG_RESET_NOTICE && (first_reliable->frame.flags & FLAG_SYN),
         "first frame: reset notice (0x0B) with SYN, boot count %u, cause %u",
         first_reliable ? le16(first_reliable->payload) : 0, first_reliable ? first_reliable->payload[2] : 0);
  const rx_frame_t *caps = find(frames, n, MSG_CAPABILITIES);
  EXPECT(caps != NULL, "capabilities (0x02) %.1f ms after the identify", caps ? (caps->time - identify_sent) / 1000 : 0);
  if (caps) {
    EXPECT(memmem(caps->payload, caps->frame.length, "uno-drv2605l", 12) != NULL, "boardID uno-drv2605l in it");
    const uint8_t *q = caps->payload + 34;
    printf("        clock %u Hz, frames %u us, queue %u, watchdog %u ms, features 0x%02X\n",
           (unsigned)(q[2] | q[3] << 8 | q[4] << 16 | (uint32_t)q[5] << 24), le16(q + 6), le16(q + 8), le16(q + 10),
           le16(q + 12));
  }

  /* 2. Clock sync. */
  clock_sync(8);
  printf("clock: best round trip %.2f ms\n", best_rtt / 1000);
  EXPECT(best_rtt < 20000, "clock queries answered (round trip %.2f ms)", best_rtt / 1000);

  /* 3. A queue batch 30 ms ahead: 10 frames at 100, a ramp 100 -> 10 over 10, 5 at 60, 0. */
  static const int segs[][3] = {{10, 100, 100}, {10, 100, 10}, {5, 60, 60}, {1, 0, 0}};
  uint32_t start = (uint32_t)(board_at(now_us()) + 60000);
  uint8_t payload[64];
  send_message(MSG_QUEUE_SEGMENTS, payload, batch(payload, start, segs, 4));
  double batch_sent = last_write_us;
  for (int i = 0; i < 5; i++) {
    receive(frames, 64, -1, 20);
    send_message(MSG_HEARTBEAT, NULL, 0);
  }
  receive(frames, 64, -1, 20);
  static write_t writes[20000];
  int count = read_trace(writes, 20000, NULL);
  int first = -1;
  for (int i = 0; i < count; i++) {
    if (writes[i].reg == 2 && writes[i].value == 100) {
      first = i;
      break;
    }
  }
  EXPECT(first >= 0, "RTP_INPUT = 100 in the trace");
  if (first >= 0) {
    /* Expected level changes, frame by frame from the start. */
    int expected_frames = 0, matched = 0;
    double worst = 0;
    int previous = 100;
    int k = 0;
    for (int s = 0; s < 4; s++) {
      for (int j = 0; j < segs[s][0]; j++, k++) {
        int level = segs[s][0] == 1 ? segs[s][1]
                                     : (int)lround(segs[s][1] + (double)(segs[s][2] - segs[s][1]) * j / (segs[s][0] - 1));
        if (k == 0 || level == previous) {
          previous = level;
          continue;
        }
        previous = level;
        expected_frames++;
        for (int i = first + 1; i < count; i++) {
          /* Within 250 us of the grid: RTP_INPUT is written when the main loop computes the
           * frame (~50 us in), later when a received frame (a heartbeat: ~0.15 ms) is being
           * handled at the boundary. The write itself takes ~0.1 ms of I2C. */
          if (writes[i].reg == 2 && writes[i].value == level && fabs(writes[i].us - writes[first].us - k * 1000.0) < 250) {
            matched++;
            double error = fabs(writes[i].us - writes[first].us - k * 1000.0);
            if (error > worst) worst = error;
            break;
          }
        }
      }
    }
    EXPECT(matched == expected_frames,
           "%d of %d level changes at their frame times, values as the rounding rule (worst %.0f us off the 1 ms grid)",
           matched, expected_frames, worst);
    /* The first write against the clock sync: when the host expected the start. */
    double t0 = writes[first].us; /* simulated us at board tick `start` */
    printf("        batch start: sim %.0f us; by the clock sync +%.1f ms after the send (asked: +30.0 ms)\n", t0,
           (host_at(start) - batch_sent) / 1000);
  }

  /* 4. Latency: a replace that starts in the past plays at once (level 77). */
  uint32_t past = (uint32_t)(board_at(now_us()) - 10000);
  static const int hold[][3] = {{2000, 77, 77}};
  uint8_t replace_length = batch(payload, past, hold, 1);
  unsigned replace_bytes = FRAME_WIRE_SIZE(FRAME_HEADER_SIZE + replace_length + 2u);
  send_message(MSG_REPLACE_SEGMENTS, payload, replace_length);
  double written = last_write_us;
  double seen = 0;
  bool header_ok = false;
  while (now_us() - written < 200000 && seen == 0) {
    count = read_trace(writes, 20000, &header_ok);
    for (int i = count - 1; i >= 0 && i >= count - 50; i--) {
      if (writes[i].reg == 2 && writes[i].value == 77) seen = now_us();
    }
    if (seen == 0) usleep(200);
  }
  EXPECT(header_ok, "trace header time_us,register,value");
  EXPECT(seen > 0, "late replace: RTP 77 in the trace %.2f ms after write() returned (polling the file)",
         (seen - written) / 1000);
  double sim_77 = 0, sim_100 = 0;
  for (int i = 0; i < count; i++) {
    if (writes[i].reg == 2 && writes[i].value == 77 && sim_77 == 0) sim_77 = writes[i].us;
    if (writes[i].reg == 2 && writes[i].value == 100 && sim_100 == 0) sim_100 = writes[i].us;
  }
  /* Simulated us -> host time, through the batch start (sim_100 is board tick `start`). */
  double latency = (host_at(start + (sim_77 - sim_100) * 2.0) - written) / 1000;
  printf("        by the board clock: RTP 77 written %.2f ms after write() (a %u-byte frame: %.2f ms on the wire)\n",
         latency, replace_bytes, replace_bytes * 10 * 1000.0 / LINK_BAUD);

  /* 5. Silence: the watchdog (100 ms) stops the drive. The host's last frame is a clock query
   * left unacknowledged (an ack would be a frame too): its answer is the board time the board
   * last heard the host, so the watchdog is measured on the board's own clock. */
  receive(frames, 64, -1, 5);
  auto_ack = false;
  const uint8_t last_query[2] = {0x99, 0x99};
  send_message(MSG_CLOCK_QUERY, last_query, 2);
  double last_frame = last_write_us;
  n = receive(frames, 64, MSG_CLOCK, 200);
  const rx_frame_t *heard = find(frames, n, MSG_CLOCK);
  usleep(300000);
  auto_ack = true;
  count = read_trace(writes, 20000, NULL);
  double stop_us = 0;
  for (int i = 0; i < count; i++) {
    if (writes[i].us > sim_77 && writes[i].reg == 2 && writes[i].value == 0) {
      stop_us = writes[i].us;
      break;
    }
  }
  double stop_ticks = start + (stop_us - sim_100) * 2.0; /* the trace's time on the board clock */
  double silence_board = heard ? (stop_ticks - (double)le64(heard->payload + 2)) / 2000.0 : -1;
  double silence_wall = (host_at(stop_ticks) - last_frame) / 1000;
  /* The clock answer is stamped when it is built, after the query was handled: up to ~0.2 ms
   * after the board's time of receipt, from which the watchdog counts. */
  EXPECT(stop_us > 0 && silence_board > 99.75 && silence_board < 100.5,
         "watchdog: RTP 0 %.2f ms (board clock) after the board last heard the host; %.1f ms after our last "
         "write() by the clock sync",
         silence_board, silence_wall);
  /* The host speaks again: the first status says fired, the next one idle. */
  receive(frames, 64, -1, 5);
  send_message(MSG_STATUS_REQUEST, NULL, 0);
  n = receive(frames, 64, MSG_STATUS, 500);
  const rx_frame_t *status = find(frames, n, MSG_STATUS);
  EXPECT(status && status->payload[4] == 2, "status after the silence: watchdog fired (%d), faults 0x%02X",
         status ? status->payload[4] : -1, status ? status->payload[5] : 0xFF);
  send_message(MSG_STATUS_REQUEST, NULL, 0);
  n = receive(frames, 64, MSG_STATUS, 500);
  status = find(frames, n, MSG_STATUS);
  EXPECT(status && status->payload[4] == 0 && le16(status->payload + 6) == 0,
         "next status: watchdog idle (%d), bad frames %u",
         status ? status->payload[4] : -1, status ? le16(status->payload + 6) : 0);

  /* 6. Calibration through the DRV2605L model (about 1 s). */
  const uint8_t channel = 0;
  double calibrate_sent = now_us();
  send_message(MSG_CALIBRATE, &channel, 1);
  const rx_frame_t *result = NULL;
  for (int i = 0; i < 30 && !result; i++) {
    n = receive(frames, 64, MSG_CALIBRATION_RESULT, 100);
    result = find(frames, n, MSG_CALIBRATION_RESULT);
    if (!result) send_message(MSG_HEARTBEAT, NULL, 0);
  }
  EXPECT(result && result->payload[1] == 1 && le16(result->payload + 2) == 1751,
         "calibration result after %.0f ms: succeeded %d, f0 %.1f Hz, comp 0x%02X, back-EMF 0x%02X",
         result ? (result->time - calibrate_sent) / 1000 : 0, result ? result->payload[1] : -1,
         result ? le16(result->payload + 2) / 10.0 : 0, result ? result->payload[4] : 0, result ? result->payload[5] : 0);

  /* 7. v1.1: the measured f0 and the serial, across a power cycle. */
  check_identity(child, frames);

  /* 8. SIGINT: a clean exit, the link removed. */
  close(fd);
  int exit_status = stop_emulator(child);
  EXPECT(exit_status == 0, "SIGINT: exit status %d", exit_status);
  struct stat st;
  EXPECT(lstat(link, &st) != 0, "--link removed on exit");
  printf("emulator log (%s):\n", log);
  FILE *l = fopen(log, "r");
  char line[512];
  while (l && fgets(line, sizeof line, l)) {
    if (strncmp(line, "hapticctl-emu-uno:", 18) == 0) printf("  %s", line);
  }
  if (l) fclose(l);

  check_without_chip(argv[1], argv[2], argv[3]);

  /* 10. The line kept busy for 2 s. */
  check_stream(argv[1], argv[2], argv[3], 2.0, 322);
  printf("%s\n", failures ? "make check: FAILED" : "make check: all checks passed");
  return failures ? 1 : 0;
}
