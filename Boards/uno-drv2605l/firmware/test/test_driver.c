/*
 * test_driver.c — the DRV2605L through the board: the init register sequence, calibration
 * (result mapping, failure, timeout, busy, the measured f0 in capabilities), ROM effects
 * (register sequence at the start time, queued drive replaced meanwhile, errors).
 */
#include <string.h>

#include "board.h"
#include "drv2605.h"
#include "fake_drv2605.h"
#include "fake_hal.h"
#include "host.h"
#include "test.h"

/* The calibration record in the fake EEPROM. */
#define CALIBRATION_RECORD (fake.eeprom + DRV_CALIBRATION_EEPROM)

#define FRAME 2000u

/* The value of `reg` after the write log up to index `until`. */
static int reg_after(uint8_t reg, size_t until) {
  int value = -1;
  for (size_t i = 0; i < until && i < fake_drv.write_count; i++) {
    if (fake_drv.writes[i].reg == reg) value = fake_drv.writes[i].value;
  }
  return value;
}

static void init_configures_closed_loop_rtp(void) {
  fake_reset(1000);
  board_init();
  CHECK(drv2605.present);
  CHECK_EQ(drv2605.device_id, 7);
  size_t n = fake_drv.write_count;
  CHECK(n >= 10);
  CHECK_EQ(fake_drv.writes[0].reg, DRV_REG_MODE); /* out of standby first */
  CHECK_EQ(fake_drv.writes[0].value, 0x00);
  CHECK_EQ(reg_after(DRV_REG_FEEDBACK, n) & 0x80, 0x80); /* N_ERM_LRA: LRA */
  CHECK_EQ(reg_after(DRV_REG_RATED_VOLTAGE, n), 0x53);
  CHECK_EQ(reg_after(DRV_REG_OD_CLAMP, n), 0x98);
  CHECK_EQ(reg_after(DRV_REG_CONTROL3, n) & 0x09, 0x08); /* unsigned RTP, closed loop */
  CHECK_EQ(reg_after(DRV_REG_CONTROL2, n) & 0x80, 0x00); /* unidirectional input */
  CHECK_EQ(reg_after(DRV_REG_RTP_INPUT, n), 0);
  CHECK_EQ(fake_drv.writes[n - 1].reg, DRV_REG_MODE); /* RTP mode last */
  CHECK_EQ(fake_drv.writes[n - 1].value, DRV_MODE_RTP);
  CHECK_EQ(board.faults, 0);
}

static const host_frame_t *calibrate(host_t *host, uint64_t run) {
  const uint8_t channel[] = {0};
  host_send(host, MSG_CALIBRATE, channel, 1);
  run_for(run);
  host_read(host);
  return host_find(host, MSG_CALIBRATION_RESULT);
}

