/*
 * fuzz_seeds.c — writes the seed corpus of the fuzz harness (`make fuzz-seeds`):
 *
 *   fuzz-seeds-gen PATH/TO/docs/protocol.md OUTPUT_DIR
 *
 * One input per test vector of docs/protocol.md §9 (the lines in the code blocks after
 * `<!-- vectors:begin -->` and `<!-- link-vectors:begin -->`), its wire bytes fed raw to the
 * UART; one per vector that decodes, its message sent by the host in its own session (segment
 * batches also relative to the board clock, the ROM effect too); and hand-made sessions:
 * identify, queue, time, replace, stop, status, watchdog, calibration, ROM effects, link
 * recovery, the Uno's UART, the 32-bit clock wrap, identity (v1.1). Input format: fuzz_board.h.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cobs.h"
#include "frame.h"
#include "fuzz_board.h"

/* ---- Building an input ---- */

typedef struct {
  uint8_t bytes[4096];
  size_t length;
} seed_t;

static const char *output_dir;
static int written;

static void put(seed_t *s, uint8_t byte) {
  if (s->length >= sizeof s->bytes) {
    fprintf(stderr, "fuzz-seeds-gen: a seed is too long\n");
    exit(EXIT_FAILURE);
  }
  s->bytes[s->length++] = byte;
}

static void put_bytes(seed_t *s, const uint8_t *bytes, size_t count) {
  for (size_t i = 0; i < count; i++) put(s, bytes[i]);
}

static void begin_host(seed_t *s, uint8_t config, bool live_host) {
  s->length = 0;
  put(s, config);
  put(s, 0);                                       /* EEPROM 0: boot 1 */
  put(s, (uint8_t)(1 | (live_host ? FUZZ_CFG2_LIVE_HOST : 0))); /* power-on */
}

/* A live host (reads and acks at once) for the sessions; the vectors' seeds read on READ. */
static void begin(seed_t *s, uint8_t config) { begin_host(s, config, true); }

static void raw(seed_t *s, const uint8_t *bytes, uint8_t count) {
  put(s, FUZZ_OP_RAW);
  put(s, count);
  put_bytes(s, bytes, count);
}

static void send(seed_t *s, uint8_t type, const uint8_t *payload, uint8_t length) {
  put(s, FUZZ_OP_SEND);
  put(s, type);
  put(s, length);
  put_bytes(s, payload, length);
}

static void send0(seed_t *s, uint8_t type) { send(s, type, 0, 0); }

/* A batch at board now + offset * 2000 ticks (frames): body from levelBytes on. */
static void batch(seed_t *s, bool replace, int16_t offset_frames, const uint8_t *body, uint8_t length) {
  put(s, FUZZ_OP_BATCH);
  put(s, (uint8_t)((replace ? FUZZ_BATCH_REPLACE : 0) | FUZZ_BATCH_SCALE_FRAME));
  put(s, (uint8_t)offset_frames);
  put(s, (uint8_t)((uint16_t)offset_frames >> 8));
  put(s, length);
  put_bytes(s, body, length);
}

static void rom(seed_t *s, uint8_t channel, uint8_t library, uint8_t effect, int16_t offset64) {
  put(s, FUZZ_OP_ROM);
  put(s, channel);
  put(s, library);
  put(s, effect);
  put(s, (uint8_t)offset64);
  put(s, (uint8_t)((uint16_t)offset64 >> 8));
}

static void frame_op(seed_t *s, uint8_t mode, uint8_t version, uint8_t flags, uint8_t session, uint8_t seq, uint8_t ack,
                     uint8_t type, const uint8_t *payload, uint8_t length) {
  put(s, FUZZ_OP_FRAME);
  put(s, mode);
  put(s, version);
  put(s, flags);
  put(s, session);
  put(s, seq);
  put(s, ack);
  put(s, type);
  put(s, length);
  put_bytes(s, payload, length);
}

