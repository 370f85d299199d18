/*
 * test_wire.c — CRC, COBS, frame checks, segment-batch decoding limits and the rounding rule.
 */
#include <math.h>
#include <string.h>

#include "batch.h"
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

/* ---- Bytes decoded in place, in chunks (the board's receive loop) ---- */

/* A fixed-seed xorshift: a number below n from *state (each test keeps its own sequence). */
static uint32_t next_random(uint32_t *state, uint32_t n) {
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state % n;
}

static uint32_t chunk_random_state = 0x1234567u;
static uint32_t chunk_random(uint32_t n) { return next_random(&chunk_random_state, n); }

/* A line of frames as the host sends them, with trouble: valid frames (some with a leading
 * delimiter), corrupted bytes, cut runs, runs of zeros, runs too long for the receiver. */
static size_t noisy_line(uint8_t *line, size_t capacity, unsigned *frames_sent) {
  size_t n = 0;
  *frames_sent = 0;
  while (n + FRAME_MAX_ENCODED + 600 < capacity) {
    uint32_t pick = chunk_random(10);
    if (pick < 6) {
      uint8_t payload[FRAME_MAX_PAYLOAD];
      uint8_t length = (uint8_t)chunk_random(FRAME_MAX_PAYLOAD + 1);
      for (uint8_t i = 0; i < length; i++) payload[i] = chunk_random(3) == 0 ? 0 : (uint8_t)chunk_random(256);
      frame_t frame = {1, 1, 0x5A, (uint8_t)chunk_random(256), 0, (uint8_t)chunk_random(20), length, payload};
      if (chunk_random(4) == 0) line[n++] = 0;
      uint16_t wire = frame_encode(&frame, line + n);
      if (chunk_random(8) == 0) line[n + chunk_random(wire - 1)] ^= (uint8_t)(1 + chunk_random(255)); /* corrupt */
      if (chunk_random(12) == 0) wire = (uint16_t)chunk_random(wire); /* cut short */
      n += wire;
      (*frames_sent)++;
    } else if (pick < 7) {
      size_t zeros = 1 + chunk_random(4);
      for (size_t i = 0; i < zeros; i++) line[n++] = 0;
    } else if (pick < 8) {
      size_t junk = 1 + chunk_random(600); /* longer than any frame */
      for (size_t i = 0; i < junk; i++) line[n++] = (uint8_t)(1 + chunk_random(255));
      line[n++] = 0;
    } else {
      size_t junk = 1 + chunk_random(40);
      for (size_t i = 0; i < junk; i++) line[n++] = (uint8_t)chunk_random(256);
    }
  }
  return n;
}

/* A frame as it came: enough to tell two apart. */
typedef struct {
  uint8_t type, seq, length;
  uint16_t crc;
} frame_seen_t;

static frame_seen_t seen(const frame_t *frame) {
  frame_seen_t s = {frame->type, frame->seq, frame->length, crc16(frame->payload, frame->length)};
  return s;
}

