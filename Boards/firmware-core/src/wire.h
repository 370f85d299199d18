/*
 * wire.h — message payloads (docs/protocol.md §1, §6): little-endian writers and bounds-checked
 * readers, the board's outgoing messages, and the segment-batch decoder.
 */
#ifndef WIRE_H
#define WIRE_H

#include <stdbool.h>
#include <stdint.h>

/* ---- Writing ---- */

typedef struct {
  uint8_t *bytes;
  uint8_t length;
  uint8_t capacity;
  bool overflow; /* something did not fit (a bug: payloads are sized at build time) */
} wire_writer_t;

void wire_writer_init(wire_writer_t *writer, uint8_t *bytes, uint8_t capacity);
void wire_put_u8(wire_writer_t *writer, uint8_t value);
void wire_put_u16(wire_writer_t *writer, uint16_t value);
void wire_put_u32(wire_writer_t *writer, uint32_t value);
void wire_put_u64(wire_writer_t *writer, uint64_t value);
void wire_put_str(wire_writer_t *writer, const char *text);

/* ---- Reading ---- */

typedef struct {
  const uint8_t *bytes;
  uint8_t length;
  uint8_t position;
  bool failed; /* read past the end (every later read returns 0) */
} wire_reader_t;

void wire_reader_init(wire_reader_t *reader, const uint8_t *bytes, uint8_t length);
uint8_t wire_get_u8(wire_reader_t *reader);
uint16_t wire_get_u16(wire_reader_t *reader);
uint32_t wire_get_u32(wire_reader_t *reader);
uint64_t wire_get_u64(wire_reader_t *reader);
/* True when every byte was read and nothing failed (payloads have no trailing bytes). */
bool wire_reader_done(const wire_reader_t *reader);

/* ---- Board -> host messages ---- */

/* Largest payload the board sends: capabilities, 60 bytes on the Uno + DRV2605L (one channel),
 * 78 on the Uno + H-bridge (two); each channel adds 11 and names may grow. */
#define WIRE_MAX_BOARD_PAYLOAD 96

/* Channels a board announces at most (capabilities and status carry one entry per channel). */
#define WIRE_MAX_CHANNELS 4

/* Feature bits of `capabilities` (§6.3), as a board's BOARD_FEATURES sets them. */
#define BOARD_FEATURE_BRAKING 0x01
#define BOARD_FEATURE_OVERDRIVE 0x02
#define BOARD_FEATURE_FREQUENCY_CONTROL 0x04
#define BOARD_FEATURE_CALIBRATION 0x08
#define BOARD_FEATURE_ROM_EFFECTS 0x10
#define BOARD_FEATURE_SIGNED_LEVELS 0x20
#define BOARD_FEATURE_IDENTITY 0x40 /* v1.1: identity request and identity (§6.11) */

/* A channel's calibration state in `capabilities` (§6.3). */
#define CALIBRATION_NOT_APPLICABLE 0
#define CALIBRATION_UNCALIBRATED 1
#define CALIBRATION_CALIBRATED 2
#define CALIBRATION_FAILED 3

/* One channel as `capabilities` announce it (§6.3). */
typedef struct {
  uint8_t kind;
  uint16_t f0_x10; /* the board file's, or the measured one on a calibrated channel */
  uint16_t q_x100;
  uint16_t freq_min;
  uint16_t freq_max;
  uint8_t amplitude_bits;
  uint8_t calibration;
} wire_channel_info_t;

typedef struct {
  uint8_t protocol_version;
  const char *firmware_name;
  const char *firmware_version;
  const char *board_id;
  uint16_t boot_count;
  uint32_t clock_hz;
  uint16_t frame_period_us;
  uint16_t queue_depth;
  uint16_t watchdog_ms;
  uint16_t features;
  uint8_t channel_count; /* at most WIRE_MAX_CHANNELS */
  wire_channel_info_t channels[WIRE_MAX_CHANNELS];
} wire_capabilities_t;

typedef struct {
  uint16_t queue_fill;
  uint16_t underruns;
  uint16_t late_segments;
  int16_t level;
} wire_channel_status_t;

typedef struct {
  uint32_t board_time;
  uint8_t watchdog; /* 0 idle, 1 armed, 2 fired */
  uint8_t faults;
  uint16_t bad_frames;
  uint8_t channel_count; /* at most WIRE_MAX_CHANNELS */
  wire_channel_status_t channels[WIRE_MAX_CHANNELS];
} wire_status_t;

/* A status payload's size: the board part, then 8 bytes per channel (§6.8). */
#define WIRE_STATUS_SIZE(channel_count) (9u + 8u * (channel_count))

void wire_capabilities(wire_writer_t *writer, const wire_capabilities_t *capabilities);
void wire_clock(wire_writer_t *writer, uint16_t id, uint64_t board_time);
void wire_status(wire_writer_t *writer, const wire_status_t *status);
void wire_reset_notice(wire_writer_t *writer, uint16_t boot_count, uint8_t cause);
void wire_calibration_result(wire_writer_t *writer, uint8_t channel, bool succeeded, uint16_t f0_x10,
                             uint8_t compensation, uint8_t back_emf);
