/*
 * drv2605.c — DRV2605L setup and state machines (register sequences per SLOS854 §8.5 and
 * /work/shared/reference/actuators.md §4), over the HAL's I2C bus at the chip's address, and
 * its calibration record in EEPROM.
 */
#include "drv2605.h"

#include "board_config.h"
#include "hal.h"

#define MS(ticks_ms) ((uint32_t)(ticks_ms) * BOARD_TICKS_PER_MS)

static uint16_t f0_x10_from_period(uint8_t period);

/* One of the chip's registers written or read over I2C; false when it does not answer. */
static bool write_reg(uint8_t reg, uint8_t value) { return hal_i2c_write_register(DRV_I2C_ADDRESS, reg, value); }
static bool read_reg(uint8_t reg, uint8_t *value) { return hal_i2c_read_register(DRV_I2C_ADDRESS, reg, value); }

/* Writes the loop configuration shared by init and calibration. */
static bool write_configuration(void) {
  bool ok = write_reg(DRV_REG_FEEDBACK, DRV_FEEDBACK_VALUE);
  ok &= write_reg(DRV_REG_RATED_VOLTAGE, DRV_RATED_VOLTAGE_REG);
  ok &= write_reg(DRV_REG_OD_CLAMP, DRV_OD_CLAMP_REG);
  ok &= write_reg(DRV_REG_CONTROL1, DRV_CONTROL1_VALUE);
  ok &= write_reg(DRV_REG_CONTROL2, DRV_CONTROL2_VALUE);
  ok &= write_reg(DRV_REG_CONTROL3, DRV_CONTROL3_VALUE);
  ok &= write_reg(DRV_REG_CONTROL4, DRV_CONTROL4_VALUE);
  return ok;
}

/* Back to real-time playback at level 0. */
static void enter_rtp(drv_t *drv) {
  (void)write_reg(DRV_REG_RTP_INPUT, 0);
  (void)write_reg(DRV_REG_MODE, DRV_MODE_RTP);
  drv->rtp = 0;
  drv->state = DRV_STATE_RTP;
}

/* The calibration record in EEPROM (DRV_CALIBRATION_EEPROM, DRV_CALIBRATION_SIZE bytes): a
 * marker, the three results the chip needs back (A_CAL_COMP, A_CAL_BEMF, FEEDBACK with
 * BEMF_GAIN) and the LRA period, and a check byte. A blank EEPROM (0xFF) has no marker. */
#define RECORD_MARKER 0xCA
_Static_assert(DRV_CALIBRATION_EEPROM + DRV_CALIBRATION_SIZE <= HAL_EEPROM_FREE_END,
               "the calibration record is within the back end's EEPROM bytes (the serial follows)");

static uint8_t record_check(const uint8_t *record) {
  uint8_t check = 0x5A;
  for (uint8_t i = 0; i < DRV_CALIBRATION_SIZE - 1; i++) check = (uint8_t)((check << 1 | check >> 7) ^ record[i]);
  return check;
}

static void store_calibration(const drv_calibration_t *r, uint8_t period) {
  uint8_t record[DRV_CALIBRATION_SIZE] = {RECORD_MARKER, r->compensation, r->back_emf, r->feedback, period, 0};
  record[DRV_CALIBRATION_SIZE - 1] = record_check(record);
  hal_eeprom_update(DRV_CALIBRATION_EEPROM, record, DRV_CALIBRATION_SIZE);
}

/* Writes a stored calibration back into the chip (SLOS854 §8.5.6: the auto-calibration
 * results may be reloaded at power-up instead of calibrating again); true when there was one. */
