/*
 * test_channels.c — both channels played through the shared core: capabilities, the ERM's
 * signed PWM, the LRA's frequency per frame (f0 for 0 Hz, clamped to 80-300 Hz, ramps by the
 * level rule), the carrier-phase rule (§6.5), onsets of both channels on one frame, stop by
 * channel mask, and the watchdog stopping both.
 */
#include "batch.h"
#include "board.h"
#include "carrier.h"
#include "fake_hal.h"
#include "fake_hbridge.h"
#include "host.h"
#include "test.h"

#define FRAME 2000u /* ticks */

static void setup(host_t *host) {
  fake_bridge_reset();
  boot_for_playback(host, 1000000);
}

/* Skips a length-prefixed string of a payload. */
static const uint8_t *skip_string(const uint8_t *p) { return p + 1 + p[0]; }

static void capabilities_announce_both_channels(void) {
  host_t host;
  setup(&host);
  host_request(&host, MSG_IDENTIFY, 0, 0);
  const host_frame_t *caps = host_find(&host, MSG_CAPABILITIES);
  CHECK(caps != 0);
  if (!caps) return;
  const uint8_t *p = skip_string(skip_string(skip_string(caps->payload + 1)));
  p += 2 + 4 + 2 + 2 + 2; /* boot count, clock, frame period, queue depth, watchdog */
  CHECK_EQ(le16(p), 0x67); /* braking, overdrive, frequency control, signed levels, identity */
  CHECK_EQ(p[2], 2);
  const uint8_t *erm = p + 3, *lra = p + 14; /* 11 bytes per channel */
  CHECK(erm[0] == 2 && le16(erm + 1) == 2000 && le16(erm + 5) == 0 && le16(erm + 7) == 0 && erm[9] == 8);
  CHECK(lra[0] == 1 && le16(lra + 1) == 1700 && le16(lra + 3) == 1100 && le16(lra + 5) == 80 && le16(lra + 7) == 300);
  CHECK_EQ(caps->frame.length, (lra + 11) - caps->payload);
}

static void the_erm_gets_signed_pwm(void) {
  host_t host;
  setup(&host);
  uint32_t start = (uint32_t)fake.now + 10 * FRAME;
  const seg_spec_t segs[] = {{3, 64, 64}, {2, -127, -127}, {2, 0, 0}};
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 0, start, segs, 3);
  run_for(20 * FRAME);
  const fake_bridge_call_t *forward = fake_bridge_at(0, start + FRAME / 2);
  const fake_bridge_call_t *reverse = fake_bridge_at(0, start + 3 * FRAME + FRAME / 2);
  const fake_bridge_call_t *coast = fake_bridge_at(0, start + 5 * FRAME + FRAME / 2);
  CHECK(forward && forward->in1 == 129 && forward->in2 == 0 && forward->time == start);
  CHECK(reverse && reverse->in1 == 0 && reverse->in2 == 255 && reverse->time == start + 3 * FRAME);
  CHECK(coast && coast->in1 == 0 && coast->in2 == 0);
  CHECK(fake_bridge_at(1, start + 4 * FRAME)->carrier.amplitude == 0); /* the LRA stays off */
}

static uint32_t increment_at(uint64_t time) { return fake_bridge_at(1, time)->carrier.increment; }

static void the_lra_follows_each_frames_frequency(void) {
  host_t host;
  setup(&host);
  uint32_t s = (uint32_t)fake.now + 10 * FRAME;
  /* f0 (0 Hz), 250 Hz, 400 → 300 Hz, 50 → 80 Hz, a ramp 100 → 200 Hz over 11 frames. */
  const seg_spec_t segs[] = {{2, 100, 100, false, 0, 0}, {2, 100, 100, false, 250, 250}, {2, 100, 100, false, 400, 400},
                             {2, 100, 100, false, 50, 50}, {11, 100, 100, false, 100, 200}};
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 1, s, segs, 5);
  run_for(30 * FRAME);
  CHECK_EQ(increment_at(s + FRAME / 2), carrier_increment(1700));
  CHECK_EQ(increment_at(s + 2 * FRAME + FRAME / 2), carrier_increment(2500));
  CHECK_EQ(increment_at(s + 4 * FRAME + FRAME / 2), carrier_increment(3000));
  CHECK_EQ(increment_at(s + 6 * FRAME + FRAME / 2), carrier_increment(800));
  for (uint32_t j = 0; j <= 10; j++) {
    CHECK_EQ(increment_at(s + (8 + j) * FRAME + FRAME / 2), carrier_increment((uint16_t)(1000 + 100 * j)));
  }
  CHECK_EQ(fake_bridge_at(1, s + 19 * FRAME + FRAME / 2)->carrier.amplitude, 0); /* the end: off */
}