static void advance_ms(seed_t *s, unsigned ms) {
  while (ms > 0) {
    unsigned step;
    if (ms >= 20) {
      step = ms / 20 > 255 ? 255 : ms / 20;
      put(s, FUZZ_OP_ADVANCE);
      put(s, FUZZ_ADVANCE_20_MS << 6);
      put(s, (uint8_t)step);
      ms -= step * 20;
    } else {
      put(s, FUZZ_OP_ADVANCE);
      put(s, FUZZ_ADVANCE_MS << 6);
      put(s, (uint8_t)ms);
      ms = 0;
    }
  }
}

static void op(seed_t *s, uint8_t code) { put(s, code); }

static void save(const seed_t *s, const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", output_dir, name);
  FILE *file = fopen(path, "wb");
  if (!file || fwrite(s->bytes, 1, s->length, file) != s->length || fclose(file) != 0) {
    fprintf(stderr, "fuzz-seeds-gen: cannot write %s\n", path);
    exit(EXIT_FAILURE);
  }
  written++;
}

/* ---- Protocol vectors ---- */

static void vector_seeds(const char *name, const uint8_t *wire, uint16_t count) {
  seed_t s;
  char file[96];
  if (count > 255) return;

  /* Its wire bytes, raw: the decoder's work (session 0x5A, not followed: then ignored). */
  begin_host(&s, 0, false);
  raw(&s, wire, (uint8_t)count);
  advance_ms(&s, 2);
  op(&s, FUZZ_OP_READ);
  snprintf(file, sizeof file, "vector-%s", name);
  save(&s, file);

  /* After the host's session started, the same bytes arrive mid-session. */
  begin(&s, 0);
  send0(&s, MSG_IDENTIFY);
  advance_ms(&s, 1);
  op(&s, FUZZ_OP_READ);
  raw(&s, wire, (uint8_t)count);
  advance_ms(&s, 2);
  op(&s, FUZZ_OP_READ);
  snprintf(file, sizeof file, "vector-%s-in-session", name);
  save(&s, file);

  /* Its message from the host, in the host's session. */
  uint8_t raw_frame[FRAME_MAX_RAW];
  if (count < 2 || wire[count - 1] != 0) return;
  int length = cobs_decode_buffer(wire, (uint16_t)(count - 1), raw_frame);
  frame_t frame;
  if (length <= 0 || !frame_parse(raw_frame, (uint16_t)length, &frame)) {
    fprintf(stderr, "fuzz-seeds-gen: vector %s does not decode\n", name);
    exit(EXIT_FAILURE);
  }
  begin_host(&s, 0, false);
  send(&s, frame.type, frame.payload, frame.length);
  advance_ms(&s, 5);
  op(&s, FUZZ_OP_READ);
  advance_ms(&s, 30);
  send0(&s, MSG_STATUS_REQUEST);
  advance_ms(&s, 1);
  op(&s, FUZZ_OP_READ);
  snprintf(file, sizeof file, "message-%s", name);
  save(&s, file);

  /* Segment batches and the ROM effect again, timed from the board's now. */
  if ((frame.type == MSG_QUEUE_SEGMENTS || frame.type == MSG_REPLACE_SEGMENTS) && frame.length > 5) {
    begin(&s, 0);
    send0(&s, MSG_IDENTIFY);
    batch(&s, frame.type == MSG_REPLACE_SEGMENTS, 2, frame.payload + 5, (uint8_t)(frame.length - 5));
    advance_ms(&s, 5);
    op(&s, FUZZ_OP_READ);
    batch(&s, true, 1, frame.payload + 5, (uint8_t)(frame.length - 5));
    advance_ms(&s, 60);
    send0(&s, MSG_HEARTBEAT);
    advance_ms(&s, 80);
    send0(&s, MSG_HEARTBEAT);
    advance_ms(&s, 80);
    op(&s, FUZZ_OP_READ);
    snprintf(file, sizeof file, "batch-%s", name);
    save(&s, file);
  }
  if (frame.type == MSG_PLAY_ROM_EFFECT && frame.length == 7) {
    begin(&s, 0);
    rom(&s, frame.payload[0], frame.payload[1], frame.payload[2], 40);
    advance_ms(&s, 60);
    op(&s, FUZZ_OP_READ);
    send0(&s, MSG_HEARTBEAT);
    advance_ms(&s, 80);
    op(&s, FUZZ_OP_READ);
    snprintf(file, sizeof file, "rom-%s", name);
    save(&s, file);
  }
}