static bool restore_calibration(drv_t *drv) {
  uint8_t record[DRV_CALIBRATION_SIZE];
  hal_eeprom_read(DRV_CALIBRATION_EEPROM, record, DRV_CALIBRATION_SIZE);
  if (record[0] != RECORD_MARKER || record[DRV_CALIBRATION_SIZE - 1] != record_check(record)) return false;
  drv_calibration_t *r = &drv->result;
  r->compensation = record[1];
  r->back_emf = record[2];
  r->feedback = record[3];
  r->f0_x10 = f0_x10_from_period(record[4]);
  r->succeeded = true;
  r->status = 0;
  bool ok = write_reg(DRV_REG_A_CAL_COMP, r->compensation);
  ok &= write_reg(DRV_REG_A_CAL_BEMF, r->back_emf);
  ok &= write_reg(DRV_REG_FEEDBACK, r->feedback);
  return ok;
}

bool drv_init(drv_t *drv) {
  drv->state = DRV_STATE_RTP;
  drv->rtp = -1;
  drv->calibration = 1;
  drv->present = false;
  drv->device_id = 0;
  drv->rom_pending = false;
  hal_i2c_init();
  uint8_t status;
  if (!read_reg(DRV_REG_STATUS, &status)) return false;
  drv->device_id = (uint8_t)(status >> 5);
  if (drv->device_id != 7 && drv->device_id != 3) return false;
  /* Out of standby (MODE bit 6), internal trigger while configuring. */
  bool ok = write_reg(DRV_REG_MODE, DRV_MODE_INTERNAL_TRIGGER);
  ok &= write_configuration();
  if (ok && restore_calibration(drv)) drv->calibration = 2;
  ok &= write_reg(DRV_REG_LIBRARY_SEL, 6); /* the LRA library */
  ok &= write_reg(DRV_REG_RTP_INPUT, 0);
  ok &= write_reg(DRV_REG_MODE, DRV_MODE_RTP);
  drv->rtp = 0;
  drv->present = ok;
  return ok;
}

void drv_set_level(drv_t *drv, uint8_t value) {
  /* Without a chip (fault bit 2) nothing is written: a stuck bus would cost a timeout per
   * frame. */
  if (!drv->present || drv->state != DRV_STATE_RTP || drv->rtp == value) return;
  if (write_reg(DRV_REG_RTP_INPUT, value)) {
    drv->rtp = value;
  } else {
    drv->rtp = -1; /* unknown: write again next time */
  }
}

void drv_calibration_begin(drv_t *drv, uint32_t now) {
  drv->rom_pending = false;
  (void)write_reg(DRV_REG_RTP_INPUT, 0);
  (void)write_reg(DRV_REG_MODE, DRV_MODE_AUTO_CALIBRATION);
  (void)write_configuration();
  (void)write_reg(DRV_REG_GO, 1);
  drv->rtp = 0;
  drv->state = DRV_STATE_CALIBRATING;
  drv->started = now;
  drv->next_poll = now + MS(DRV_CALIBRATION_POLL_MS);
}

void drv_rom_schedule(drv_t *drv, uint8_t library, uint8_t effect, uint32_t start) {
  /* Registers are written when the effect starts, so one playing now is not disturbed. */
  drv->rom_pending = true;
  drv->rom_start = start;
  drv->rom_library = library;
  drv->rom_effect = effect;
}

void drv_stop(drv_t *drv) {
  drv->rom_pending = false;
  if (drv->state == DRV_STATE_ROM_PLAYING) {
    (void)write_reg(DRV_REG_GO, 0);
    enter_rtp(drv);
  } else {
    drv_set_level(drv, 0);
  }
}

/* 10 * f0 from LRA_PERIOD: f0 = 1 / (period * 98.46 us) -> 10 f0 = 1e9 / (period * 9846). */
static uint16_t f0_x10_from_period(uint8_t period) {
  if (period == 0) return 0;
  uint32_t denominator = (uint32_t)period * 9846UL;
  return (uint16_t)((1000000000UL + denominator / 2) / denominator);
}

