/*
 * test_requests.c — the checks every request passes before it is handled (board.c's `rules`),
 * on this board's configuration: payload lengths and field ranges (badPayload), features
 * (notSupported), channels (badChannel) and a running calibration (busy), in that order;
 * unknown and board-to-host types; and a calibration's outcome reported, in `calibration result`
 * and in capabilities (a calibrated channel's measured f0).
 */
#include <string.h>

#include "board.h"
#include "expect.h"
#include "fake_driver.h"
#include "fake_hal.h"
#include "host.h"
#include "test.h"

#define HAS_CALIBRATION ((BOARD_FEATURES & BOARD_FEATURE_CALIBRATION) != 0)
#define HAS_ROM_EFFECTS ((BOARD_FEATURES & BOARD_FEATURE_ROM_EFFECTS) != 0)

static void expect_no_error(host_t *host) { CHECK(host_find(host, MSG_ERROR) == NULL); }

/* An effect payload: channel, library, effect, start time. */
static uint8_t rom_effect(uint8_t *out, uint8_t channel, uint8_t library, uint8_t effect, uint32_t start) {
  const uint8_t payload[7] = {channel, library, effect, (uint8_t)start, (uint8_t)(start >> 8), (uint8_t)(start >> 16),
                              (uint8_t)(start >> 24)};
  memcpy(out, payload, sizeof payload);
  return sizeof payload;
}

/* A batch header and one 5-frame segment at level 40, on `channel`. */
static uint8_t batch(uint8_t *out, uint8_t channel, uint32_t start) {
  const uint8_t payload[10] = {channel, (uint8_t)start, (uint8_t)(start >> 8), (uint8_t)(start >> 16), (uint8_t)(start >> 24),
                               1, 1, 0x01, 5, 40};
  memcpy(out, payload, sizeof payload);
  return sizeof payload;
}

static void lengths_are_checked_first(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  static const struct {
    uint8_t type, length;
  } exact[] = {{MSG_IDENTIFY, 0},      {MSG_CLOCK_QUERY, 2}, {MSG_STOP, 1},          {MSG_STATUS_REQUEST, 0},
               {MSG_HEARTBEAT, 0},     {MSG_CALIBRATE, 1},   {MSG_PLAY_ROM_EFFECT, 7}, {MSG_SET_WATCHDOG, 2},
               {MSG_IDENTITY_REQUEST, 4} /* or none: test_identity.c */};
  uint8_t payload[16] = {0};
  for (size_t t = 0; t < sizeof exact / sizeof exact[0]; t++) {
    /* One byte short and one too many, before any other check (channel 0 is valid). */
    for (int delta = -1; delta <= 1; delta += 2) {
      if (exact[t].length == 0 && delta < 0) continue;
      host_request(&host, exact[t].type, payload, (uint8_t)(exact[t].length + delta));
      expect_error(&host, ERR_BAD_PAYLOAD, exact[t].type, 0);
    }
  }
  /* A batch's header is 7 bytes; a bad channel in a short one is still badPayload. */
  for (uint8_t length = 0; length < 7; length++) {
    payload[0] = 0xFF;
    host_request(&host, MSG_QUEUE_SEGMENTS, payload, length);
    expect_error(&host, ERR_BAD_PAYLOAD, MSG_QUEUE_SEGMENTS, 0);
  }
}

static void field_ranges_are_payload_errors(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  uint8_t payload[16];
  /* set watchdog: 10-5000 ms. */
  static const struct {
    uint16_t ms;
    bool ok;
  } watchdogs[] = {{9, false}, {10, true}, {5000, true}, {5001, false}, {0xFFFF, false}};
  for (size_t w = 0; w < sizeof watchdogs / sizeof watchdogs[0]; w++) {
    const uint8_t ms[] = {(uint8_t)watchdogs[w].ms, (uint8_t)(watchdogs[w].ms >> 8)};
    host_request(&host, MSG_SET_WATCHDOG, ms, 2);
    if (watchdogs[w].ok) {
      expect_no_error(&host);
      CHECK_EQ(board.watchdog_ms, watchdogs[w].ms);
    } else {
      expect_error(&host, ERR_BAD_PAYLOAD, MSG_SET_WATCHDOG, 0);
    }
  }
  /* A batch's levelBytes: 1 or 2. */
  for (uint8_t width = 0; width <= 3; width++) {
    uint8_t length = batch(payload, 0, (uint32_t)fake.now + MS_TICKS(5));
    payload[5] = width;
    host_request(&host, MSG_QUEUE_SEGMENTS, payload, length);
    if (width == 1) expect_no_error(&host);
    else if (width == 0 || width == 3) expect_error(&host, ERR_BAD_PAYLOAD, MSG_QUEUE_SEGMENTS, 0);
  }
  /* An effect's library 1-7 and effect 1-123, checked before the feature and the channel. */
  static const uint8_t bad[][2] = {{0, 1}, {8, 1}, {1, 0}, {1, 124}};
  for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
    uint8_t length = rom_effect(payload, BOARD_CHANNEL_COUNT, bad[b][0], bad[b][1], (uint32_t)fake.now + MS_TICKS(5));
    host_request(&host, MSG_PLAY_ROM_EFFECT, payload, length);
    expect_error(&host, ERR_BAD_PAYLOAD, MSG_PLAY_ROM_EFFECT, 0);
  }
}

