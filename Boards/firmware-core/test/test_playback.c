/*
 * test_playback.c — segment queue playback through the whole core, on channel 0 of this
 * board's configuration: levels frame by frame (the test back end's outputs with their times,
 * clamped to the board's level range), ramps and rounding, gaps, late batches, replace,
 * queueFull, stop, underruns, errors, and time across the 32-bit wrap.
 */
#include <string.h>

#include "batch.h"
#include "board.h"
#include "expect.h"
#include "fake_driver.h"
#include "fake_hal.h"
#include "host.h"
#include "test.h"

#define FRAME 2000u /* ticks */

/* Levels above 127 do not fit the 1-byte (i8) form: those batches use 2-byte levels. */
static void send_batch(host_t *host, uint8_t type, uint32_t start, const seg_spec_t *segs, int count) {
  send_batch_on(host, type, 0, start, segs, count);
}

/* Channel 0's drive in effect at time t (from the output log); -1 before any output. */
static int drive_at(uint64_t t) { return fake_drive_at(0, t); }

/* The first change of channel 0's drive from output index `from` on, or NULL. */
static const fake_output_t *next_change(size_t from, size_t *index) {
  size_t i = fake_next_change(0, from);
  if (i == (size_t)-1) return NULL;
  *index = i;
  return &fake_driver.outputs[i];
}

static uint16_t status_field(host_t *host, int offset) {
  const host_frame_t *status = request_status(host);
  return status ? le16(status->payload + offset) : 0xFFFF;
}
#define STATUS_QUEUE_FILL 9
#define STATUS_UNDERRUNS 11
#define STATUS_LATE 13
#define STATUS_LEVEL 15

static void plays_the_vector_batch_frame_by_frame(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  size_t first_output = fake_driver.count;
  uint32_t start = (uint32_t)fake.now + MS_TICKS(10) + 123; /* not on any grid */
  send_batch(&host, MSG_QUEUE_SEGMENTS, start, vector_batch, VECTOR_BATCH_SEGMENTS);
  run_for(MS_TICKS(10));
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), 3);
  run_for(MS_TICKS(230));
  expect_vector_batch(start, drive_at, board_level);
  /* The first change lands exactly on the batch start, the brake frames' exactly 9 frames
   * later (-127, or 0 on a board without signed levels). */
  size_t i = 0;
  const fake_output_t *change = next_change(first_output, &i);
  CHECK(change && change->time == start && change->level == 127 && change->frame_start == start);
  change = change ? next_change(i + 1, &i) : NULL;
  CHECK(change && change->time == start + 9 * FRAME && change->level == board_level(-127));
  CHECK_EQ(status_field(&host, STATUS_UNDERRUNS), 0); /* the ramp ends at 0 */
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), 0);
}

static void gaps_play_zero(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  uint32_t start = (uint32_t)fake.now + MS_TICKS(5);
  const seg_spec_t a[] = {{4, 100, 100, false}};
  const seg_spec_t b[] = {{3, 60, 60, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, start, a, 1);
  send_batch(&host, MSG_QUEUE_SEGMENTS, start + 10 * FRAME, b, 1);
  run_for(MS_TICKS(30));
  host_read(&host);
  for (uint32_t k = 0; k < 16; k++) {
    int expected = k < 4 ? 100 : k < 10 ? 0 : k < 13 ? 60 : 0;
    CHECK_EQ(drive_at(start + k * FRAME + 1000), expected);
  }
  /* The drive ending at 100 before the gap is no underrun (the queue was not dry); the second
   * batch ending at 60 is one. */
  CHECK_EQ(status_field(&host, STATUS_UNDERRUNS), 1);
}

static void late_batches_skip_the_past(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  uint32_t now = (uint32_t)fake.now;
  /* Starts 3.5 frames ago: a 2-frame segment already over, then a ramp 0 -> 90 over 10. */
  uint32_t start = now - 3 * FRAME - FRAME / 2;
  const seg_spec_t segs[] = {{2, 50, 50, false}, {10, 0, 90, false}, {1, 0, 0, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, start, segs, 3);
  board_poll();
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  /* Now is 1.5 frames into the ramp: frame 1 of it (level 10) plays at once. */
  CHECK_EQ(drive_at(fake.now), 10);
  size_t i = 0;
  const fake_output_t *change = next_change(0, &i);
  while (change && change->level != 10) change = next_change(i + 1, &i);
  CHECK(change && change->time == now);
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), 2); /* the finished segment is not queued */
  CHECK_EQ(status_field(&host, STATUS_LATE), 1);
  run_for(MS_TICKS(20));
  CHECK_EQ(drive_at(start + 2 * FRAME + 2 * FRAME), 20);
  CHECK_EQ(drive_at(start + 2 * FRAME + 9 * FRAME), 90);
  CHECK_EQ(drive_at(start + 12 * FRAME), 0);
}