static void start_rom(drv_t *drv, uint32_t now) {
  if (drv->state == DRV_STATE_ROM_PLAYING) (void)write_reg(DRV_REG_GO, 0);
  (void)write_reg(DRV_REG_LIBRARY_SEL, drv->rom_library);
  (void)write_reg(DRV_REG_WAVESEQ1, drv->rom_effect);
  (void)write_reg(DRV_REG_WAVESEQ2, 0); /* end of the sequence */
  (void)write_reg(DRV_REG_MODE, DRV_MODE_INTERNAL_TRIGGER);
  (void)write_reg(DRV_REG_GO, 1);
  drv->rom_pending = false;
  drv->rtp = -1;
  drv->state = DRV_STATE_ROM_PLAYING;
  drv->started = now;
  drv->next_poll = now + MS(DRV_ROM_POLL_MS);
}

static drv_event_t poll_calibration(drv_t *drv, uint32_t now) {
  if ((int32_t)(now - drv->next_poll) < 0) return DRV_EVENT_NONE;
  drv->next_poll = now + MS(DRV_CALIBRATION_POLL_MS);
  uint8_t go = 1;
  bool answered = read_reg(DRV_REG_GO, &go);
  bool timed_out = (uint32_t)(now - drv->started) >= MS(DRV_CALIBRATION_TIMEOUT_MS);
  if (answered && (go & 1) == 0) {
    drv_calibration_t *r = &drv->result;
    bool ok = read_reg(DRV_REG_STATUS, &r->status);
    ok &= read_reg(DRV_REG_A_CAL_COMP, &r->compensation);
    ok &= read_reg(DRV_REG_A_CAL_BEMF, &r->back_emf);
    ok &= read_reg(DRV_REG_FEEDBACK, &r->feedback);
    uint8_t period = 0;
    ok &= read_reg(DRV_REG_LRA_PERIOD, &period);
    r->f0_x10 = f0_x10_from_period(period);
    enter_rtp(drv);
    if (!ok) {
      drv->calibration = 3;
      return DRV_EVENT_CALIBRATION_FAILED;
    }
    r->succeeded = (r->status & 0x08) == 0; /* DIAG_RESULT */
    drv->calibration = r->succeeded ? 2 : 3;
    if (r->succeeded) store_calibration(r, period); /* a failed run keeps the stored one */
    return DRV_EVENT_CALIBRATED;
  }
  if (!answered || timed_out) {
    if (!answered || !read_reg(DRV_REG_STATUS, &drv->result.status)) drv->result.status = 0xFF;
    (void)write_reg(DRV_REG_GO, 0);
    enter_rtp(drv);
    drv->calibration = 3;
    return DRV_EVENT_CALIBRATION_FAILED;
  }
  return DRV_EVENT_NONE;
}

drv_event_t drv_poll(drv_t *drv, uint32_t now) {
  if (drv->state == DRV_STATE_CALIBRATING) return poll_calibration(drv, now);
  if (drv->rom_pending && (int32_t)(now - drv->rom_start) >= 0) {
    start_rom(drv, now);
    return DRV_EVENT_ROM_STARTED;
  }
  if (drv->state != DRV_STATE_ROM_PLAYING || (int32_t)(now - drv->next_poll) < 0) return DRV_EVENT_NONE;
  drv->next_poll = now + MS(DRV_ROM_POLL_MS);
  uint8_t go = 0;
  bool answered = read_reg(DRV_REG_GO, &go);
  bool timed_out = (uint32_t)(now - drv->started) >= MS(DRV_ROM_TIMEOUT_MS);
  if (answered && (go & 1) && !timed_out) return DRV_EVENT_NONE;
  if (answered && (go & 1)) (void)write_reg(DRV_REG_GO, 0);
  enter_rtp(drv);
  return DRV_EVENT_ROM_FINISHED;
}

uint32_t drv_deadline(const drv_t *drv, uint32_t now) {
  uint32_t deadline = now + 0x40000000UL;
  if (drv->state != DRV_STATE_RTP) deadline = drv->next_poll;
  if (drv->rom_pending && (int32_t)(drv->rom_start - deadline) < 0) deadline = drv->rom_start;
  return deadline;
}