static void features_then_channels(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  uint8_t payload[16];
  /* Calibration and effects where BOARD_FEATURES has them, else notSupported first. */
  for (int channel = BOARD_CHANNEL_COUNT; channel >= 0; channel--) {
    const uint8_t calibrate[] = {(uint8_t)channel};
    host_request(&host, MSG_CALIBRATE, calibrate, 1);
    if (!HAS_CALIBRATION) expect_error(&host, ERR_NOT_SUPPORTED, MSG_CALIBRATE, 0);
    else if (channel == BOARD_CHANNEL_COUNT) expect_error(&host, ERR_BAD_CHANNEL, MSG_CALIBRATE, channel);
    else expect_no_error(&host);
    fake_driver.calibrating = false; /* done at once */
    uint8_t length = rom_effect(payload, (uint8_t)channel, 1, 1, (uint32_t)fake.now + MS_TICKS(5));
    host_request(&host, MSG_PLAY_ROM_EFFECT, payload, length);
    if (!HAS_ROM_EFFECTS) expect_error(&host, ERR_NOT_SUPPORTED, MSG_PLAY_ROM_EFFECT, 0);
    else if (channel == BOARD_CHANNEL_COUNT) expect_error(&host, ERR_BAD_CHANNEL, MSG_PLAY_ROM_EFFECT, channel);
    else expect_no_error(&host);
  }
  CHECK_EQ(fake_driver.calibrations, HAS_CALIBRATION ? BOARD_CHANNEL_COUNT : 0);
  CHECK_EQ(fake_driver.effects, HAS_ROM_EFFECTS ? BOARD_CHANNEL_COUNT : 0);
  if (HAS_ROM_EFFECTS) CHECK(fake_driver.effect_library == 1 && fake_driver.effect == 1 && fake_driver.effect_channel == 0);
  /* Batches on every channel of the board, and none past them (detail: the channel). */
  for (int channel = 0; channel <= BOARD_CHANNEL_COUNT; channel++) {
    uint8_t length = batch(payload, (uint8_t)channel, (uint32_t)fake.now + MS_TICKS(5));
    host_request(&host, MSG_REPLACE_SEGMENTS, payload, length);
    if (channel < BOARD_CHANNEL_COUNT) expect_no_error(&host);
    else expect_error(&host, ERR_BAD_CHANNEL, MSG_REPLACE_SEGMENTS, channel);
  }
  uint8_t length = batch(payload, 0xFF, (uint32_t)fake.now + MS_TICKS(5));
  host_request(&host, MSG_QUEUE_SEGMENTS, payload, length);
  expect_error(&host, ERR_BAD_CHANNEL, MSG_QUEUE_SEGMENTS, 0xFF);
  /* An effect whose start has passed. */
  length = rom_effect(payload, 0, 1, 1, (uint32_t)fake.now - 1);
  host_request(&host, MSG_PLAY_ROM_EFFECT, payload, length);
  expect_error(&host, HAS_ROM_EFFECTS ? ERR_TIME_IN_PAST : ERR_NOT_SUPPORTED, MSG_PLAY_ROM_EFFECT, 0);
}