static void chunked_decoding_matches_bytewise(void) {
  static uint8_t line[60000];
  static frame_seen_t expected[2000];
  unsigned mismatches = 0, frames = 0, sent = 0;
  for (int round = 0; round < 40; round++) {
    unsigned round_sent;
    size_t n = noisy_line(line, sizeof line, &round_sent);
    sent += round_sent;
    /* The reference: cobs_decoder_feed byte by byte, frame_parse of each run. */
    uint8_t buffer[FRAME_MAX_RAW];
    cobs_decoder_t one;
    cobs_decoder_init(&one, buffer, FRAME_MAX_RAW, FRAME_MAX_ENCODED);
    unsigned good = 0, bad = 0;
    for (size_t i = 0; i < n; i++) {
      cobs_result_t result = cobs_decoder_feed(&one, line[i]);
      frame_t parsed;
      if (result == COBS_FRAME && frame_parse(buffer, one.length, &parsed)) {
        if (good < 2000) expected[good] = seen(&parsed);
        good++;
      } else if (result != COBS_MORE) {
        bad++;
      }
    }
    /* The receiver fed in chunks of every size, with delimiters left now and then (as the
     * board's drain does), and one byte at a time now and then. */
    frame_receiver_t receiver;
    frame_receiver_init(&receiver);
    unsigned got = 0;
    for (size_t at = 0; at < n;) {
      uint16_t chunk = (uint16_t)(1 + chunk_random(chunk_random(4) == 0 ? 3 : 300));
      if (chunk > n - at) chunk = (uint16_t)(n - at);
      const frame_t *frame;
      uint16_t taken = frame_receiver_feed_bytes(&receiver, line + at, chunk, chunk_random(3) == 0, &frame);
      if (frame) {
        frame_seen_t s = seen(frame);
        if (got >= good || s.type != expected[got].type || s.seq != expected[got].seq ||
            s.length != expected[got].length || s.crc != expected[got].crc)
          mismatches++;
        got++;
      }
      at += taken;
    }
    if (got != good || receiver.bad_frames != bad) {
      fprintf(stderr, "    frames %u/%u bad %u/%u\n", got, good, receiver.bad_frames, bad);
      mismatches++;
    }
    frames += good;
  }
  /* Runs at the receiver's limits: a full block (code 0xFF) and more, 250-260 bytes decoded,
   * in chunks of every size: a run over 255 bytes is bad, as byte by byte. */
  for (unsigned extra = 0; extra < 12; extra++) {
    for (unsigned chunk_size = 1; chunk_size < 300; chunk_size += 37) {
      size_t n = 0;
      line[n++] = 0xFF;
      for (int i = 0; i < 254; i++) line[n++] = (uint8_t)(1 + i % 200);
      line[n++] = (uint8_t)(extra + 1);
      for (unsigned i = 0; i < extra; i++) line[n++] = 7;
      line[n++] = 0;
      uint8_t buffer[FRAME_MAX_RAW];
      cobs_decoder_t one;
      cobs_decoder_init(&one, buffer, FRAME_MAX_RAW, FRAME_MAX_ENCODED);
      cobs_result_t result = COBS_MORE;
      for (size_t i = 0; i < n; i++) result = cobs_decoder_feed(&one, line[i]);
      frame_receiver_t receiver;
      frame_receiver_init(&receiver);
      for (size_t at = 0; at < n;) {
        uint16_t chunk = (uint16_t)(n - at < chunk_size ? n - at : chunk_size);
        const frame_t *frame;
        at += frame_receiver_feed_bytes(&receiver, line + at, chunk, false, &frame);
      }
      if (receiver.bad_frames != (result == COBS_MORE ? 0 : 1) || receiver.decoder.length != one.length) {
        if (mismatches < 3) fprintf(stderr, "    extra %u chunk %u: bad %u result %d len %u/%u\n", extra, chunk_size, receiver.bad_frames, result, receiver.decoder.length, one.length);
        mismatches++;
      }
    }
  }
  CHECK_EQ(mismatches, 0);
  CHECK(frames > 1000 && sent > frames); /* most frames good, some not */
}

static void in_place_encoding_matches(void) {
  unsigned mismatches = 0;
  for (int round = 0; round < 20000; round++) {
    uint8_t raw[254], in_place[255], expected[260];
    uint16_t count = (uint16_t)chunk_random(254); /* 0 to 253 bytes */
    int zeros = (int)chunk_random(4);
    for (uint16_t i = 0; i < count; i++) raw[i] = chunk_random(4) < (uint32_t)zeros ? 0 : (uint8_t)(1 + chunk_random(255));
    memcpy(in_place + 1, raw, count);
    uint16_t length = cobs_encode_in_place(in_place, count);
    uint16_t expected_length = cobs_encode_buffer(raw, count, expected);
    if (length != expected_length || memcmp(in_place, expected, length) != 0) mismatches++;
  }
  CHECK_EQ(mismatches, 0);
}

/* ---- The queue's cursor against the rule ---- */

/* The frame at `now` as queue.h states the rule, straight from the queued segments: frame
 * j = (now - start) / period of the segment playing, queue_ramp_level() of it. */