static void calibration_reports_the_chip_results(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  /* Drive is queued; calibration drops it and plays nothing meanwhile. */
  uint8_t batch[] = {0, 0, 0, 0, 0, 1, 1, 0x01, 0xE8, 0x07, 120}; /* 1000 frames at 120 */
  uint32_t start = (uint32_t)fake.now + 100;
  memcpy(batch + 1, &start, 4);
  host_send(&host, MSG_QUEUE_SEGMENTS, batch, sizeof batch);
  run_for(MS_TICKS(5));
  size_t before = fake_drv.write_count;
  const uint8_t channel[] = {0};
  host_send(&host, MSG_CALIBRATE, channel, 1);
  run_for(MS_TICKS(100));
  host_read(&host);
  CHECK(host_find(&host, MSG_CALIBRATION_RESULT) == NULL); /* still running */
  CHECK_EQ(reg_after(DRV_REG_MODE, fake_drv.write_count), DRV_MODE_AUTO_CALIBRATION);
  CHECK_EQ(reg_after(DRV_REG_GO, fake_drv.write_count), 1);
  CHECK_EQ(reg_after(DRV_REG_RTP_INPUT, fake_drv.write_count), 0);
  CHECK_EQ(reg_after(DRV_REG_CONTROL4, fake_drv.write_count) & 0x30, 0x30); /* AUTO_CAL_TIME 1 s */
  /* Meanwhile: batches and ROM effects are busy, clock queries are answered. */
  host_send(&host, MSG_QUEUE_SEGMENTS, batch, sizeof batch);
  run_for(10);
  host_read(&host);
  const host_frame_t *error = host_find(&host, MSG_ERROR);
  CHECK(error != NULL && error->payload[0] == ERR_BUSY && error->payload[1] == MSG_QUEUE_SEGMENTS);
  host_send(&host, MSG_CALIBRATE, channel, 1);
  run_for(10);
  host_read(&host);
  error = host_find(&host, MSG_ERROR);
  CHECK(error != NULL && error->payload[0] == ERR_BUSY && error->payload[1] == MSG_CALIBRATE);
  const uint8_t query[] = {7, 0};
  host_send(&host, MSG_CLOCK_QUERY, query, 2);
  run_for(10);
  host_read(&host);
  CHECK(host_find(&host, MSG_CLOCK) != NULL);
  /* No RTP drive while calibrating. */
  for (size_t i = before; i < fake_drv.write_count; i++) CHECK(!(fake_drv.writes[i].reg == DRV_REG_RTP_INPUT && fake_drv.writes[i].value != 0));
  /* About 1 s later: the result. LRA_PERIOD 0x3A -> 175.1 Hz, A_CAL_COMP 0x0C, A_CAL_BEMF 0x8C. */
  run_for(MS_TICKS(1000));
  host_read(&host);
  const host_frame_t *result = host_find(&host, MSG_CALIBRATION_RESULT);
  CHECK(result != NULL);
  if (!result) return;
  CHECK_EQ(result->frame.length, 6);
  CHECK_EQ(result->payload[0], 0);
  CHECK_EQ(result->payload[1], 1);
  CHECK_EQ(le16(result->payload + 2), 1751);
  CHECK_EQ(result->payload[4], 0x0C);
  CHECK_EQ(result->payload[5], 0x8C);
  CHECK_EQ(reg_after(DRV_REG_MODE, fake_drv.write_count), DRV_MODE_RTP); /* back to RTP */
  /* Capabilities now say calibrated (2). */
  host_send(&host, MSG_IDENTIFY, 0, 0);
  run_for(10);
  host_read(&host);
  const host_frame_t *caps = host_find(&host, MSG_CAPABILITIES);
  CHECK(caps != NULL && caps->payload[caps->frame.length - 1] == 2);
}

static void calibration_failure_is_reported(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  fake_drv.calibration_status = 0x08; /* DIAG_RESULT: failed */
  const host_frame_t *result = calibrate(&host, MS_TICKS(1100));
  CHECK(result != NULL);
  if (result) CHECK_EQ(result->payload[1], 0);
  host_send(&host, MSG_IDENTIFY, 0, 0);
  run_for(10);
  host_read(&host);
  const host_frame_t *caps = host_find(&host, MSG_CAPABILITIES);
  CHECK(caps != NULL && caps->payload[caps->frame.length - 1] == 3);
}

/* A calibration survives a power cycle: the results go to EEPROM and back into the chip at
 * boot, and capabilities say calibrated; a failed run keeps the stored one; a damaged record
 * is ignored. */
static void calibration_is_restored_at_boot(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  CHECK(calibrate(&host, MS_TICKS(1100)) != NULL);
  CHECK_EQ(CALIBRATION_RECORD[0], 0xCA);
  uint8_t stored[DRV_CALIBRATION_SIZE];
  memcpy(stored, CALIBRATION_RECORD, sizeof stored);
  /* Power cycle: the chip forgets (datasheet defaults), the EEPROM does not. */
  fake_reset(1000);
  memcpy(CALIBRATION_RECORD, stored, sizeof stored);
  board_init();
  size_t n = fake_drv.write_count;
  CHECK_EQ(reg_after(DRV_REG_A_CAL_COMP, n), 0x0C);
  CHECK_EQ(reg_after(DRV_REG_A_CAL_BEMF, n), 0x8C);
  CHECK_EQ(reg_after(DRV_REG_FEEDBACK, n), 0xB7);
  CHECK_EQ(drv2605.calibration, 2);
  CHECK_EQ(drv2605.result.f0_x10, 1751);
  /* A failed run afterwards leaves the stored record alone. */
  host_t again;
  boot_for_playback(&again, 1000000);
  memcpy(CALIBRATION_RECORD, stored, sizeof stored);
  fake_drv.calibration_status = 0x08;
  CHECK(calibrate(&again, MS_TICKS(1100)) != NULL);
  CHECK(memcmp(CALIBRATION_RECORD, stored, sizeof stored) == 0);
  /* A damaged record (check byte off) is not used. */
  fake_reset(1000);
  memcpy(CALIBRATION_RECORD, stored, sizeof stored);
  CALIBRATION_RECORD[2] ^= 0x10;
  board_init();
  CHECK_EQ(drv2605.calibration, 1);
  CHECK_EQ(fake_find_write(0, DRV_REG_A_CAL_COMP), (size_t)-1);
}

