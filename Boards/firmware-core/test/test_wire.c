/*
 * test_wire.c — CRC, COBS, frame checks, segment-batch decoding limits and the rounding rule.
 */
#include <math.h>
#include <string.h>

#include "cobs.h"
#include "crc16.h"
#include "frame.h"
#include "queue.h"
#include "test.h"
#include "wire.h"

static void crc_check_value(void) {
  CHECK_EQ(crc16((const uint8_t *)"123456789", 9), 0x6F91);
  CHECK_EQ(crc16((const uint8_t *)"", 0), 0xFFFF);
}

/* The Swift encoder's algorithm, written independently, as the reference. */
static size_t reference_cobs(const uint8_t *in, size_t n, uint8_t *out) {
  size_t code_index = 0, written = 1;
  uint8_t code = 1;
  for (size_t i = 0; i < n; i++) {
    if (in[i] == 0) {
      out[code_index] = code;
      code_index = written++;
      code = 1;
    } else {
      out[written++] = in[i];
      if (++code == 0xFF) {
        out[code_index] = code;
        code_index = written++;
        code = 1;
      }
    }
  }
  out[code_index] = code;
  return written;
}

static void cobs_round_trips(void) {
  static const uint16_t lengths[] = {0, 1, 2, 253, 254, 255, 256, 508, 509, 600};
  uint8_t input[600], encoded[620], expected[620], decoded[620];
  for (int pattern = 0; pattern < 3; pattern++) {
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
      uint16_t n = lengths[l];
      for (uint16_t i = 0; i < n; i++) {
        input[i] = pattern == 0 ? 0 : pattern == 1 ? (uint8_t)(i % 255 + 1) : (uint8_t)((i * 7) % 5);
      }
      uint16_t length = cobs_encode_buffer(input, n, encoded);
      size_t reference = reference_cobs(input, n, expected);
      CHECK_EQ(length, reference);
      CHECK(memcmp(encoded, expected, length) == 0);
      CHECK(length <= COBS_ENCODED_SIZE(n));
      CHECK(memchr(encoded, 0, length) == NULL);
      CHECK_EQ(cobs_decode_buffer(encoded, length, decoded), n);
      CHECK(memcmp(decoded, input, n) == 0);
    }
  }
}

static void cobs_rejects_invalid_runs(void) {
  uint8_t out[16];
  const uint8_t past_end[] = {0x05, 0x11, 0x22};
  CHECK_EQ(cobs_decode_buffer(past_end, sizeof past_end, out), -1);
  /* A run longer than the limit is dropped without buffering it whole. */
  cobs_decoder_t decoder;
  uint8_t buffer[8];
  cobs_decoder_init(&decoder, buffer, sizeof buffer, 10);
  for (int i = 0; i < 40; i++) CHECK_EQ(cobs_decoder_feed(&decoder, 0x01), COBS_MORE);
  CHECK_EQ(cobs_decoder_feed(&decoder, 0), COBS_BAD);
  /* The decoder resynchronises at the delimiter: the next run decodes. */
  const uint8_t good[] = {0x03, 0x41, 0x42};
  for (size_t i = 0; i < sizeof good; i++) cobs_decoder_feed(&decoder, good[i]);
  CHECK_EQ(cobs_decoder_feed(&decoder, 0), COBS_FRAME);
  CHECK_EQ(decoder.length, 2);
  CHECK(buffer[0] == 0x41 && buffer[1] == 0x42);
}

static void frames_need_crc_and_length(void) {
  uint8_t raw[FRAME_MAX_RAW];
  const uint8_t payload[] = {0x02, 0x01};
  frame_t frame = {1, FLAG_RELIABLE, 0x5A, 7, 3, MSG_CLOCK_QUERY, 2, payload};
  uint16_t length = frame_build(raw, &frame);
  frame_t parsed;
  CHECK(frame_parse(raw, length, &parsed));
  CHECK_EQ(parsed.type, MSG_CLOCK_QUERY);
  CHECK_EQ(parsed.length, 2);
  raw[8] ^= 0x01; /* a payload bit flips */
  CHECK(!frame_parse(raw, length, &parsed));
  raw[8] ^= 0x01;
  CHECK(!frame_parse(raw, (uint16_t)(length - 1), &parsed)); /* a lost byte */
  CHECK(!frame_parse(raw, 8, &parsed));                      /* shorter than a header + CRC */
  /* A duplicated trailing zero keeps the CRC valid but not the length byte. */
  for (uint16_t n = 0; n < 5000; n++) {
    const uint8_t p[2] = {(uint8_t)n, (uint8_t)(n >> 8)};
    frame_t f = {1, FLAG_RELIABLE, 0, 0, 0, 5, 2, p};
    uint16_t count = frame_build(raw, &f);
    if (raw[count - 1] != 0) continue;
    raw[count] = 0;
    CHECK(!frame_parse(raw, (uint16_t)(count + 1), &parsed));
    return;
  }
  CHECK(!"no frame with a zero CRC byte found");
}