static void the_carrier_phase_restarts_only_after_a_zero_frame(void) {
  host_t host;
  setup(&host);
  uint32_t s = (uint32_t)fake.now + 10 * FRAME;
  const seg_spec_t segs[] = {{2, 100, 100}, {2, 50, 50}, {2, -50, -50}, {1, 0, 0}, {2, 80, 80}};
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 1, s, segs, 5);
  /* A second batch after a gap: the gap plays 0, so its first frame restarts too. */
  const seg_spec_t later[] = {{2, 60, 60}};
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 1, s + 12 * FRAME, later, 1);
  run_for(30 * FRAME);
  const struct {
    uint32_t frame;
    uint8_t amplitude;
    bool inverted, restart;
  } expected[] = {{0, 201, false, true}, {2, 100, false, false}, {4, 100, true, false},
                  {6, 0, false, false},  {7, 161, false, true},  {12, 120, false, true}};
  for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
    const fake_bridge_call_t *call = fake_bridge_at(1, s + expected[i].frame * FRAME + FRAME / 2);
    CHECK(call && call->time == s + expected[i].frame * FRAME);
    if (!call) continue;
    CHECK_EQ(call->carrier.amplitude, expected[i].amplitude);
    CHECK_EQ(call->carrier.inverted, expected[i].inverted);
    CHECK_EQ(call->restart, expected[i].restart);
    if (expected[i].restart) CHECK_EQ(call->since, s + expected[i].frame * FRAME); /* aligned to the frame */
  }
}

static void both_channels_start_on_one_frame(void) {
  host_t host;
  setup(&host);
  uint32_t s = (uint32_t)fake.now + 10 * FRAME;
  const seg_spec_t erm[] = {{5, 127, 127}}, lra[] = {{5, 90, 90}};
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 0, s, erm, 1);
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 1, s, lra, 1);
  run_for(20 * FRAME);
  size_t index = 0;
  const fake_bridge_call_t *first_erm = 0, *first_lra = 0;
  for (const fake_bridge_call_t *c = fake_bridge_next(0, 0, &index); c; c = fake_bridge_next(0, index + 1, &index)) {
    if (c->in1) { first_erm = c; break; }
  }
  for (const fake_bridge_call_t *c = fake_bridge_next(1, 0, &index); c; c = fake_bridge_next(1, index + 1, &index)) {
    if (c->carrier.amplitude) { first_lra = c; break; }
  }
  CHECK(first_erm && first_lra && first_erm->time == s && first_lra->time == s);
}

static void stop_by_mask_and_the_watchdog(void) {
  host_t host;
  setup(&host);
  uint32_t s = (uint32_t)fake.now + 5 * FRAME;
  const seg_spec_t hold[] = {{500, 100, 100}};
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 0, s, hold, 1);
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 1, s, hold, 1);
  run_for(10 * FRAME);
  const uint8_t lra_only = 0x02;
  host_send(&host, MSG_STOP, &lra_only, 1);
  run_for(2 * FRAME);
  CHECK_EQ(fake_bridge_at(1, fake.now)->carrier.amplitude, 0);
  CHECK(fake_bridge_at(0, fake.now)->in1 > 0);
  /* Silence from the host beyond the watchdog (5 s here: back to 100 ms first). */
  const uint8_t hundred_ms[] = {100, 0};
  host_send(&host, MSG_SET_WATCHDOG, hundred_ms, 2);
  run_for(MS_TICKS(150));
  CHECK_EQ(fake_bridge_at(0, fake.now)->in1, 0);
  CHECK_EQ(fake_bridge_at(0, fake.now)->in2, 0);
}

/* The carrier's frames switch at their starts through staged switches (the interrupt's);
 * a replace batch restages the next frame, and a stop cancels what was staged. */
static void staged_switches_land_on_frame_starts(void) {
  host_t host;
  setup(&host);
  uint32_t s = (uint32_t)fake.now + 10 * FRAME;
  const seg_spec_t ramp[] = {{20, 20, 115}};
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 1, s, ramp, 1);
  run_for(15 * FRAME);
  /* Frames 1…4 of the ramp: each switched by a staged change at its exact start. */
  for (uint32_t j = 1; j <= 4; j++) {
    const fake_bridge_call_t *call = fake_bridge_at(1, s + j * FRAME);
    CHECK(call && call->staged && call->time == s + j * FRAME && !call->restart);
    if (call) CHECK_EQ(call->carrier.amplitude, carrier_amplitude((int16_t)(20 + 5 * j)));
  }
  /* Mid-frame 5, a replace from frame 8: level -60 from there (anti-phase, no restart). */
  const seg_spec_t replace[] = {{4, -60, -60}};
  send_batch_on(&host, MSG_REPLACE_SEGMENTS, 1, s + 8 * FRAME, replace, 1);
  run_for(6 * FRAME);
  const fake_bridge_call_t *replaced = fake_bridge_at(1, s + 8 * FRAME);
  CHECK(replaced && replaced->time == s + 8 * FRAME && replaced->carrier.inverted && !replaced->restart);
  CHECK(fake_bridge_at(1, s + 7 * FRAME)->carrier.amplitude == carrier_amplitude(55));
  /* A stop mid-frame: the carrier stops and nothing staged before comes back. */
  const seg_spec_t hold[] = {{50, 90, 90}};
  uint32_t t = (uint32_t)fake.now + 2 * FRAME;
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 1, t, hold, 1);
  run_for(5 * FRAME + FRAME / 2);
  const uint8_t lra_only = 0x02;
  host_send(&host, MSG_STOP, &lra_only, 1);
  run_for(10 * FRAME);
  CHECK_EQ(fake_bridge_at(1, fake.now)->carrier.amplitude, 0);
}