static void replace_cuts_the_segment_in_progress(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  uint32_t start = (uint32_t)fake.now + MS_TICKS(2);
  const seg_spec_t long_drive[] = {{100, 100, 100, false}, {50, 120, 120, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, start, long_drive, 2);
  run_for(MS_TICKS(12));
  host_read(&host);
  CHECK_EQ(drive_at(fake.now), 100);
  /* At frame ~10, replace from frame 20 (inside the first segment) with 10 frames at 50. */
  uint32_t cut = start + 20 * FRAME + 500; /* off the frame grid too */
  const seg_spec_t change[] = {{10, 50, 50, false}};
  send_batch(&host, MSG_REPLACE_SEGMENTS, cut, change, 1);
  run_for(MS_TICKS(1));
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), 2); /* the cut 100 segment + the new one */
  run_for(MS_TICKS(40));
  CHECK_EQ(drive_at(cut - 1), 100);
  CHECK_EQ(drive_at(cut), 50);
  size_t i = 0;
  const fake_output_t *output = next_change(0, &i);
  while (output && output->level != 50) output = next_change(i + 1, &i);
  CHECK(output && output->time == cut);
  CHECK_EQ(drive_at(cut + 10 * FRAME - 1), 50);
  CHECK_EQ(drive_at(cut + 10 * FRAME), 0); /* the 120 segment after it was dropped */
  for (size_t o = 0; o < fake_driver.count; o++) CHECK(!(fake_driver.outputs[o].channel == 0 && fake_driver.outputs[o].level == 120));
  CHECK_EQ(status_field(&host, STATUS_UNDERRUNS), 1); /* it ended at 50 */
}

static void queue_full_refuses_the_whole_batch(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
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
  /* A replace may use the slots its cut frees: from the 10th segment on, depth - 10 are free
   * (20 of 22 on a queue of 32 segments). */
  send_batch(&host, MSG_REPLACE_SEGMENTS, start + 10 * FRAME, segs, BOARD_QUEUE_DEPTH - 12);
  run_for(10);
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), BOARD_QUEUE_DEPTH - 2);
  send_batch(&host, MSG_REPLACE_SEGMENTS, start + 10 * FRAME, segs, BOARD_QUEUE_DEPTH - 9);
  run_for(10);
  host_read(&host);
  expect_error(&host, ERR_QUEUE_FULL, MSG_REPLACE_SEGMENTS, BOARD_QUEUE_DEPTH - 10);
}

static void stop_zeroes_and_clears(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  uint32_t start = (uint32_t)fake.now + MS_TICKS(1);
  const seg_spec_t segs[] = {{500, 200, 200, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, start, segs, 1);
  run_for(MS_TICKS(5));
  CHECK_EQ(drive_at(fake.now), board_level(200));
  const uint8_t other_channels[] = {0xFE};
  host_send(&host, MSG_STOP, other_channels, 1);
  run_for(MS_TICKS(1));
  CHECK_EQ(drive_at(fake.now), board_level(200)); /* channel 0's bit is clear */
  const uint8_t all[] = {0xFF};
  host_send(&host, MSG_STOP, all, 1);
  uint64_t sent = fake.now;
  run_for(MS_TICKS(1));
  CHECK_EQ(drive_at(sent), 0); /* at once */
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), 0);
  CHECK_EQ(status_field(&host, STATUS_UNDERRUNS), 0); /* a stop is no underrun */
  host_send(&host, MSG_STOP, all, 1); /* idempotent */
  run_for(MS_TICKS(1));
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  CHECK_EQ(drive_at(fake.now), 0);
}

