/*
 * test_board.c — board-level behaviour on this board's configuration: the host watchdog, set
 * watchdog, status, the boot counter and reset cause, payload checks, and a driver that does
 * not answer.
 */
#include <string.h>

#include "board.h"
#include "expect.h"
#include "fake_driver.h"
#include "fake_hal.h"
#include "host.h"
#include "test.h"

#define FRAME 2000u

/* Channel 0's drive in effect at time t; -1 before any. */
static int drive_at(uint64_t t) { return fake_drive_at(0, t); }

/* Where capabilities' fixed fields begin: after the version and three strings. */
static const uint8_t *capabilities_fields(const uint8_t *payload) {
  const uint8_t *p = payload + 1;
  for (int s = 0; s < 3; s++) p += 1 + p[0];
  return p;
}

/* A 1-segment batch of `frames` frames at `level` from `start`. */
static void queue_constant(host_t *host, uint32_t start, uint32_t frames, uint8_t level) {
  uint8_t payload[16] = {0, (uint8_t)start, (uint8_t)(start >> 8), (uint8_t)(start >> 16), (uint8_t)(start >> 24), 1, 1, 0x01};
  uint8_t n = 8;
  do {
    uint8_t byte = frames & 0x7F;
    frames >>= 7;
    payload[n++] = frames ? (uint8_t)(byte | 0x80) : byte;
  } while (frames);
  payload[n++] = level;
  host_send(host, MSG_QUEUE_SEGMENTS, payload, n);
}

static void watchdog_fires_after_silence(void) {
  host_t host;
  boot_and_connect(&host, 1000000);
  host.auto_ack = false; /* acks are frames too: the host must be really silent */
  uint32_t start = (uint32_t)fake.now + MS_TICKS(1);
  queue_constant(&host, start, 1000, 120); /* a second of drive */
  uint64_t last_frame = fake.now;
  run_for(MS_TICKS(5));
  host_read(&host);
  CHECK_EQ(drive_at(fake.now), 120);
  /* The host falls silent: at exactly 100 ms after its last frame the drive stops. */
  run_for(MS_TICKS(200));
  CHECK_EQ(drive_at(last_frame + MS_TICKS(100) - 1), 120);
  CHECK_EQ(drive_at(last_frame + MS_TICKS(100)), 0);
  size_t i = fake_driver.count;
  while (i > 0 && !(fake_driver.outputs[i - 1].channel == 0 && fake_driver.outputs[i - 1].stop)) i--;
  CHECK(i > 0 && fake_driver.outputs[i - 1].time == last_frame + MS_TICKS(100));
  /* A frame after the silence does not hide it: the first status says fired, with the queue
   * cleared (latched until reported, §6.7)... */
  host_request(&host, MSG_HEARTBEAT, 0, 0);
  const host_frame_t *status = request_status(&host);
  if (status) {
    CHECK_EQ(status->payload[4], 2);
    CHECK_EQ(le16(status->payload + 9), 0);
  }
  /* ...reported once: the next status finds it idle (nothing queued). */
  status = request_status(&host);
  if (status) CHECK_EQ(status->payload[4], 0);
  /* Silence with nothing to stop does not fire. */
  run_for(MS_TICKS(300));
  status = request_status(&host);
  if (status) CHECK_EQ(status->payload[4], 0);
  /* Armed while drive is queued and the host is heard. */
  queue_constant(&host, (uint32_t)fake.now + MS_TICKS(1), 50, 80);
  run_for(MS_TICKS(2));
  status = request_status(&host);
  if (status) CHECK_EQ(status->payload[4], 1);
}

static void heartbeats_keep_the_drive_alive(void) {
  host_t host;
  boot_and_connect(&host, 1000000);
  uint32_t start = (uint32_t)fake.now + MS_TICKS(1);
  queue_constant(&host, start, 400, 90);
  for (int i = 0; i < 12; i++) {
    run_for(MS_TICKS(25));
    host_read(&host);
    host_send(&host, MSG_HEARTBEAT, 0, 0);
  }
  run_for(MS_TICKS(1));
  /* 300 ms of heartbeats every 25 ms: never silent for 100 ms, the drive is still on. */
  CHECK_EQ(drive_at(fake.now), 90);
  CHECK(!board.watchdog_fired);
}

static void set_watchdog_bounds(void) {
  host_t host;
  boot_and_connect(&host, 1000000);
  static const struct {
    uint16_t ms;
    bool ok;
  } cases[] = {{0, false}, {9, false}, {10, true}, {5000, true}, {5001, false}, {250, true}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const uint8_t payload[] = {(uint8_t)cases[c].ms, (uint8_t)(cases[c].ms >> 8)};
    uint16_t before = board.watchdog_ms;
    host_send(&host, MSG_SET_WATCHDOG, payload, 2);
    run_for(10);
    host_read(&host);
    const host_frame_t *error = host_find(&host, MSG_ERROR);
    if (cases[c].ok) {
      CHECK(error == NULL);
      CHECK_EQ(board.watchdog_ms, cases[c].ms);
    } else {
      CHECK(error != NULL && error->payload[0] == ERR_BAD_PAYLOAD && error->payload[1] == MSG_SET_WATCHDOG);
      CHECK_EQ(board.watchdog_ms, before);
    }
  }
  /* A 3-byte payload is malformed too. */
  const uint8_t three[] = {100, 0, 0};
  host_send(&host, MSG_SET_WATCHDOG, three, 3);
  run_for(10);
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) != NULL);
  /* Capabilities report the new timeout, and it is the one that fires. */
  host_send(&host, MSG_IDENTIFY, 0, 0);
  run_for(10);
  host_read(&host);
  const host_frame_t *caps = host_find(&host, MSG_CAPABILITIES);
  CHECK(caps != NULL && le16(capabilities_fields(caps->payload) + 10) == 250);
  queue_constant(&host, (uint32_t)fake.now + MS_TICKS(1), 1000, 70);
  uint64_t last_frame = fake.now;
  run_for(MS_TICKS(300));
  CHECK_EQ(drive_at(last_frame + MS_TICKS(250) - 1), 70);
  CHECK_EQ(drive_at(last_frame + MS_TICKS(250)), 0);
}