static void busy_while_calibrating(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  fake_driver.calibrating = true;
  fake_driver.calibration_end = (uint32_t)fake.now + MS_TICKS(1000);
  uint8_t payload[16];
  uint8_t length = batch(payload, 0, (uint32_t)fake.now + MS_TICKS(5));
  host_request(&host, MSG_QUEUE_SEGMENTS, payload, length);
  expect_error(&host, ERR_BUSY, MSG_QUEUE_SEGMENTS, 0);
  host_request(&host, MSG_REPLACE_SEGMENTS, payload, length);
  expect_error(&host, ERR_BUSY, MSG_REPLACE_SEGMENTS, 0);
  /* A bad channel or payload is reported before busy. */
  payload[0] = BOARD_CHANNEL_COUNT;
  host_request(&host, MSG_QUEUE_SEGMENTS, payload, length);
  expect_error(&host, ERR_BAD_CHANNEL, MSG_QUEUE_SEGMENTS, BOARD_CHANNEL_COUNT);
  host_request(&host, MSG_QUEUE_SEGMENTS, payload, 6);
  expect_error(&host, ERR_BAD_PAYLOAD, MSG_QUEUE_SEGMENTS, 0);
  const uint8_t zero[] = {0};
  host_request(&host, MSG_CALIBRATE, zero, 1);
  expect_error(&host, HAS_CALIBRATION ? ERR_BUSY : ERR_NOT_SUPPORTED, MSG_CALIBRATE, 0);
  length = rom_effect(payload, 0, 1, 1, (uint32_t)fake.now + MS_TICKS(5));
  host_request(&host, MSG_PLAY_ROM_EFFECT, payload, length);
  expect_error(&host, HAS_ROM_EFFECTS ? ERR_BUSY : ERR_NOT_SUPPORTED, MSG_PLAY_ROM_EFFECT, 0);
  /* Everything else is answered meanwhile. */
  const uint8_t query[] = {7, 0};
  host_request(&host, MSG_CLOCK_QUERY, query, 2);
  CHECK(host_find(&host, MSG_CLOCK) != NULL);
  host_request(&host, MSG_STATUS_REQUEST, 0, 0);
  CHECK(host_find(&host, MSG_STATUS) != NULL);
  const uint8_t all[] = {0xFF};
  host_request(&host, MSG_STOP, all, 1);
  expect_no_error(&host);
  CHECK_EQ(fake_driver.calibrations, 0);
}

static void unknown_and_board_types(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  static const uint8_t unknown[] = {MSG_CAPABILITIES,       MSG_CLOCK,    MSG_STATUS, MSG_RESET_NOTICE,
                                    MSG_CALIBRATION_RESULT, MSG_IDENTITY, 0x13,       0x42,
                                    0xFF};
  const uint8_t junk[] = {1, 2, 3};
  for (size_t u = 0; u < sizeof unknown; u++) {
    host_request(&host, unknown[u], junk, (uint8_t)(u % 4));
    expect_error(&host, ERR_UNKNOWN_MESSAGE, unknown[u], 0);
  }
  /* An error from the host, whatever its payload: noted, no answer but the ack. */
  host_request(&host, MSG_ERROR, junk, 3);
  expect_no_error(&host);
  CHECK(host_find(&host, MSG_ACK) != NULL);
  /* Unreliable frames of unknown types and unreliable bad requests: ignored or answered. */
  frame_t unreliable = {PROTOCOL_VERSION, 0, host.session, 0, 0, 0x42, 3, junk};
  host_send_frame(&unreliable);
  run_for(MS_TICKS(1));
  CHECK_EQ(host_read(&host), 0);
  frame_t heartbeat = {PROTOCOL_VERSION, 0, host.session, 0, 0, MSG_HEARTBEAT, 1, junk};
  host_send_frame(&heartbeat);
  run_for(MS_TICKS(1));
  host_read(&host);
  expect_error(&host, ERR_BAD_PAYLOAD, MSG_HEARTBEAT, 0);
}

