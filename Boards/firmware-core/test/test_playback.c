/*
 * test_playback.c — segment queue playback through the whole board: levels frame by frame
 * (RTP_INPUT writes with their times), ramps and rounding, gaps, late batches, replace,
 * queueFull, stop, underruns, errors, and time across the 32-bit wrap.
 */
#include <math.h>
#include <string.h>

#include "batch.h"
#include "board.h"
#include "drv2605.h"
#include "fake_hal.h"
#include "host.h"
#include "test.h"

#define FRAME 2000u /* ticks */

/* Levels above 127 do not fit the 1-byte (i8) form: those batches use 2-byte levels. */
static void send_batch(host_t *host, uint8_t type, uint32_t start, const seg_spec_t *segs, int count) {
  send_batch_on(host, type, 0, start, segs, count);
}

/* Connects, and lifts the watchdog to 5 s so long playbacks need no heartbeats. */
static void setup(host_t *host, uint64_t start) {
  boot_and_connect(host, start);
  const uint8_t five_seconds[] = {0x88, 0x13};
  host_send(host, MSG_SET_WATCHDOG, five_seconds, 2);
  run_for(10);
  host_read(host);
}

/* RTP_INPUT in effect at time t (from the write log); -1 before any write. */
static int rtp_at(uint64_t t) {
  int value = -1;
  for (size_t i = 0; i < fake.write_count && fake.writes[i].time <= t; i++) {
    if (fake.writes[i].reg == DRV_REG_RTP_INPUT) value = fake.writes[i].value;
  }
  return value;
}

/* RTP writes never repeat the value already there. */
static bool rtp_writes_only_changes(size_t from) {
  int last = -1;
  for (size_t i = from; i < fake.write_count; i++) {
    if (fake.writes[i].reg != DRV_REG_RTP_INPUT) continue;
    if (fake.writes[i].value == last) return false;
    last = fake.writes[i].value;
  }
  return true;
}

static int clamp255(long level) { return level < 0 ? 0 : level > 255 ? 255 : (int)level; }

static const host_frame_t *expect_error(host_t *host, uint8_t code, uint8_t type, uint16_t detail) {
  const host_frame_t *error = host_find(host, MSG_ERROR);
  CHECK(error != NULL);
  if (!error) return NULL;
  CHECK_EQ(error->payload[0], code);
  CHECK_EQ(error->payload[1], type);
  CHECK_EQ(le16(error->payload + 2), detail);
  return error;
}

static uint16_t status_field(host_t *host, int offset) {
  host_send(host, MSG_STATUS_REQUEST, 0, 0);
  run_for(10);
  host_read(host);
  const host_frame_t *status = host_find(host, MSG_STATUS);
  CHECK(status != NULL);
  return status ? le16(status->payload + offset) : 0xFFFF;
}
#define STATUS_QUEUE_FILL 9
#define STATUS_UNDERRUNS 11
#define STATUS_LATE 13
#define STATUS_LEVEL 15

static void plays_the_vector_batch_frame_by_frame(void) {
  host_t host;
  setup(&host, 1000000);
  size_t first_write = fake.write_count;
  uint32_t start = (uint32_t)fake.now + MS_TICKS(10) + 123; /* not on any grid */
  const seg_spec_t segs[] = {{9, 127, 127, false}, {5, -127, -127, true}, {200, 20, 0, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, start, segs, 3);
  run_for(MS_TICKS(10));
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), 3);
  run_for(MS_TICKS(230));
  CHECK_EQ(rtp_at(start - 1), 0);
  for (uint32_t k = 0; k < 214; k++) {
    long expected = k < 9 ? 127 : k < 14 ? -127 : lround(20.0 - 20.0 * (k - 14) / 199.0);
    CHECK_EQ(rtp_at(start + k * FRAME), clamp255(expected));
    CHECK_EQ(rtp_at(start + k * FRAME + FRAME - 1), clamp255(expected));
  }
  CHECK_EQ(rtp_at(start + 214 * FRAME), 0);
  /* The first write lands exactly on the batch start, the brake frames write 0 exactly 9
   * frames later. */
  size_t i = fake_find_write(first_write, DRV_REG_RTP_INPUT);
  CHECK(i != (size_t)-1 && fake.writes[i].time == start && fake.writes[i].value == 127);
  i = fake_find_write(i + 1, DRV_REG_RTP_INPUT);
  CHECK(i != (size_t)-1 && fake.writes[i].time == start + 9 * FRAME && fake.writes[i].value == 0);
  CHECK(rtp_writes_only_changes(first_write));
  CHECK_EQ(status_field(&host, STATUS_UNDERRUNS), 0); /* the ramp ends at 0 */
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), 0);
}