/* Checks the f0 and calibration state capabilities announce for the LRA. */
static void expect_announced(host_t *host, uint16_t f0_x10, uint8_t calibration) {
  host_request(host, MSG_IDENTIFY, 0, 0);
  const host_frame_t *caps = host_find(host, MSG_CAPABILITIES);
  CHECK(caps != NULL && caps->frame.length == 60);
  if (!caps) return;
  const uint8_t *q = caps->payload + 34;
  CHECK_EQ(le16(q + 16), f0_x10);
  CHECK_EQ(q[25], calibration);
}

/* A power cycle: the chip and the RAM start over, the EEPROM stays; a new host hears the board. */
static void power_cycle(host_t *host) {
  uint8_t image[HAL_EEPROM_SIZE];
  memcpy(image, fake.eeprom, sizeof image);
  fake_reset(1000);
  memcpy(fake.eeprom, image, sizeof image);
  memset(&board, 0, sizeof board);
  init_and_listen(host, 0x78);
}

/* v1.1 (§6.3): the LRA's f0 is the board file's 175.0 Hz until the chip is calibrated, then
 * the 175.1 Hz it measured (LRA_PERIOD 0x3A), also when restored at boot; a failed run
 * announces the board file's again, and the next boot the stored run's. */
static void capabilities_announce_the_measured_f0(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  expect_announced(&host, BOARD_CH0_F0_X10, 1);
  CHECK(calibrate(&host, MS_TICKS(1100)) != NULL);
  expect_announced(&host, 1751, 2);
  power_cycle(&host);
  CHECK_EQ(fake_find_write(0, DRV_REG_GO), (size_t)-1); /* restored, not run again */
  expect_announced(&host, 1751, 2);
  fake_drv.calibration_status = 0x08; /* DIAG_RESULT: failed */
  CHECK(calibrate(&host, MS_TICKS(1100)) != NULL);
  expect_announced(&host, BOARD_CH0_F0_X10, 3);
  power_cycle(&host);
  expect_announced(&host, 1751, 2);
}

static void calibration_timeout_is_an_error(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  fake_drv.calibration_ticks = UINT64_MAX; /* GO never clears */
  const uint8_t channel[] = {0};
  host_send(&host, MSG_CALIBRATE, channel, 1);
  run_for(MS_TICKS(2400));
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  run_for(MS_TICKS(200));
  host_read(&host);
  const host_frame_t *error = host_find(&host, MSG_ERROR);
  CHECK(error != NULL && error->payload[0] == ERR_CALIBRATION_FAILED && error->payload[1] == MSG_CALIBRATE);
  CHECK(host_find(&host, MSG_CALIBRATION_RESULT) == NULL);
  CHECK_EQ(reg_after(DRV_REG_GO, fake_drv.write_count), 0);
  CHECK_EQ(reg_after(DRV_REG_MODE, fake_drv.write_count), DRV_MODE_RTP);
  CHECK_EQ(drv2605.calibration, 3);
  /* Channel 1 does not exist. */
  const uint8_t one[] = {1};
  host_send(&host, MSG_CALIBRATE, one, 1);
  run_for(10);
  host_read(&host);
  error = host_find(&host, MSG_ERROR);
  CHECK(error != NULL && error->payload[0] == ERR_BAD_CHANNEL && le16(error->payload + 2) == 1);
}