static int read_vectors(const char *path) {
  FILE *file = fopen(path, "r");
  if (!file) {
    fprintf(stderr, "fuzz-seeds-gen: cannot open %s\n", path);
    exit(EXIT_FAILURE);
  }
  char line[4096];
  int found = 0;
  bool marked = false, inside = false;
  while (fgets(line, sizeof line, file)) {
    if (strstr(line, "vectors:begin -->")) {
      marked = true;
      continue;
    }
    if (strncmp(line, "```", 3) == 0) {
      if (inside) marked = inside = false;
      else if (marked) inside = true;
      continue;
    }
    if (!inside) continue;
    char name[64];
    int consumed = 0;
    if (sscanf(line, "%63s%n", name, &consumed) != 1) continue;
    char *cursor = line + consumed;
    uint8_t wire[512];
    uint16_t count = 0;
    unsigned value;
    while (count < sizeof wire && sscanf(cursor, "%x%n", &value, &consumed) == 1) {
      wire[count++] = (uint8_t)value;
      cursor += consumed;
    }
    vector_seeds(name, wire, count);
    found++;
  }
  fclose(file);
  return found;
}

/* ---- Hand-made sessions ---- */

/* Batch bodies (levelBytes, count, segments). */
static const uint8_t constant_100[] = {2, 1, 0x01, 100, 100, 0};          /* 100 frames at 100 */
static const uint8_t ramp_up_down[] = {2, 2, 0x03, 50, 0, 0, 255, 0,      /* 50 frames 0 -> 255 */
                                       0x02, 30, 0, 0};                   /* 30 frames 255 -> 0 */
static const uint8_t mixed[] = {1, 4, 0x01, 9, 0x7F,                     /* 9 frames at 127 */
                                0x11, 5, 0x81,                           /* 5 at -127, brake */
                                0x03, 0xC8, 0x01, 20, 0,                 /* 200 frames 20 -> 0 */
                                0x0F, 3, 10, 20, 0xA6, 0x00, 0xB4, 0x00}; /* 3 frames 10 -> 20, 166 -> 180 Hz */
static const uint8_t wide_levels[] = {2, 2, 0x03, 10, 0x00, 0x80, 0xFF, 0x7F, /* -32768 -> 32767 */
                                      0x01, 0x80, 0x80, 0x04, 0x2C, 0x01};     /* 65536 frames at 300 */