static void gaps_play_zero(void) {
  host_t host;
  setup(&host, 1000000);
  uint32_t start = (uint32_t)fake.now + MS_TICKS(5);
  const seg_spec_t a[] = {{4, 100, 100, false}};
  const seg_spec_t b[] = {{3, 60, 60, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, start, a, 1);
  send_batch(&host, MSG_QUEUE_SEGMENTS, start + 10 * FRAME, b, 1);
  run_for(MS_TICKS(30));
  host_read(&host);
  for (uint32_t k = 0; k < 16; k++) {
    int expected = k < 4 ? 100 : k < 10 ? 0 : k < 13 ? 60 : 0;
    CHECK_EQ(rtp_at(start + k * FRAME + 1000), expected);
  }
  /* The drive ending at 100 before the gap is no underrun (the queue was not dry); the second
   * batch ending at 60 is one. */
  CHECK_EQ(status_field(&host, STATUS_UNDERRUNS), 1);
}

static void late_batches_skip_the_past(void) {
  host_t host;
  setup(&host, 1000000);
  uint32_t now = (uint32_t)fake.now;
  /* Starts 3.5 frames ago: a 2-frame segment already over, then a ramp 0 -> 90 over 10. */
  uint32_t start = now - 3 * FRAME - FRAME / 2;
  const seg_spec_t segs[] = {{2, 50, 50, false}, {10, 0, 90, false}, {1, 0, 0, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, start, segs, 3);
  board_poll();
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  /* Now is 1.5 frames into the ramp: frame 1 of it (level 10) plays at once. */
  CHECK_EQ(rtp_at(fake.now), 10);
  CHECK_EQ(fake.writes[fake.write_count - 1].time, now);
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), 2); /* the finished segment is not queued */
  CHECK_EQ(status_field(&host, STATUS_LATE), 1);
  run_for(MS_TICKS(20));
  CHECK_EQ(rtp_at(start + 2 * FRAME + 2 * FRAME), 20);
  CHECK_EQ(rtp_at(start + 2 * FRAME + 9 * FRAME), 90);
  CHECK_EQ(rtp_at(start + 12 * FRAME), 0);
}

static void replace_cuts_the_segment_in_progress(void) {
  host_t host;
  setup(&host, 1000000);
  uint32_t start = (uint32_t)fake.now + MS_TICKS(2);
  const seg_spec_t long_drive[] = {{100, 100, 100, false}, {50, 120, 120, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, start, long_drive, 2);
  run_for(MS_TICKS(12));
  host_read(&host);
  CHECK_EQ(rtp_at(fake.now), 100);
  /* At frame ~10, replace from frame 20 (inside the first segment) with 10 frames at 50. */
  uint32_t cut = start + 20 * FRAME + 500; /* off the frame grid too */
  const seg_spec_t change[] = {{10, 50, 50, false}};
  send_batch(&host, MSG_REPLACE_SEGMENTS, cut, change, 1);
  run_for(MS_TICKS(1));
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), 2); /* the cut 100 segment + the new one */
  run_for(MS_TICKS(40));
  CHECK_EQ(rtp_at(cut - 1), 100);
  CHECK_EQ(rtp_at(cut), 50);
  size_t i = fake_find_write(0, DRV_REG_RTP_INPUT);
  while (i != (size_t)-1 && fake.writes[i].value != 50) i = fake_find_write(i + 1, DRV_REG_RTP_INPUT);
  CHECK(i != (size_t)-1 && fake.writes[i].time == cut);
  CHECK_EQ(rtp_at(cut + 10 * FRAME - 1), 50);
  CHECK_EQ(rtp_at(cut + 10 * FRAME), 0); /* the 120 segment after it was dropped */
  for (size_t w = 0; w < fake.write_count; w++) CHECK(!(fake.writes[w].reg == 2 && fake.writes[w].value == 120));
  CHECK_EQ(status_field(&host, STATUS_UNDERRUNS), 1); /* it ended at 50 */
}