/* A stop while silent cancels an onset already staged (the frame before it was computed). */
static void stop_cancels_a_staged_onset(void) {
  host_t host;
  setup(&host);
  /* A burst first: silence after it is level 0 at f0, as after any playback. */
  const seg_spec_t burst[] = {{3, 80, 80}};
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 1, (uint32_t)fake.now + 2 * FRAME, burst, 1);
  run_for(10 * FRAME);
  uint32_t s = (uint32_t)fake.now + 4 * FRAME;
  const seg_spec_t onset[] = {{20, 100, 100}};
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 1, s, onset, 1);
  run_for(3 * FRAME + FRAME / 2); /* within the frame before the onset: it is staged */
  const uint8_t lra_only = 0x02;
  host_send(&host, MSG_STOP, &lra_only, 1);
  run_for(10 * FRAME);
  for (size_t i = 0; i < bridge.count; i++) {
    if (bridge.calls[i].channel == 1 && bridge.calls[i].time >= s) CHECK_EQ(bridge.calls[i].carrier.amplitude, 0);
  }
  CHECK_EQ(fake_bridge_at(1, s + 5 * FRAME)->carrier.amplitude, 0);
}

/* The main loop busy for 3.5 frames (a batch being decoded): the frames it does not compute
 * meanwhile still switch at their starts on both bridges, staged four ahead. */
static void staged_frames_cover_a_busy_main_loop(void) {
  host_t host;
  setup(&host);
  uint32_t s = (uint32_t)fake.now + 10 * FRAME;
  const seg_spec_t brake[] = {{1, 90, 90}, {1, -60, -60}, {1, 0, 0}, {1, -40, -40}, {1, 30, 30}, {1, 0, 0}};
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 1, s, brake, 6);
  const seg_spec_t erm[] = {{1, 127, 127}, {1, 64, 64}, {1, -127, -127}, {1, 0, 0}};
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 0, s, erm, 4);
  run_for((uint64_t)(s - (uint32_t)fake.now) + FRAME / 4); /* frame 0 output, frames 1-4 staged */
  fake.now += 3 * FRAME + FRAME / 4;                        /* no board_poll meanwhile */
  const struct {
    uint8_t amplitude;
    bool inverted, restart;
  } expected[] = {{181, false, true}, {120, true, false}, {0, false, false}, {80, true, true}};
  for (uint32_t j = 0; j < 4; j++) {
    const fake_bridge_call_t *call = fake_bridge_at(1, s + j * FRAME);
    CHECK(call && call->time == s + j * FRAME);
    if (!call) continue;
    CHECK(j == 0 || call->staged);
    CHECK_EQ(call->carrier.amplitude, expected[j].amplitude);
    if (expected[j].amplitude) CHECK_EQ(call->carrier.inverted, expected[j].inverted);
    CHECK_EQ(call->restart, expected[j].restart);
  }
  const uint8_t erm_in1[] = {255, 129, 0, 0}, erm_in2[] = {0, 0, 255, 0};
  for (uint32_t j = 0; j < 4; j++) {
    const fake_bridge_call_t *call = fake_bridge_at(0, s + j * FRAME);
    CHECK(call && call->time == s + j * FRAME && call->in1 == erm_in1[j] && call->in2 == erm_in2[j]);
  }
  run_for(10 * FRAME);
  CHECK_EQ(fake_bridge_at(1, s + 4 * FRAME)->carrier.amplitude, 60);
  CHECK_EQ(fake_bridge_at(1, s + 6 * FRAME)->carrier.amplitude, 0);
  /* Back in the loop, it found frames 1-2 played by the bridge: nothing set again by hand. */
  for (size_t i = 0; i < bridge.count; i++) {
    const fake_bridge_call_t *call = &bridge.calls[i];
    if (call->time > s) CHECK(call->staged);
  }
}

const test_case_t channel_tests[] = {
    {"capabilities: ERM + LRA (80-300 Hz), features 0x67", capabilities_announce_both_channels},
    {"ERM: forward, reverse (brake), coast, on time", the_erm_gets_signed_pwm},
    {"LRA: f0 for 0 Hz, clamped to 80-300 Hz, frequency ramps frame by frame", the_lra_follows_each_frames_frequency},
    {"LRA: phase restarts on the first non-zero frame after a zero frame (§6.5)", the_carrier_phase_restarts_only_after_a_zero_frame},
    {"both channels' onsets on one frame", both_channels_start_on_one_frame},
    {"LRA: staged switches at frame starts; replace restages; stop cancels", staged_switches_land_on_frame_starts},
    {"LRA: a stop while silent cancels a staged onset", stop_cancels_a_staged_onset},
    {"both: frames staged four ahead switch on time while the main loop is busy", staged_frames_cover_a_busy_main_loop},
    {"stop by mask leaves the other channel; the watchdog stops both", stop_by_mask_and_the_watchdog},
    TEST_LIST_END,
};