static queue_frame_t reference_frame(const segment_queue_t *queue, uint32_t now) {
  queue_frame_t frame = {0, 0, now, now + QUEUE_MAX_BATCH_TICKS};
  for (uint8_t i = 0; i < queue->count; i++) {
    const segment_t *s = &queue->segments[(queue->head + i) % BOARD_QUEUE_DEPTH];
    if (time_diff(now, s->end) >= 0) continue;
    if (time_diff(now, s->start) < 0) {
      frame.next = s->start;
      return frame;
    }
    uint32_t j = (now - s->start) / BOARD_TICKS_PER_FRAME;
    frame.start = s->start + j * BOARD_TICKS_PER_FRAME;
    uint32_t frame_end = frame.start + BOARD_TICKS_PER_FRAME;
    frame.next = time_diff(frame_end, s->end) < 0 ? frame_end : s->end;
    frame.level = queue_ramp_level(s->start_level, s->end_level, s->span, j);
#if BOARD_FEATURES & BOARD_FEATURE_FREQUENCY_CONTROL
    frame.hz = (uint16_t)queue_ramp_level((int16_t)s->start_hz, (int16_t)s->end_hz, s->span, j);
#endif
    return frame;
  }
  return frame;
}

static uint32_t cursor_random_state = 0x2545F491u;
static uint32_t cursor_random(uint32_t n) { return next_random(&cursor_random_state, n); }

static int random_level(void) {
  switch (cursor_random(4)) {
    case 0: return (int)cursor_random(256) - 128;
    case 1: return (int)cursor_random(65536) - 32768;
    case 2: return cursor_random(2) ? 32767 : -32768;
    default: return (int)cursor_random(41) - 20;
  }
}

/* A batch of 1-6 segments of every kind: short and long ramps (up to 65536 frames), steep and
 * shallow, levels over the whole i16 range, frequency ramps, and constant levels beyond 65536
 * frames with a frequency ramp (its denominator wraps: queue_ramp_level holds the end). */
static int random_batch(seg_spec_t *segs) {
  int count = 1 + (int)cursor_random(cursor_random(4) == 0 ? 17 : 6); /* 17 x 13 bytes at most: a payload */
  for (int i = 0; i < count; i++) {
    seg_spec_t *s = &segs[i];
    uint32_t pick = cursor_random(8);
    s->frames = pick < 4 ? 1 + cursor_random(10) : pick < 6 ? 1 + cursor_random(400) : 1 + cursor_random(65536);
    s->start = random_level();
    s->end = cursor_random(4) == 0 ? s->start : random_level();
    s->brake = false;
    s->start_hz = cursor_random(3) == 0 ? 0 : (int)cursor_random(40000);
    s->end_hz = cursor_random(3) == 0 ? s->start_hz : (int)cursor_random(40000);
    if (cursor_random(16) == 0) {
      s->end = s->start;
      /* 65537 frames and 131073 wrap to a denominator of 0: the start value throughout. */
      s->frames = cursor_random(2) ? 65537 + cursor_random(20000) : 1 + 65536 * (1 + cursor_random(2));
    }
  }
  return count;
}

/* queue_insert_batch as the rule says it (queue.h), simply: decode and check the whole batch,
 * count what is not over, refuse it whole when it does not fit, else cut and store. */
static queue_result_t reference_insert(segment_queue_t *queue, const uint8_t *payload, uint8_t length, uint32_t now) {
  queue_result_t result = {0, 0, false, 0};
  wire_batch_t batch;
  wire_segment_t s;
  if (!wire_batch_begin(&batch, payload, length)) {
    result.error = ERR_BAD_PAYLOAD;
    return result;
  }
  uint32_t offset = 0, start = batch.start_time;
  uint8_t needed = 0;
  int status;
  while ((status = wire_batch_next(&batch, &s)) == 1) {
    if (s.frames > QUEUE_MAX_BATCH_TICKS / BOARD_TICKS_PER_FRAME) break;
    if (s.start_level != s.end_level && s.frames > QUEUE_MAX_RAMP_FRAMES) break;
    offset += s.frames * BOARD_TICKS_PER_FRAME;
    if (offset > QUEUE_MAX_BATCH_TICKS) break;
    if (time_diff(batch.start_time + offset, now) > 0) needed++;
  }
  if (status != 0) {
    result.error = ERR_BAD_PAYLOAD;
    return result;
  }
  int32_t cut = time_diff(batch.start_time, now);
  uint8_t keep = queue->count;
  while (keep > 0 && time_diff(queue->segments[(queue->head + keep - 1) % BOARD_QUEUE_DEPTH].start, now) >= cut) keep--;
  uint8_t available = (uint8_t)(BOARD_QUEUE_DEPTH - keep);
  if (needed > available) {
    result.error = ERR_QUEUE_FULL;
    result.detail = available;
    return result;
  }
  queue->count = keep;
  if (keep > 0) {
    segment_t *last = &queue->segments[(queue->head + keep - 1) % BOARD_QUEUE_DEPTH];
    if (time_diff(last->end, now) > cut) last->end = batch.start_time;
  }
  (void)wire_batch_begin(&batch, payload, length);
  while (wire_batch_next(&batch, &s) == 1) {
    uint32_t end = start + s.frames * BOARD_TICKS_PER_FRAME;
    if (time_diff(end, now) > 0) {
      segment_t *slot = &queue->segments[(queue->head + queue->count) % BOARD_QUEUE_DEPTH];
      *slot = (segment_t){0};
      slot->start = start;
      slot->end = end;
      slot->start_level = s.start_level;
      slot->end_level = s.end_level;
      slot->span = (uint16_t)(s.frames - 1);
#if BOARD_FEATURES & BOARD_FEATURE_FREQUENCY_CONTROL
      slot->start_hz = s.start_frequency > 32767u ? 32767u : s.start_frequency;
      slot->end_hz = s.end_frequency > 32767u ? 32767u : s.end_frequency;
#endif
      queue->count++;
      result.stored++;
    }
    start = end;
  }
  result.late = time_diff(batch.start_time, now) < 0;
  return result;
}