static void rom_effect_plays_at_its_start_time(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  /* Queued drive: 300 frames at 100. The effect replaces it while it plays. */
  uint32_t drive_start = (uint32_t)fake.now + MS_TICKS(1);
  uint8_t batch[] = {0, 0, 0, 0, 0, 1, 1, 0x01, 0xAC, 0x02, 100};
  memcpy(batch + 1, &drive_start, 4);
  host_send(&host, MSG_QUEUE_SEGMENTS, batch, sizeof batch);
  run_for(MS_TICKS(2));
  uint32_t start = (uint32_t)fake.now + MS_TICKS(20) + 77;
  uint8_t effect[] = {0, 6, 47, 0, 0, 0, 0};
  memcpy(effect + 3, &start, 4);
  host_send(&host, MSG_PLAY_ROM_EFFECT, effect, sizeof effect);
  size_t before = fake_drv.write_count;
  run_for(MS_TICKS(10));
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  CHECK_EQ(fake_drv.write_count, before); /* nothing before the start time */
  run_for(MS_TICKS(150));
  /* At the start time exactly: LIBRARY_SEL, WAV_FRM_SEQ1, SEQ2 = 0, MODE 0, GO. */
  CHECK(fake_drv.write_count >= before + 5);
  static const uint8_t regs[] = {DRV_REG_LIBRARY_SEL, DRV_REG_WAVESEQ1, DRV_REG_WAVESEQ2, DRV_REG_MODE, DRV_REG_GO};
  static const uint8_t values[] = {6, 47, 0, DRV_MODE_INTERNAL_TRIGGER, 1};
  for (int i = 0; i < 5; i++) {
    CHECK_EQ(fake_drv.writes[before + i].reg, regs[i]);
    CHECK_EQ(fake_drv.writes[before + i].value, values[i]);
    CHECK_EQ(fake_drv.writes[before + i].time, start);
  }
  /* While it plays (100 ms in the fake), no RTP writes; then MODE 5 and the queue's level. */
  size_t back = fake_find_write(before + 5, DRV_REG_MODE);
  CHECK(back != (size_t)-1);
  if (back == (size_t)-1) return;
  for (size_t i = before + 5; i + 1 < back; i++) CHECK(fake_drv.writes[i].reg != DRV_REG_RTP_INPUT);
  /* RTP_INPUT is zeroed just before MODE 5, so no stale value plays. */
  CHECK(fake_drv.writes[back - 1].reg == DRV_REG_RTP_INPUT && fake_drv.writes[back - 1].value == 0);
  CHECK_EQ(fake_drv.writes[back].value, DRV_MODE_RTP);
  CHECK(fake_drv.writes[back].time >= start + MS_TICKS(100));
  CHECK(fake_drv.writes[back].time <= start + MS_TICKS(100) + MS_TICKS(DRV_ROM_POLL_MS));
  run_for(MS_TICKS(100));
  size_t level = fake_drv.write_count;
  while (level > 0 && fake_drv.writes[level - 1].reg != DRV_REG_RTP_INPUT) level--;
  CHECK(level > back && fake_drv.writes[level - 1].value == 100);
}

static void rom_effect_errors(void) {
  host_t host;
  boot_for_playback(&host, 1000000);
  static const struct {
    uint8_t channel, library, effect;
    int32_t offset_ms;
    uint8_t code;
  } cases[] = {
      {0, 0, 1, 10, ERR_BAD_PAYLOAD},  {0, 8, 1, 10, ERR_BAD_PAYLOAD}, {0, 6, 0, 10, ERR_BAD_PAYLOAD},
      {0, 6, 124, 10, ERR_BAD_PAYLOAD}, {1, 6, 1, 10, ERR_BAD_CHANNEL}, {0, 6, 1, -1, ERR_TIME_IN_PAST},
      {0, 7, 123, 10, 0},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    uint32_t start = (uint32_t)fake.now + (uint32_t)(cases[c].offset_ms * 2000);
    uint8_t effect[] = {cases[c].channel, cases[c].library, cases[c].effect, 0, 0, 0, 0};
    memcpy(effect + 3, &start, 4);
    host_send(&host, MSG_PLAY_ROM_EFFECT, effect, sizeof effect);
    run_for(10);
    host_read(&host);
    const host_frame_t *error = host_find(&host, MSG_ERROR);
    if (cases[c].code == 0) {
      CHECK(error == NULL);
      CHECK(drv2605.rom_pending);
    } else {
      CHECK(error != NULL && error->payload[0] == cases[c].code && error->payload[1] == MSG_PLAY_ROM_EFFECT);
    }
  }
  /* A stop cancels the pending effect. */
  const uint8_t all[] = {0xFF};
  host_send(&host, MSG_STOP, all, 1);
  run_for(MS_TICKS(20));
  CHECK(!drv2605.rom_pending);
  CHECK(drv2605.state == DRV_STATE_RTP);
}

const test_case_t driver_tests[] = {
    {"init: standby off, LRA closed loop, voltages, unsigned RTP, MODE 5 last", init_configures_closed_loop_rtp},
    {"calibration: MODE 7 + GO, busy meanwhile, result f0 175.1 Hz, calibrated", calibration_reports_the_chip_results},
    {"calibration failure (DIAG_RESULT) -> succeeded 0, capabilities failed", calibration_failure_is_reported},
    {"calibration timeout -> error calibrationFailed, back to RTP; badChannel", calibration_timeout_is_an_error},
    {"calibration is stored in EEPROM and restored into the chip at boot", calibration_is_restored_at_boot},
    {"capabilities: f0 175.0 Hz until calibrated, then the measured 175.1 Hz (restored too)", capabilities_announce_the_measured_f0},
    {"ROM effect: register sequence at startTime, drive replaced, then RTP again", rom_effect_plays_at_its_start_time},
    {"ROM effect errors: library, effect, channel, timeInPast; stop cancels", rom_effect_errors},
    TEST_LIST_END,
};