static void underruns_count_a_dry_queue_while_driving(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  uint32_t start = (uint32_t)fake.now + MS_TICKS(1);
  const seg_spec_t ends_high[] = {{5, 100, 100, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, start, ends_high, 1);
  run_for(MS_TICKS(10));
  CHECK_EQ(drive_at(start + 5 * FRAME), 0); /* the board drives 0 */
  CHECK_EQ(status_field(&host, STATUS_UNDERRUNS), 1);
  const seg_spec_t ends_low[] = {{5, 100, 100, false}, {1, 0, 0, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, (uint32_t)fake.now + MS_TICKS(1), ends_low, 2);
  run_for(MS_TICKS(10));
  CHECK_EQ(status_field(&host, STATUS_UNDERRUNS), 1);
}

static void batch_errors(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  uint8_t payload[64];
  const seg_spec_t one[] = {{5, 10, 10, false}};
  uint8_t length = build_batch(payload, BOARD_CHANNEL_COUNT, (uint32_t)fake.now + 100, 1, one, 1);
  host_send(&host, MSG_QUEUE_SEGMENTS, payload, length);
  run_for(10);
  host_read(&host);
  expect_error(&host, ERR_BAD_CHANNEL, MSG_QUEUE_SEGMENTS, BOARD_CHANNEL_COUNT);
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
  /* 300 clamps to full scale, -100 to 0 without signed levels. */
  expect_levels_clamped(drive_at, board_level);
}

static void time_wraps_at_32_bits(void) {
  host_t host;
  boot_for_playback(&host, 0x100000000ull - MS_TICKS(10)); /* the low 32 bits wrap about 7 ms after setup */
  uint64_t start64 = fake.now + MS_TICKS(2);
  const seg_spec_t segs[] = {{10, 0, 225, false}};
  send_batch(&host, MSG_QUEUE_SEGMENTS, (uint32_t)start64, segs, 1);
  run_for(MS_TICKS(20));
  CHECK(start64 < 0x100000000ull && start64 + 10 * FRAME > 0x100000000ull);
  for (uint32_t k = 0; k < 10; k++) CHECK_EQ(drive_at(start64 + k * FRAME), board_level(25 * k));
  CHECK_EQ(drive_at(start64 + 10 * FRAME), 0);
}

/* Times compare as offsets from now (§6.2: each within 2^31 ticks of it), not with each other:
 * a late batch still cuts one queued ~1074 s ahead, more than 2^31 ticks after its start
 * (the fuzz harness's queue-order invariant: the late batch sat behind the other, silent). */
static void cut_compares_times_from_now(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
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
  CHECK_EQ(drive_at(fake.now), 50);
  CHECK_EQ(status_field(&host, STATUS_QUEUE_FILL), 1); /* the batch ahead was dropped */
}

const test_case_t playback_tests[] = {
    {"the vector batch plays frame by frame (127, brake -127 clamped to the board, ramp 20 -> 0)", plays_the_vector_batch_frame_by_frame},
    {"a gap between batches plays 0", gaps_play_zero},
    {"a late batch skips the past part and counts lateSegments", late_batches_skip_the_past},
    {"replace cuts the segment in progress at its start time", replace_cuts_the_segment_in_progress},
    {"queueFull refuses a batch whole with the free slots as detail", queue_full_refuses_the_whole_batch},
    {"stop zeroes the drive at once and clears the queue", stop_zeroes_and_clears},
    {"underruns: the queue running dry while the level is not 0", underruns_count_a_dry_queue_while_driving},
    {"batch errors: badChannel, badPayload, ramp length limit", batch_errors},
    {"two-byte levels; levels clamp to the board's range", two_byte_levels_and_clamping},
    {"playback across the 32-bit wrap of the board time", time_wraps_at_32_bits},
    {"a late batch cuts one queued more than 2^31 ticks after its start (times from now)", cut_compares_times_from_now},
    TEST_LIST_END,
};