void wire_error(wire_writer_t *writer, uint8_t code, uint8_t message_type, uint16_t detail);
/* `identity` (§6.11): the board's serial, 0 when it has none yet. */
void wire_identity(wire_writer_t *writer, uint32_t serial);

/* ---- Segment batches (queue / replace, §6.5) ---- */

/* Segment flag bits. */
#define SEG_LEVEL_JUMP 0x01
#define SEG_LEVEL_RAMP 0x02
#define SEG_FREQ_JUMP 0x04
#define SEG_FREQ_RAMP 0x08
#define SEG_BRAKE 0x10

/* Frames in a segment: a varint of at most 4 bytes (28 bits). */
#define WIRE_MAX_SEGMENT_FRAMES 0x0FFFFFFFUL

typedef struct {
  uint8_t flags;
  uint32_t frames;
  int16_t start_level;
  int16_t end_level;
  uint16_t start_frequency;
  uint16_t end_frequency;
} wire_segment_t;

typedef struct {
  uint8_t channel;
  uint32_t start_time;
  uint8_t level_bytes;
  uint8_t count;
  /* iteration state */
  const uint8_t *at;  /* the next byte */
  const uint8_t *end; /* past the last */
  uint8_t index;
  int16_t level; /* previous end values carried forward */
  uint16_t frequency;
} wire_batch_t;

/* Reads the batch header; false on a malformed header (levelBytes not 1 or 2, truncated). */
bool wire_batch_begin(wire_batch_t *batch, const uint8_t *payload, uint8_t length);

/* The next segment. Returns 1 with a segment, 0 at a clean end (every byte used), -1 when the
 * payload is malformed (truncated, 0 frames, a varint over 4 bytes, trailing bytes).
 *
 * Inline, on a cursor: queue_insert_batch decodes every batch through it, and the board must
 * keep up with the line (a 238-byte batch every 5 ms at 500000 baud); out-of-line,
 * bounds-checked reads of each field took ~560 cycles a segment on the AVR, this ~190. */
static inline int wire_batch_next(wire_batch_t *batch, wire_segment_t *segment) {
  const uint8_t *at = batch->at, *end = batch->end;
  if (batch->index >= batch->count) return at == end ? 0 : -1;
  if (at == end) return -1;
  uint8_t flags = *at++;
  /* frames: unsigned LEB128, at most 4 bytes (28 bits). */
  if (at == end) return -1;
  uint8_t byte = *at++;
  uint32_t frames = byte & 0x7Fu;
  if (byte & 0x80u) {
    if (at == end) return -1;
    byte = *at++;
    uint16_t low = (uint16_t)((uint16_t)frames | (uint16_t)(byte & 0x7Fu) << 7);
    frames = low;
    if (byte & 0x80u) {
      if (at == end) return -1;
      byte = *at++;
      frames |= (uint32_t)(byte & 0x7Fu) << 14;
      if (byte & 0x80u) {
        if (at == end) return -1;
        byte = *at++;
        frames |= (uint32_t)(byte & 0x7Fu) << 21;
        if (byte & 0x80u) return -1; /* a fifth byte */
      }
    }
  }
  if (frames == 0) return -1;
  /* The fields the flags announce must all be there. */
  uint8_t level_bytes = batch->level_bytes, needed = 0;
  if (flags & SEG_LEVEL_JUMP) needed = level_bytes;
  if (flags & SEG_LEVEL_RAMP) needed = (uint8_t)(needed + level_bytes);
  if (flags & SEG_FREQ_JUMP) needed = (uint8_t)(needed + 2u);
  if (flags & SEG_FREQ_RAMP) needed = (uint8_t)(needed + 2u);
  if ((uint8_t)(end - at) < needed) return -1;
  int16_t level = batch->level;
  if (flags & SEG_LEVEL_JUMP) {
    level = level_bytes == 2 ? (int16_t)(uint16_t)(at[0] | (uint16_t)at[1] << 8) : (int16_t)(int8_t)at[0];
    at += level_bytes;
  }
  segment->start_level = level;
  if (flags & SEG_LEVEL_RAMP) {
    level = level_bytes == 2 ? (int16_t)(uint16_t)(at[0] | (uint16_t)at[1] << 8) : (int16_t)(int8_t)at[0];
    at += level_bytes;
  }
  segment->end_level = level;
  uint16_t frequency = batch->frequency;
  if (flags & SEG_FREQ_JUMP) {
    frequency = (uint16_t)(at[0] | (uint16_t)at[1] << 8);
    at += 2;
  }
  segment->start_frequency = frequency;
  if (flags & SEG_FREQ_RAMP) {
    frequency = (uint16_t)(at[0] | (uint16_t)at[1] << 8);
    at += 2;
  }
  segment->end_frequency = frequency;
  segment->flags = flags;
  segment->frames = frames;
  batch->at = at;
  batch->level = level;
  batch->frequency = frequency;
  batch->index++;
  return 1;
}

#endif