static bool same_segment(const segment_t *a, const segment_t *b) {
  bool same = a->start == b->start && a->end == b->end && a->start_level == b->start_level &&
              a->end_level == b->end_level && a->span == b->span;
#if BOARD_FEATURES & BOARD_FEATURE_FREQUENCY_CONTROL
  same = same && a->start_hz == b->start_hz && a->end_hz == b->end_hz;
#endif
  return same;
}

static bool same_frame(queue_frame_t a, queue_frame_t b) {
  return a.level == b.level && a.hz == b.hz && a.start == b.start && a.next == b.next;
}

/* Inserts into `queue` with queue_insert_batch and into a copy with reference_insert: the
 * results and the queues must be the same. */
typedef struct {
  unsigned differ, refused, beyond_free;
} insert_check_t;

static void insert_both(segment_queue_t *queue, const uint8_t *payload, uint8_t length, uint32_t now,
                        insert_check_t *checked) {
  segment_queue_t expected = *queue;
  uint8_t free_before = queue_free(queue);
  queue_result_t want = reference_insert(&expected, payload, length, now);
  queue_result_t got = queue_insert_batch(queue, payload, length, now);
  bool same = got.error == want.error && got.detail == want.detail && got.late == want.late &&
              got.stored == want.stored && queue->count == expected.count && queue->head == expected.head;
  for (uint8_t i = 0; same && i < queue->count; i++) {
    same = same_segment(&queue->segments[(queue->head + i) % BOARD_QUEUE_DEPTH],
                        &expected.segments[(expected.head + i) % BOARD_QUEUE_DEPTH]);
  }
  if (got.error == ERR_QUEUE_FULL) checked->refused++;
  if (got.error == 0 && got.stored > free_before) checked->beyond_free++;
  if (!same && checked->differ++ < 3) {
    fprintf(stderr, "    insert: error %d/%d stored %d/%d count %d/%d\n", got.error, want.error, got.stored, want.stored,
            queue->count, expected.count);
  }
}

