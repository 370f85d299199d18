/*
 * drv2605_backend.c — the Uno + DRV2605L's driver back end (driver.h) over drv2605.c: one
 * channel, the chip's real-time playback input; its auto-calibration and ROM effects.
 */
#include "driver.h"

#include "drv2605.h"

drv_t drv2605;

static driver_calibration_t calibration_result;

bool driver_init(void) { return drv_init(&drv2605); }

/* No signed levels on this board: negative levels clamp to 0; 255 is full scale. */
void driver_output(uint8_t channel, int16_t level, uint16_t frequency_x10, uint32_t frame_start) {
  (void)frequency_x10; /* closed loop: the chip tracks resonance */
  (void)frame_start;
  if (channel != 0) return;
  drv_set_level(&drv2605, level < 0 ? 0 : level > 255 ? 255 : (uint8_t)level);
}

/* RTP_INPUT is written over I2C when the frame starts (~100 us): nothing is staged
 * (driver_stages, driver_stage, driver_unstage: the core's driver_unstaged.c). */

void driver_stop(uint8_t channel) {
  if (channel == 0) drv_stop(&drv2605);
}

bool driver_follows_level(uint8_t channel) { return channel == 0 && drv2605.state == DRV_STATE_RTP; }

bool driver_calibrating(void) { return drv2605.state == DRV_STATE_CALIBRATING; }

bool driver_effect_active(void) { return drv2605.rom_pending || drv2605.state == DRV_STATE_ROM_PLAYING; }

uint8_t driver_calibration_state(uint8_t channel) { return channel == 0 ? drv2605.calibration : 0; }

/* The resonance of the calibration restored at boot or run since (LRA_PERIOD; 0 when it read
 * 0), while the chip is calibrated with it. */
uint16_t driver_calibrated_f0_x10(uint8_t channel) {
  return channel == 0 && drv2605.calibration == 2 ? drv2605.result.f0_x10 : 0;
}

const driver_calibration_t *driver_calibration_result(void) {
  const drv_calibration_t *result = &drv2605.result;
  calibration_result = (driver_calibration_t){
      .succeeded = result->succeeded,
      .f0_x10 = result->f0_x10,
      .compensation = result->compensation,
      .back_emf = result->back_emf,
      .status = result->status,
  };
  return &calibration_result;
}

void driver_calibrate(uint8_t channel, uint32_t now) {
  (void)channel;
  drv_calibration_begin(&drv2605, now);
}

void driver_play_effect(uint8_t channel, uint8_t library, uint8_t effect, uint32_t start) {
  (void)channel;
  drv_rom_schedule(&drv2605, library, effect, start);
}

driver_event_t driver_poll(uint32_t now) {
  switch (drv_poll(&drv2605, now)) {
    case DRV_EVENT_CALIBRATED: return DRIVER_EVENT_CALIBRATED;
    case DRV_EVENT_CALIBRATION_FAILED: return DRIVER_EVENT_CALIBRATION_FAILED;
    case DRV_EVENT_ROM_FINISHED: return DRIVER_EVENT_EFFECT_FINISHED;
    default: return DRIVER_EVENT_NONE;
  }
}

uint32_t driver_deadline(uint32_t now) { return drv_deadline(&drv2605, now); }