static void calibration_outcome_is_reported(void) {
  if (!HAS_CALIBRATION) return; /* notSupported: features_then_channels */
  host_t host;
  boot_for_playback(&host, 1000000);
  const uint8_t zero[] = {0};
  host_request(&host, MSG_CALIBRATE, zero, 1);
  expect_no_error(&host);
  CHECK(fake_driver.calibrating);
  run_for(MS_TICKS(1001));
  host_read(&host);
  const host_frame_t *result = host_find(&host, MSG_CALIBRATION_RESULT);
  CHECK(result != NULL && result->frame.length == 6);
  if (result) {
    CHECK_EQ(result->payload[0], 0); /* channel */
    CHECK_EQ(result->payload[1], 1); /* succeeded */
    CHECK_EQ(le16(result->payload + 2), 1751);
    CHECK_EQ(result->payload[4], 12);
    CHECK_EQ(result->payload[5], 140);
  }
  /* A run that does not finish: calibrationFailed with the driver's status as detail. */
  fake_driver.calibration_fails = true;
  host_request(&host, MSG_CALIBRATE, zero, 1);
  run_for(MS_TICKS(1001));
  host_read(&host);
  CHECK(host_find(&host, MSG_CALIBRATION_RESULT) == NULL);
  expect_error(&host, ERR_CALIBRATION_FAILED, MSG_CALIBRATE, 0xFF);
}

/* Asks for capabilities and checks each channel's f0 and calibration state: `f0_x10` on every
 * channel, or (0) the board file's. */
static void expect_announced_f0(host_t *host, uint16_t f0_x10, uint8_t calibration) {
  static const wire_channel_info_t info[BOARD_CHANNEL_COUNT] = BOARD_CHANNEL_INFO;
  host_request(host, MSG_IDENTIFY, 0, 0);
  const host_frame_t *caps = host_find(host, MSG_CAPABILITIES);
  CHECK(caps != NULL);
  if (!caps) return;
  const uint8_t *p = caps->payload + 1;
  for (int s = 0; s < 3; s++) p += 1 + p[0];
  p += 15; /* boot count ... channel count */
  for (uint8_t c = 0; c < BOARD_CHANNEL_COUNT; c++, p += 11) {
    CHECK_EQ(le16(p + 1), f0_x10 != 0 ? f0_x10 : info[c].f0_x10);
    CHECK_EQ(p[10], calibration);
  }
}

static void capabilities_carry_the_calibrated_f0(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  const uint8_t uncalibrated = HAS_CALIBRATION ? CALIBRATION_UNCALIBRATED : CALIBRATION_NOT_APPLICABLE;
  expect_announced_f0(&host, 0, uncalibrated); /* before: the board file's */
  if (HAS_CALIBRATION) {
    /* A calibration run (the test back end measures 175.1 Hz). */
    const uint8_t zero[] = {0};
    host_request(&host, MSG_CALIBRATE, zero, 1);
    expect_announced_f0(&host, 0, uncalibrated); /* not while it runs */
    run_for(MS_TICKS(1001));
    host_read(&host);
    CHECK(host_find(&host, MSG_CALIBRATION_RESULT) != NULL);
  } else {
    /* A back end that reports a measured f0 (none of this board's can calibrate). */
    fake_driver.calibration_state = CALIBRATION_CALIBRATED;
    fake_driver.result.f0_x10 = 1751;
  }
  expect_announced_f0(&host, 1751, CALIBRATION_CALIBRATED);
  /* Calibrated with nothing measured: the board file's. */
  fake_driver.result.f0_x10 = 0;
  expect_announced_f0(&host, 0, CALIBRATION_CALIBRATED);
  /* Not calibrated (a failed run), whatever the driver measured: the board file's. */
  fake_driver.result.f0_x10 = 1751;
  fake_driver.calibration_state = CALIBRATION_FAILED;
  expect_announced_f0(&host, 0, CALIBRATION_FAILED);
  fake_driver.calibration_state = CALIBRATION_UNCALIBRATED;
  expect_announced_f0(&host, 0, CALIBRATION_UNCALIBRATED);
}

const test_case_t request_tests[] = {
    {"a payload of the wrong length is badPayload before any other check", lengths_are_checked_first},
    {"field ranges: watchdog 10-5000 ms, levelBytes 1-2, library 1-7, effect 1-123", field_ranges_are_payload_errors},
    {"notSupported before badChannel (detail: the channel); batches on every channel", features_then_channels},
    {"busy while calibrating, after payload and channel checks; other requests answered", busy_while_calibrating},
    {"unknown and board-to-host types: unknownMessage when reliable; the host's errors noted", unknown_and_board_types},
    {"a calibration's outcome: calibration result, or calibrationFailed", calibration_outcome_is_reported},
    {"capabilities: a calibrated channel's measured f0, else the board file's (v1.1)", capabilities_carry_the_calibrated_f0},
    TEST_LIST_END,
};