static void queue_full_refuses_the_whole_batch(void) {
  host_t host;
  setup(&host, 1000000);
  uint32_t start = (uint32_t)fake.now + MS_TICKS(50);
  seg_spec_t segs[BOARD_QUEUE_DEPTH];
  for (int i = 0; i < BOARD_QUEUE_DEPTH; i++) segs[i] = (seg_spec_t){1, i % 2 ? 10 : 20, i % 2 ? 10 : 20, false};
  send_batch(&host, MSG_QUEUE_SEGMENTS, start, segs, BOARD_QUEUE_DEPTH - 2);
  run_for(10);
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), BOARD_QUEUE_DEPTH - 2);
  /* Three more do not fit: refused whole, detail = the two free slots. */
  send_batch(&host, MSG_QUEUE_SEGMENTS, start + (BOARD_QUEUE_DEPTH - 2) * FRAME, segs, 3);
  run_for(10);
  host_read(&host);
  expect_error(&host, ERR_QUEUE_FULL, MSG_QUEUE_SEGMENTS, 2);
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), BOARD_QUEUE_DEPTH - 2);
  /* Two fit exactly. */
  send_batch(&host, MSG_QUEUE_SEGMENTS, start + (BOARD_QUEUE_DEPTH - 2) * FRAME, segs, 2);
  run_for(10);
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), BOARD_QUEUE_DEPTH);
  /* A replace may use the slots its cut frees: from the 10th segment on, 20 fit (22 freed). */
  send_batch(&host, MSG_REPLACE_SEGMENTS, start + 10 * FRAME, segs, 20);
  run_for(10);
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), 30);
  send_batch(&host, MSG_REPLACE_SEGMENTS, start + 10 * FRAME, segs, BOARD_QUEUE_DEPTH - 9);
  run_for(10);
  host_read(&host);
  expect_error(&host, ERR_QUEUE_FULL, MSG_REPLACE_SEGMENTS, BOARD_QUEUE_DEPTH - 10);
}

static void stop_zeroes_and_clears(void) {
  host_t host;
  setup(&host, 1000000);
  uint32_t start = (uint32_t)fake.now + MS_TICKS(1);
  const seg_spec_t segs[] = {{500, 200, 200, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, start, segs, 1);
  run_for(MS_TICKS(5));
  CHECK_EQ(rtp_at(fake.now), 200);
  const uint8_t other_channel[] = {0x02};
  host_send(&host, MSG_STOP, other_channel, 1);
  run_for(MS_TICKS(1));
  CHECK_EQ(rtp_at(fake.now), 200); /* channel 1 is not ours */
  const uint8_t all[] = {0xFF};
  host_send(&host, MSG_STOP, all, 1);
  uint64_t sent = fake.now;
  run_for(MS_TICKS(1));
  CHECK_EQ(rtp_at(sent), 0); /* at once */
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), 0);
  CHECK_EQ(status_field(&host, STATUS_UNDERRUNS), 0); /* a stop is no underrun */
  host_send(&host, MSG_STOP, all, 1); /* idempotent */
  run_for(MS_TICKS(1));
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  CHECK_EQ(rtp_at(fake.now), 0);
}

static void underruns_count_a_dry_queue_while_driving(void) {
  host_t host;
  setup(&host, 1000000);
  uint32_t start = (uint32_t)fake.now + MS_TICKS(1);
  const seg_spec_t ends_high[] = {{5, 100, 100, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, start, ends_high, 1);
  run_for(MS_TICKS(10));
  CHECK_EQ(rtp_at(start + 5 * FRAME), 0); /* the board drives 0 */
  CHECK_EQ(status_field(&host, STATUS_UNDERRUNS), 1);
  const seg_spec_t ends_low[] = {{5, 100, 100, false}, {1, 0, 0, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, (uint32_t)fake.now + MS_TICKS(1), ends_low, 2);
  run_for(MS_TICKS(10));
  CHECK_EQ(status_field(&host, STATUS_UNDERRUNS), 1);
}

static void batch_errors(void) {
  host_t host;
  setup(&host, 1000000);
  uint8_t payload[64];
  const seg_spec_t one[] = {{5, 10, 10, false}};
  uint8_t length = build_batch(payload, 1, (uint32_t)fake.now + 100, 1, one, 1);
  host_send(&host, MSG_QUEUE_SEGMENTS, payload, length);
  run_for(10);
  host_read(&host);
  expect_error(&host, ERR_BAD_CHANNEL, MSG_QUEUE_SEGMENTS, 1);
  length = build_batch(payload, 0, (uint32_t)fake.now + 100, 1, one, 1);
  payload[5] = 3; /* levelBytes 3 */
  host_send(&host, MSG_REPLACE_SEGMENTS, payload, length);
  run_for(10);
  host_read(&host);
  expect_error(&host, ERR_BAD_PAYLOAD, MSG_REPLACE_SEGMENTS, 0);
  /* Ramps longer than 65536 frames are this board's limit (constant segments are not). */
  const seg_spec_t long_ramp[] = {{65537, 0, 100, false}};
  length = build_batch(payload, 0, (uint32_t)fake.now + 100, 1, long_ramp, 1);
  host_send(&host, MSG_QUEUE_SEGMENTS, payload, length);
  run_for(10);
  host_read(&host);
  expect_error(&host, ERR_BAD_PAYLOAD, MSG_QUEUE_SEGMENTS, 0);
  const seg_spec_t long_hold[] = {{200000, 0, 0, false}, {65536, 0, 100, false}};
  length = build_batch(payload, 0, (uint32_t)fake.now + 100, 1, long_hold, 2);
  host_send(&host, MSG_QUEUE_SEGMENTS, payload, length);
  run_for(10);
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), 2);
}