static void hand_made(void) {
  seed_t s;
  uint8_t payload[64];

  /* identify, queue, play, status, stop, status. */
  begin(&s, 0);
  send0(&s, MSG_IDENTIFY);
  advance_ms(&s, 1);
  op(&s, FUZZ_OP_READ);
  batch(&s, false, 2, mixed, sizeof mixed);
  advance_ms(&s, 10);
  op(&s, FUZZ_OP_READ);
  send0(&s, MSG_STATUS_REQUEST);
  advance_ms(&s, 20);
  op(&s, FUZZ_OP_READ);
  op(&s, FUZZ_OP_STOP);
  op(&s, 0xFF);
  advance_ms(&s, 5);
  send0(&s, MSG_STATUS_REQUEST);
  advance_ms(&s, 2);
  op(&s, FUZZ_OP_READ);
  save(&s, "session-queue-stop");
  s.bytes[2] &= (uint8_t)~FUZZ_CFG2_LIVE_HOST; /* the same, the host reading only on READ */
  save(&s, "session-queue-stop-reads");
  s.bytes[2] |= FUZZ_CFG2_LIVE_HOST | 5u << FUZZ_CFG2_LATE_SHIFT; /* polls up to 1000 ticks late */
  save(&s, "session-queue-stop-late");

  /* Replace mid-ramp, queue behind it, queue full. */
  begin(&s, 0);
  send0(&s, MSG_IDENTIFY);
  batch(&s, false, 1, ramp_up_down, sizeof ramp_up_down);
  advance_ms(&s, 20);
  batch(&s, true, 0, constant_100, sizeof constant_100);
  batch(&s, false, 100, ramp_up_down, sizeof ramp_up_down);
  op(&s, FUZZ_OP_READ);
  advance_ms(&s, 40);
  for (int i = 0; i < 18; i++) batch(&s, false, (int16_t)(200 + 100 * i), ramp_up_down, sizeof ramp_up_down);
  advance_ms(&s, 2);
  op(&s, FUZZ_OP_READ);
  send0(&s, MSG_HEARTBEAT);
  advance_ms(&s, 60);
  op(&s, FUZZ_OP_STOP);
  op(&s, 0x01);
  op(&s, FUZZ_OP_READ);
  save(&s, "session-replace-full");
  s.bytes[2] |= 15u << FUZZ_CFG2_LATE_SHIFT; /* polls up to 1.5 frames late */
  save(&s, "session-replace-full-late");

  /* A late batch, wide levels, a gap, an underrun. */
  begin(&s, 0);
  send0(&s, MSG_IDENTIFY);
  batch(&s, false, -5, constant_100, sizeof constant_100);
  batch(&s, false, 150, wide_levels, sizeof wide_levels);
  advance_ms(&s, 80);
  send0(&s, MSG_HEARTBEAT);
  advance_ms(&s, 80);
  send0(&s, MSG_STATUS_REQUEST);
  advance_ms(&s, 1);
  op(&s, FUZZ_OP_READ);
  save(&s, "session-late-gap-wide");

  /* The watchdog: 10 ms, silence, status says fired. */
  begin(&s, 0);
  payload[0] = 10;
  payload[1] = 0;
  send(&s, MSG_SET_WATCHDOG, payload, 2);
  batch(&s, false, 1, constant_100, sizeof constant_100);
  advance_ms(&s, 30);
  op(&s, FUZZ_OP_READ);
  send0(&s, MSG_STATUS_REQUEST);
  advance_ms(&s, 1);
  op(&s, FUZZ_OP_READ);
  send0(&s, MSG_STATUS_REQUEST);
  advance_ms(&s, 1);
  op(&s, FUZZ_OP_READ);
  save(&s, "session-watchdog");

  /* Clock queries, bad payloads, unknown and board-to-host types, a bad channel. */
  begin(&s, 0);
  payload[0] = 0x34;
  payload[1] = 0x12;
  send(&s, MSG_CLOCK_QUERY, payload, 2);
  send(&s, MSG_CLOCK_QUERY, payload, 1);
  send(&s, MSG_IDENTIFY, payload, 1);
  send0(&s, 0x42);
  send0(&s, MSG_STATUS);
  advance_ms(&s, 2);
  op(&s, FUZZ_OP_READ);
  payload[0] = 1;
  send(&s, MSG_CALIBRATE, payload, 1);
  send(&s, MSG_STOP, payload, 0);
  advance_ms(&s, 2);
  op(&s, FUZZ_OP_READ);
  save(&s, "session-errors");

  /* Calibration: passes; fails (DIAG); never ends (timeout); no chip. */
  static const struct {
    uint8_t config;
    const char *name;
  } calibrations[] = {{0, "calibrate"},
                      {FUZZ_CFG_CALIBRATION_FAILS, "calibrate-diag-fails"},
                      {FUZZ_CFG_CALIBRATION_HANGS, "calibrate-timeout"},
                      {FUZZ_CFG_NO_CHIP, "calibrate-no-chip"}};
  for (size_t c = 0; c < sizeof calibrations / sizeof calibrations[0]; c++) {
    begin(&s, calibrations[c].config);
    send0(&s, MSG_IDENTIFY);
    batch(&s, false, 1, constant_100, sizeof constant_100);
    advance_ms(&s, 10);
    payload[0] = 0;
    send(&s, MSG_CALIBRATE, payload, 1);
    advance_ms(&s, 5);
    batch(&s, false, 1, constant_100, sizeof constant_100);
    send(&s, MSG_CALIBRATE, payload, 1);
    rom(&s, 0, 6, 1, 100);
    advance_ms(&s, 3000);
    op(&s, FUZZ_OP_READ);
    send0(&s, MSG_IDENTIFY);
    advance_ms(&s, 2);
    op(&s, FUZZ_OP_READ);
    save(&s, calibrations[c].name);
  }

  /* ROM effects: one plays and ends; one replaced; one in the past; a long one times out
   * (watchdog 5 s, heartbeats), one stopped. */
  begin(&s, 0);
  rom(&s, 0, 6, 47, 50);
  rom(&s, 0, 6, 1, 60);
  rom(&s, 0, 1, 1, -100);
  rom(&s, 0, 8, 1, 10);
  rom(&s, 0, 1, 124, 10);
  batch(&s, false, 1, constant_100, sizeof constant_100);
  advance_ms(&s, 90);
  send0(&s, MSG_HEARTBEAT);
  advance_ms(&s, 90);
  op(&s, FUZZ_OP_READ);
  save(&s, "rom-effects");

  begin(&s, FUZZ_CFG_LONG_ROM);
  payload[0] = 0x88;
  payload[1] = 0x13; /* 5000 ms */
  send(&s, MSG_SET_WATCHDOG, payload, 2);
  rom(&s, 0, 6, 1, 10);
  for (int i = 0; i < 6; i++) {
    advance_ms(&s, 1000);
    send0(&s, MSG_HEARTBEAT);
    op(&s, FUZZ_OP_READ);
  }
  rom(&s, 0, 6, 2, 10);
  advance_ms(&s, 100);
  op(&s, FUZZ_OP_STOP);
  op(&s, 0xFF);
  save(&s, "rom-timeout-stop");

  /* Link recovery: a gap (NAK), a poll ahead, duplicate acks, a stranger's poll, a NAK alone,
   * another version, a host restart, the board's window full without acks. */
  begin(&s, FUZZ_CFG_NO_AUTO_ACK);
  send0(&s, MSG_IDENTIFY);
  advance_ms(&s, 1);
  op(&s, FUZZ_OP_READ);
  frame_op(&s, FUZZ_FRAME_HOST_SESSION | FUZZ_FRAME_RELATIVE_SEQ | FUZZ_FRAME_RELATIVE_ACK | FUZZ_FRAME_VERSION_1, 0,
           FLAG_RELIABLE | FLAG_ACK_VALID, 0, 2, 0, MSG_HEARTBEAT, 0, 0);
  frame_op(&s, FUZZ_FRAME_HOST_SESSION | FUZZ_FRAME_RELATIVE_SEQ | FUZZ_FRAME_RELATIVE_ACK | FUZZ_FRAME_VERSION_1, 0,
           FLAG_ACK_VALID | FLAG_POLL, 0, 3, 0, MSG_ACK, 0, 0);
  advance_ms(&s, 1);
  op(&s, FUZZ_OP_READ);
  send0(&s, MSG_STATUS_REQUEST);
  send0(&s, MSG_STATUS_REQUEST);
  send0(&s, MSG_STATUS_REQUEST);
  send0(&s, MSG_STATUS_REQUEST);
  send0(&s, MSG_STATUS_REQUEST);
  advance_ms(&s, 1);
  op(&s, FUZZ_OP_READ);
  op(&s, FUZZ_OP_ACK);
  op(&s, FUZZ_OP_ACK);
  op(&s, FUZZ_OP_ACK);
  advance_ms(&s, 40);
  frame_op(&s, FUZZ_FRAME_VERSION_1, 0, FLAG_ACK_VALID | FLAG_POLL, 0x13, 5, 0, MSG_ACK, 0, 0);
  frame_op(&s, FUZZ_FRAME_VERSION_1, 0, FLAG_NAK, 0x77, 0, 0, MSG_ACK, 0, 0);
  frame_op(&s, 0, 2, FLAG_RELIABLE, 0x77, 0, 0, MSG_IDENTIFY, 0, 0);
  advance_ms(&s, 100);
  op(&s, FUZZ_OP_READ);
  op(&s, FUZZ_OP_RESYNC);
  op(&s, 0);
  op(&s, FUZZ_OP_AUTO_ACK);
  send0(&s, MSG_IDENTIFY);
  advance_ms(&s, 5);
  op(&s, FUZZ_OP_READ);
  op(&s, FUZZ_OP_RESYNC);
  op(&s, (0x21 << 1) | 1);
  send0(&s, MSG_IDENTIFY);
  advance_ms(&s, 5);
  op(&s, FUZZ_OP_READ);
  advance_ms(&s, 3000);
  op(&s, FUZZ_OP_READ);
  save(&s, "link-recovery");

  /* The Uno's UART: capabilities and statuses back to back through 127 bytes at 500000
   * baud, nothing acknowledged for a while (retransmissions, polls, the link lost). */
  begin(&s, FUZZ_CFG_UNO_UART | FUZZ_CFG_NO_AUTO_ACK);
  send0(&s, MSG_IDENTIFY);
  send0(&s, MSG_IDENTIFY);
  send0(&s, MSG_STATUS_REQUEST);
  payload[0] = 1;
  payload[1] = 2;
  send(&s, MSG_CLOCK_QUERY, payload, 2);
  batch(&s, false, 3, ramp_up_down, sizeof ramp_up_down);
  advance_ms(&s, 30);
  op(&s, FUZZ_OP_READ);
  advance_ms(&s, 500);
  op(&s, FUZZ_OP_AUTO_ACK);
  op(&s, FUZZ_OP_READ);
  advance_ms(&s, 5);
  op(&s, FUZZ_OP_READ);
  op(&s, FUZZ_OP_AUTO_ACK);
  advance_ms(&s, 4000);
  op(&s, FUZZ_OP_READ);
  save(&s, "uno-uart");

  /* Boot a second before the low 32 bits wrap; play across the wrap. */
  begin(&s, 2);
  send0(&s, MSG_IDENTIFY);
  batch(&s, false, 450, ramp_up_down, sizeof ramp_up_down);
  batch(&s, false, 530, constant_100, sizeof constant_100);
  for (int i = 0; i < 12; i++) {
    advance_ms(&s, 60);
    send0(&s, MSG_HEARTBEAT);
  }
  payload[0] = 9;
  payload[1] = 9;
  send(&s, MSG_CLOCK_QUERY, payload, 2);
  advance_ms(&s, 2);
  op(&s, FUZZ_OP_READ);
  save(&s, "clock-wrap");
  s.bytes[2] |= 3u << FUZZ_CFG2_LATE_SHIFT;
  save(&s, "clock-wrap-late");

  begin(&s, 3);
  send0(&s, MSG_IDENTIFY);
  batch(&s, false, 0, constant_100, sizeof constant_100);
  rom(&s, 0, 6, 1, 100);
  advance_ms(&s, 50);
  op(&s, FUZZ_OP_READ);
  save(&s, "clock-wrap-at-boot");

  /* Times far apart (§6.2: within 2^31 ticks of now, not of each other): a batch ~1074 s
   * ahead, then a late one from ~268 s ago that plays now and cuts it. */
  begin(&s, 0);
  static const uint8_t ten_at_100[] = {2, 1, 0x01, 10, 100, 0};
  static const uint8_t long_at_50[] = {2, 1, 0x01, 0xC0, 0x9A, 0x0C, 50, 0}; /* 200000 frames */
  put(&s, FUZZ_OP_BATCH);
  put(&s, FUZZ_BATCH_SCALE_65536);
  put(&s, 0xFF);
  put(&s, 0x7F); /* +32767 * 65536 ticks */
  put(&s, sizeof ten_at_100);
  put_bytes(&s, ten_at_100, sizeof ten_at_100);
  put(&s, FUZZ_OP_BATCH);
  put(&s, FUZZ_BATCH_SCALE_65536);
  put(&s, 0x00);
  put(&s, 0xF0); /* -4096 * 65536 ticks */
  put(&s, sizeof long_at_50);
  put_bytes(&s, long_at_50, sizeof long_at_50);
  advance_ms(&s, 5);
  send0(&s, MSG_STATUS_REQUEST);
  advance_ms(&s, 1);
  op(&s, FUZZ_OP_READ);
  save(&s, "times-far-apart");

  /* The driver stops answering mid-playback, then answers again. */
  begin(&s, 0);
  send0(&s, MSG_IDENTIFY);
  batch(&s, false, 1, ramp_up_down, sizeof ramp_up_down);
  advance_ms(&s, 10);
  op(&s, FUZZ_OP_I2C);
  advance_ms(&s, 10);
  op(&s, FUZZ_OP_I2C);
  advance_ms(&s, 10);
  payload[0] = 0;
  send(&s, MSG_CALIBRATE, payload, 1);
  advance_ms(&s, 30);
  op(&s, FUZZ_OP_I2C);
  advance_ms(&s, 30);
  op(&s, FUZZ_OP_READ);
  save(&s, "i2c-glitch");

  /* v1.1 identity: a query, bad payloads (1 and 5 bytes, assign 0), an assign, another assign
   * (kept: the first), a query; then a calibration and capabilities (the measured f0). Each
   * request is answered before the next is sent (every answer takes a slot of the board's
   * window of 4, and this host does not resend what the board held back). */
  begin(&s, 0);
  static const uint8_t assign[5] = {0x4D, 0x3C, 0x2B, 0x1A, 0x00};
  static const uint8_t zero[4] = {0, 0, 0, 0};
  static const uint8_t other[4] = {0x01, 0x00, 0x00, 0x80};
  static const struct {
    const uint8_t *payload;
    uint8_t length;
  } identity_requests[] = {{NULL, 0}, {assign, 1}, {assign, 5}, {zero, 4}, {assign, 4}, {other, 4}, {NULL, 0}};
  send0(&s, MSG_IDENTIFY);
  advance_ms(&s, 2);
  for (size_t r = 0; r < sizeof identity_requests / sizeof identity_requests[0]; r++) {
    send(&s, MSG_IDENTITY_REQUEST, identity_requests[r].payload, identity_requests[r].length);
    advance_ms(&s, 2);
  }
  payload[0] = 0;
  send(&s, MSG_CALIBRATE, payload, 1);
  advance_ms(&s, 1100);
  send0(&s, MSG_IDENTIFY);
  advance_ms(&s, 2);
  op(&s, FUZZ_OP_READ);
  save(&s, "session-identity");

  /* Garbage: an overlong run, a bad CRC, a wrong length byte, zeros. */
  begin(&s, 0);
  uint8_t junk[255];
  for (int i = 0; i < 255; i++) junk[i] = (uint8_t)(i % 251 + 1);
  raw(&s, junk, 255);
  raw(&s, junk, 255);
  put(&s, FUZZ_OP_COBS);
  put(&s, 9);
  static const uint8_t bad_crc[] = {1, 3, 0x77, 0, 0, 1, 0, 0x12, 0x34};
  put_bytes(&s, bad_crc, sizeof bad_crc);
  put(&s, FUZZ_OP_COBS);
  put(&s, 9);
  static const uint8_t bad_length[] = {1, 3, 0x77, 0, 0, 1, 5, 0x70, 0x78};
  put_bytes(&s, bad_length, sizeof bad_length);
  static const uint8_t zeros[] = {0, 0, 0, 0};
  raw(&s, zeros, sizeof zeros);
  send0(&s, MSG_STATUS_REQUEST);
  advance_ms(&s, 2);
  op(&s, FUZZ_OP_READ);
  save(&s, "garbage");
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s PATH/TO/docs/protocol.md OUTPUT_DIR\n", argv[0]);
    return EXIT_FAILURE;
  }
  output_dir = argv[2];
  int vectors = read_vectors(argv[1]);
  if (vectors < 17) {
    fprintf(stderr, "fuzz-seeds-gen: only %d vectors in %s\n", vectors, argv[1]);
    return EXIT_FAILURE;
  }
  hand_made();
  printf("fuzz-seeds-gen: %d vectors, %d seeds in %s\n", vectors, written, output_dir);
  return EXIT_SUCCESS;
}