static void batch_decoding_limits(void) {
  wire_batch_t batch;
  wire_segment_t segment;
  /* levelBytes 3 is refused. */
  const uint8_t bad_width[] = {0, 1, 0, 0, 0, 3, 0};
  CHECK(!wire_batch_begin(&batch, bad_width, sizeof bad_width));
  /* A 5-byte varint is refused, a 4-byte one is the 28-bit maximum. */
  const uint8_t long_varint[] = {0, 0, 0, 0, 0, 1, 1, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x01};
  CHECK(wire_batch_begin(&batch, long_varint, sizeof long_varint));
  CHECK_EQ(wire_batch_next(&batch, &segment), -1);
  const uint8_t max_varint[] = {0, 0, 0, 0, 0, 1, 1, 0x00, 0xFF, 0xFF, 0xFF, 0x7F};
  CHECK(wire_batch_begin(&batch, max_varint, sizeof max_varint));
  CHECK_EQ(wire_batch_next(&batch, &segment), 1);
  CHECK_EQ(segment.frames, 0x0FFFFFFF);
  CHECK_EQ(wire_batch_next(&batch, &segment), 0);
  /* 0 frames, a truncated level and trailing bytes are refused. */
  const uint8_t zero_frames[] = {0, 0, 0, 0, 0, 1, 1, 0x00, 0x00};
  CHECK(wire_batch_begin(&batch, zero_frames, sizeof zero_frames));
  CHECK_EQ(wire_batch_next(&batch, &segment), -1);
  const uint8_t truncated[] = {0, 0, 0, 0, 0, 2, 1, 0x01, 0x05, 0x10};
  CHECK(wire_batch_begin(&batch, truncated, sizeof truncated));
  CHECK_EQ(wire_batch_next(&batch, &segment), -1);
  const uint8_t trailing[] = {0, 0, 0, 0, 0, 1, 1, 0x00, 0x05, 0xAA};
  CHECK(wire_batch_begin(&batch, trailing, sizeof trailing));
  CHECK_EQ(wire_batch_next(&batch, &segment), 1);
  CHECK_EQ(wire_batch_next(&batch, &segment), -1);
  /* Two-byte levels: -2000 ramping to 2047 over 70000 frames (MessageTests.wideLevels). */
  const uint8_t wide[] = {1, 7, 0, 0, 0, 2, 1, 0x03, 0xF0, 0xA2, 0x04, 0x30, 0xF8, 0xFF, 0x07};
  CHECK(wire_batch_begin(&batch, wide, sizeof wide));
  CHECK_EQ(batch.channel, 1);
  CHECK_EQ(batch.start_time, 7);
  CHECK_EQ(wire_batch_next(&batch, &segment), 1);
  CHECK_EQ(segment.frames, 70000);
  CHECK_EQ(segment.start_level, -2000);
  CHECK_EQ(segment.end_level, 2047);
  CHECK_EQ(wire_batch_next(&batch, &segment), 0);
}

/* round(x) half away from zero, from doubles, as the reference. */
static long reference_level(int l0, int l1, uint32_t frames, uint32_t j) {
  if (frames == 1) return l0;
  double x = l0 + (double)(l1 - l0) * j / (frames - 1);
  return lround(x);
}

static void ramp_rounding_rule(void) {
  /* The vector's ramp: 20 -> 0 over 200 frames, every frame. */
  for (uint32_t j = 0; j < 200; j++) CHECK_EQ(queue_ramp_level(20, 0, 199, j), reference_level(20, 0, 200, j));
  /* Halves go away from zero, decided by the sign of the whole value. */
  CHECK_EQ(queue_ramp_level(0, 1, 2, 1), 1);   /* 0.5 -> 1 */
  CHECK_EQ(queue_ramp_level(0, -1, 2, 1), -1); /* -0.5 -> -1 */
  CHECK_EQ(queue_ramp_level(2, -1, 2, 1), 1);  /* 0.5 -> 1 (not 2 + round(-1.5) = 0) */
  CHECK_EQ(queue_ramp_level(-2, 1, 2, 1), -1); /* -0.5 -> -1 */
  CHECK_EQ(queue_ramp_level(100, 7, 0, 0), 100); /* a one-frame segment drives its start */
  /* Many ramps, both arithmetic paths (|level| < 8192 and beyond). */
  static const int levels[][2] = {{0, 255}, {255, 0}, {-127, 127}, {37, -90}, {-20000, 20000}, {32767, -32768}, {5, 6}};
  static const uint32_t lengths[] = {2, 3, 7, 100, 1001, 65536};
  for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
    for (size_t n = 0; n < sizeof lengths / sizeof lengths[0]; n++) {
      uint32_t frames = lengths[n];
      for (uint32_t j = 0; j < frames; j += frames > 1000 ? 997 : 1) {
        CHECK_EQ(queue_ramp_level((int16_t)levels[l][0], (int16_t)levels[l][1], (uint16_t)(frames - 1), j),
                 reference_level(levels[l][0], levels[l][1], frames, j));
      }
      CHECK_EQ(queue_ramp_level((int16_t)levels[l][0], (int16_t)levels[l][1], (uint16_t)(frames - 1), frames - 1),
               levels[l][1]);
    }
  }
}

const test_case_t wire_tests[] = {
    {"CRC-16/MCRF4XX check value 0x6F91", crc_check_value},
    {"COBS matches the Swift encoder and round-trips", cobs_round_trips},
    {"COBS rejects invalid and oversized runs, then resynchronises", cobs_rejects_invalid_runs},
    {"frames need a matching CRC and length byte", frames_need_crc_and_length},
    {"segment batches: level width, varint, 0 frames, trailing bytes, wide levels", batch_decoding_limits},
    {"ramps round half away from zero (both arithmetic paths)", ramp_rounding_rule},
    TEST_LIST_END,
};
