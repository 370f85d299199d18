/*
 * fake_driver.c — the logging driver back end of the core's tests (fake_driver.h).
 */
#include "fake_driver.h"

#include <string.h>

#include "fake_hal.h"

fake_driver_t fake_driver;

void fake_driver_reset(void) {
  memset(&fake_driver, 0, sizeof fake_driver);
  fake_driver.present = true;
  fake_driver.calibration_ticks = 2000000; /* 1 s */
  fake_driver.effect_ticks = 200000;       /* 100 ms */
  fake_driver.calibration_state = (BOARD_FEATURES & BOARD_FEATURE_CALIBRATION) ? 1 : 0;
}

/* The core tests' board has this back end and nothing else. */
void fake_board_reset(void) { fake_driver_reset(); }

static void log_output(uint8_t channel, int16_t level, uint16_t frequency_x10, uint32_t frame_start, bool stop) {
  if (fake_driver.count == FAKE_MAX_OUTPUTS) return;
  fake_driver.outputs[fake_driver.count++] = (fake_output_t){fake.now, channel, level, frequency_x10, frame_start, stop};
}

int fake_drive_at(uint8_t channel, uint64_t time) {
  int level = -1;
  for (size_t i = 0; i < fake_driver.count && fake_driver.outputs[i].time <= time; i++) {
    if (fake_driver.outputs[i].channel == channel) level = fake_driver.outputs[i].level;
  }
  return level;
}

size_t fake_next_change(uint8_t channel, size_t from) {
  int previous = -1;
  bool seen = false;
  for (size_t i = 0; i < fake_driver.count; i++) {
    const fake_output_t *output = &fake_driver.outputs[i];
    if (output->channel != channel) continue;
    if (i >= from && (!seen || output->level != previous)) return i;
    previous = output->level;
    seen = true;
  }
  return (size_t)-1;
}

static bool on_channel(bool active, uint8_t active_channel, uint8_t channel) { return active && active_channel == channel; }

/* ---- driver.h ---- */

bool driver_init(void) { return fake_driver.present; }

void driver_output(uint8_t channel, int16_t level, uint16_t frequency_x10, uint32_t frame_start) {
  log_output(channel, level, frequency_x10, frame_start, false);
}

/* Nothing is staged: driver_stages, driver_stage and driver_unstage are the core's
 * driver_unstaged.c. */

void driver_stop(uint8_t channel) {
  log_output(channel, 0, 0, (uint32_t)fake.now, true);
  if (fake_driver.effect_channel == channel) fake_driver.effect_pending = fake_driver.effect_playing = false;
}

bool driver_follows_level(uint8_t channel) {
  return !on_channel(fake_driver.calibrating, fake_driver.calibration_channel, channel) &&
         !on_channel(fake_driver.effect_playing, fake_driver.effect_channel, channel);
}

bool driver_calibrating(void) { return fake_driver.calibrating; }

bool driver_effect_active(void) { return fake_driver.effect_pending || fake_driver.effect_playing; }

uint8_t driver_calibration_state(uint8_t channel) {
  (void)channel;
  return fake_driver.calibration_state;
}

/* The last successful calibration's f0 (a test may set the state and the result itself). */
uint16_t driver_calibrated_f0_x10(uint8_t channel) {
  (void)channel;
  return fake_driver.calibration_state == 2 ? fake_driver.result.f0_x10 : 0;
}

const driver_calibration_t *driver_calibration_result(void) { return &fake_driver.result; }

void driver_calibrate(uint8_t channel, uint32_t now) {
  fake_driver.calibrating = true;
  fake_driver.calibration_channel = channel;
  fake_driver.calibration_end = now + fake_driver.calibration_ticks;
  fake_driver.calibrations++;
}

void driver_play_effect(uint8_t channel, uint8_t library, uint8_t effect, uint32_t start) {
  fake_driver.effect_pending = true;
  fake_driver.effect_playing = false;
  fake_driver.effect_channel = channel;
  fake_driver.effect_library = library;
  fake_driver.effect = effect;
  fake_driver.effect_start = start;
  fake_driver.effects++;
}

driver_event_t driver_poll(uint32_t now) {
  if (fake_driver.calibrating && (int32_t)(now - fake_driver.calibration_end) >= 0) {
    fake_driver.calibrating = false;
    if (fake_driver.calibration_fails) {
      fake_driver.result = (driver_calibration_t){false, 0, 0, 0, 0xFF};
      fake_driver.calibration_state = 3;
      return DRIVER_EVENT_CALIBRATION_FAILED;
    }
    fake_driver.result = (driver_calibration_t){true, 1751, 12, 140, 0};
    fake_driver.calibration_state = 2;
    return DRIVER_EVENT_CALIBRATED;
  }
  if (fake_driver.effect_pending && (int32_t)(now - fake_driver.effect_start) >= 0) {
    fake_driver.effect_pending = false;
    fake_driver.effect_playing = true;
  }
  if (fake_driver.effect_playing && (int32_t)(now - (fake_driver.effect_start + fake_driver.effect_ticks)) >= 0) {
    fake_driver.effect_playing = false;
    return DRIVER_EVENT_EFFECT_FINISHED;
  }
  return DRIVER_EVENT_NONE;
}

uint32_t driver_deadline(uint32_t now) {
  uint32_t deadline = now + 0x40000000UL;
  if (fake_driver.calibrating) deadline = fake_driver.calibration_end;
  if (fake_driver.effect_pending && (int32_t)(fake_driver.effect_start - deadline) < 0) deadline = fake_driver.effect_start;
  if (fake_driver.effect_playing) {
    uint32_t end = fake_driver.effect_start + fake_driver.effect_ticks;
    if ((int32_t)(end - deadline) < 0) deadline = end;
  }
  return deadline;
}