static void status_reports_the_channel(void) {
  host_t host;
  boot_and_connect(&host, 1000000);
  uint32_t start = (uint32_t)fake.now + MS_TICKS(1);
  queue_constant(&host, start, 50, 33);
  queue_constant(&host, start + 50 * FRAME, 50, 44);
  run_for(MS_TICKS(10));
  host_read(&host);
  const host_frame_t *status = request_status(&host);
  if (!status) return;
  CHECK_EQ(status->frame.length, 9 + 8 * BOARD_CHANNEL_COUNT);
  CHECK_EQ(le32(status->payload), (uint32_t)(fake.now - 10)); /* taken when the request arrived */
  CHECK_EQ(status->payload[4], 1);          /* armed */
  CHECK_EQ(status->payload[5], 0);          /* no faults */
  CHECK_EQ(le16(status->payload + 6), 0);   /* bad frames */
  CHECK_EQ(status->payload[8], BOARD_CHANNEL_COUNT);
  CHECK_EQ(le16(status->payload + 9), 2);   /* queue fill */
  CHECK_EQ(le16(status->payload + 11), 0);  /* underruns */
  CHECK_EQ(le16(status->payload + 13), 0);  /* late */
  CHECK_EQ((int16_t)le16(status->payload + 15), 33);
}

static void boot_counter_and_cause(void) {
  host_t host;
  fake_reset(0);
  init_and_listen(&host, 1);
  CHECK_EQ(le16(host.frames[0].payload), 1); /* blank EEPROM counts as 0 */
  CHECK_EQ(host.frames[0].payload[2], 1);
  CHECK_EQ(host.frames[0].frame.session, 1);
  /* The next boot: 2, with the cause the HAL reports. */
  uint16_t stored = fake.eeprom_boot;
  fake_reset(0);
  fake.eeprom_boot = stored;
  fake.reset_cause = 2;
  init_and_listen(&host, 1);
  CHECK_EQ(le16(host.frames[0].payload), 2);
  CHECK_EQ(host.frames[0].payload[2], 2);
  /* 0x1FF: the session is the low byte. */
  fake_reset(0);
  fake.eeprom_boot = 0x1FE;
  init_and_listen(&host, 1);
  CHECK_EQ(host.frames[0].frame.session, 0xFF);
  CHECK_EQ(le16(host.frames[0].payload), 0x1FF);
}

static void empty_messages_refuse_payloads(void) {
  host_t host;
  boot_and_connect(&host, 1000000);
  const uint8_t junk[] = {1};
  const uint8_t types[] = {MSG_IDENTIFY, MSG_STATUS_REQUEST, MSG_HEARTBEAT};
  for (size_t t = 0; t < sizeof types; t++) {
    host_send(&host, types[t], junk, 1);
    run_for(10);
    host_read(&host);
    const host_frame_t *error = host_find(&host, MSG_ERROR);
    CHECK(error != NULL && error->payload[0] == ERR_BAD_PAYLOAD && error->payload[1] == types[t]);
  }
  const uint8_t short_query[] = {1};
  host_send(&host, MSG_CLOCK_QUERY, short_query, 1);
  run_for(10);
  host_read(&host);
  CHECK(host_find(&host, MSG_CLOCK) == NULL);
  CHECK(host_find(&host, MSG_ERROR) != NULL);
  /* A board-to-host type sent to the board is not a request it knows. */
  host_send(&host, MSG_STATUS, junk, 1);
  run_for(10);
  host_read(&host);
  const host_frame_t *error = host_find(&host, MSG_ERROR);
  CHECK(error != NULL && error->payload[0] == ERR_UNKNOWN_MESSAGE && error->payload[1] == MSG_STATUS);
}

static void missing_driver_is_a_fault(void) {
  host_t host;
  fake_reset(1000);
  fake_driver.present = false;
  expect_driver_not_responding(&host);
  CHECK_EQ(drive_at(fake.now - MS_TICKS(12)), 100); /* playback went on: the back end decides */
  /* An answering driver at the next boot: no fault. */
  fake_reset(1000);
  board_init();
  CHECK_EQ(board.faults, 0);
}

const test_case_t board_tests[] = {
    {"watchdog: silence stops drive at 100 ms, status fired, cleared by the next frame", watchdog_fires_after_silence},
    {"heartbeats keep the drive alive", heartbeats_keep_the_drive_alive},
    {"set watchdog: 10..5000 ms, else badPayload; the new timeout applies", set_watchdog_bounds},
    {"status reports time, watchdog, faults and the channels", status_reports_the_channel},
    {"boot counter, session id and reset cause", boot_counter_and_cause},
    {"empty messages refuse payloads; board-to-host types are unknown", empty_messages_refuse_payloads},
    {"a driver that does not answer is fault bit 2; playback goes on", missing_driver_is_a_fault},
    TEST_LIST_END,
};