static void two_byte_levels_and_clamping(void) {
  host_t host;
  setup(&host, 1000000);
  uint8_t payload[64];
  uint32_t start = (uint32_t)fake.now + MS_TICKS(1);
  const seg_spec_t segs[] = {{3, 255, 255, false}, {1, 300, 300, false}, {3, -100, 100, false}};
  uint8_t length = build_batch(payload, 0, start, 2, segs, 3);
  host_send(&host, MSG_QUEUE_SEGMENTS, payload, length);
  run_for(MS_TICKS(10));
  CHECK_EQ(rtp_at(start), 255);
  CHECK_EQ(rtp_at(start + 3 * FRAME), 255); /* 300 clamps to full scale */
  CHECK_EQ(rtp_at(start + 4 * FRAME), 0);   /* -100 clamps to 0 (no signed levels) */
  CHECK_EQ(rtp_at(start + 5 * FRAME), 0);   /* the ramp passes 0 */
  CHECK_EQ(rtp_at(start + 6 * FRAME), 100);
}

static void time_wraps_at_32_bits(void) {
  host_t host;
  setup(&host, 0x100000000ull - MS_TICKS(10)); /* the low 32 bits wrap about 7 ms after setup */
  uint64_t start64 = fake.now + MS_TICKS(2);
  const seg_spec_t segs[] = {{10, 0, 225, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, (uint32_t)start64, segs, 1);
  run_for(MS_TICKS(20));
  CHECK(start64 < 0x100000000ull && start64 + 10 * FRAME > 0x100000000ull);
  for (uint32_t k = 0; k < 10; k++) CHECK_EQ(rtp_at(start64 + k * FRAME), 25 * k);
  CHECK_EQ(rtp_at(start64 + 10 * FRAME), 0);
}

/* Times compare as offsets from now (§6.2: each within 2^31 ticks of it), not with each other:
 * a late batch still cuts one queued ~1074 s ahead, more than 2^31 ticks after its start
 * (the fuzz harness's queue-order invariant: the late batch sat behind the other, silent). */
static void cut_compares_times_from_now(void) {
  host_t host;
  setup(&host, 1000000);
  uint32_t now = (uint32_t)fake.now;
  const seg_spec_t ahead[] = {{10, 100, 100, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, now + 0x7FFF0000u, ahead, 1);
  run_for(10);
  host_read(&host);
  /* From 300 s ago for 400 s: it plays now. */
  const seg_spec_t late[] = {{400000, 50, 50, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, now - 600000000u, late, 1);
  run_for(MS_TICKS(2));
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  CHECK_EQ(rtp_at(fake.now), 50);
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), 1); /* the batch ahead was dropped */
}

const test_case_t playback_tests[] = {
    {"the vector batch plays frame by frame (127, brake -> 0, ramp 20 -> 0)", plays_the_vector_batch_frame_by_frame},
    {"a gap between batches plays 0", gaps_play_zero},
    {"a late batch skips the past part and counts lateSegments", late_batches_skip_the_past},
    {"replace cuts the segment in progress at its start time", replace_cuts_the_segment_in_progress},
    {"queueFull refuses a batch whole with the free slots as detail", queue_full_refuses_the_whole_batch},
    {"stop zeroes the drive at once and clears the queue", stop_zeroes_and_clears},
    {"underruns: the queue running dry while the level is not 0", underruns_count_a_dry_queue_while_driving},
    {"batch errors: badChannel, badPayload, ramp length limit", batch_errors},
    {"two-byte levels; levels clamp to 0..255", two_byte_levels_and_clamping},
    {"playback across the 32-bit wrap of the board time", time_wraps_at_32_bits},
    {"a late batch cuts one queued more than 2^31 ticks after its start (times from now)", cut_compares_times_from_now},
    TEST_LIST_END,
};