static void cursor_matches_the_rule(void) {
  segment_queue_t queue;
  queue_init(&queue);
  uint32_t now = 0xFFF00000u; /* across the 32-bit wrap */
  unsigned mismatches = 0, frames = 0;
  insert_check_t checked = {0, 0, 0};
  for (int round = 0; round < 3000; round++) {
    /* A batch from a little before or after now (a replace cutting what plays, or queued). */
    seg_spec_t segs[20];
    int count = random_batch(segs);
    uint32_t start = now - 20000u + cursor_random(60000);
    if (queue.count > 0 && cursor_random(2) == 0) { /* after what is queued: the queue fills up */
      start = queue.segments[(queue.head + queue.count - 1) % BOARD_QUEUE_DEPTH].end + cursor_random(3) * BOARD_TICKS_PER_FRAME;
    }
    uint8_t payload[FRAME_MAX_PAYLOAD];
    uint8_t length = build_batch(payload, 0, start, 2, segs, count);
    if (cursor_random(8) == 0 && length > 8) length = (uint8_t)(8 + cursor_random(length - 8)); /* cut short */
    insert_both(&queue, payload, length, now, &checked);
    /* Then the playback: the frame playing, each of the next few ahead, now moving on by a
     * frame or so, now and then by many. */
    int steps = 1 + (int)cursor_random(60);
    for (int k = 0; k < steps; k++) {
      uint32_t pick = cursor_random(16);
      now += pick < 12 ? cursor_random(2500) : pick < 14 ? cursor_random(40000) : pick < 15 ? cursor_random(4000000) : cursor_random(160000000);
      (void)queue_drop_finished(&queue, now);
      queue_frame_t got = queue_frame(&queue, now), want = reference_frame(&queue, now);
      frames++;
      if (!same_frame(got, want) && mismatches++ < 5) {
        fprintf(stderr, "    now %u: level %d hz %u start %u next %u, expected %d %u %u %u\n", (unsigned)now, got.level,
                got.hz, (unsigned)got.start, (unsigned)got.next, want.level, want.hz, (unsigned)want.start,
                (unsigned)want.next);
      }
      uint32_t ahead = got.next;
      queue_cursor_t cursor = queue.cursor;
      for (int a = 0; a < 5; a++) {
        queue_frame_t staged = queue_frame_ahead(&queue, &cursor, ahead), expected = reference_frame(&queue, ahead);
        frames++;
        if (!same_frame(staged, expected) && mismatches++ < 5) {
          fprintf(stderr, "    ahead %u: level %d, expected %d\n", (unsigned)ahead, staged.level, expected.level);
        }
        ahead = staged.next;
      }
    }
  }
  CHECK_EQ(mismatches, 0);
  /* A full queue: batches queued after it until it refuses them, then batches replacing most
   * of it (more segments than free slots). */
  for (int round = 0; round < 200; round++) {
    seg_spec_t segs[17];
    int count = 1 + (int)cursor_random(17);
    for (int i = 0; i < count; i++) segs[i] = (seg_spec_t){1 + cursor_random(20), random_level(), random_level(), false, 100, 200};
    uint32_t start = now + cursor_random(40000);
    if (queue.count > 0 && round % 4 != 3) {
      start = queue.segments[(queue.head + queue.count - 1) % BOARD_QUEUE_DEPTH].end;
    } else if (queue.count > 2) {
      start = queue.segments[(queue.head + 1) % BOARD_QUEUE_DEPTH].start; /* replaces all but the first */
    }
    uint8_t payload[FRAME_MAX_PAYLOAD];
    uint8_t length = build_batch(payload, 0, start, 2, segs, count);
    insert_both(&queue, payload, length, now, &checked);
    now += cursor_random(3000);
    (void)queue_drop_finished(&queue, now);
  }
  CHECK_EQ(checked.differ, 0);
  if (checked.refused < 10 || checked.beyond_free < 10) {
    fprintf(stderr, "    refused %u, beyond the free slots %u\n", checked.refused, checked.beyond_free);
  }
  CHECK(checked.refused >= 10 && checked.beyond_free >= 10); /* queueFull, and replacing a full queue */
  CHECK(frames > 100000);
}

const test_case_t wire_tests[] = {
    {"CRC-16/MCRF4XX check value 0x6F91", crc_check_value},
    {"COBS matches the Swift encoder and round-trips", cobs_round_trips},
    {"COBS rejects invalid and oversized runs, then resynchronises", cobs_rejects_invalid_runs},
    {"frames need a matching CRC and length byte", frames_need_crc_and_length},
    {"segment batches: level width, varint, 0 frames, trailing bytes, wide levels", batch_decoding_limits},
    {"ramps round half away from zero (both arithmetic paths)", ramp_rounding_rule},
    {"COBS and frames decoded in chunks, in place, as byte by byte", chunked_decoding_matches_bytewise},
    {"COBS encoded in place as by the encoder (frames up to 253 bytes)", in_place_encoding_matches},
    {"queue_insert_batch stores as the rule, queue_frame's cursor plays every frame as queue_ramp_level", cursor_matches_the_rule},
    TEST_LIST_END,
};
