/*
 * hbridge_backend.c — the Uno + DRV8833 board's driver back end (driver.h): channel 0 an ERM
 * driven by signed PWM on bridge A (a negative level reverse-drives: the host's brake),
 * channel 1 an LRA driven open loop by a synthesized sine carrier on bridge B at each frame's
 * frequency, following the carrier-phase rule of docs/protocol.md §6.5: the phase runs on
 * across frames and frequency changes and restarts at 0 on the first non-zero frame after a
 * frame at 0. No calibration and no effects: BOARD_FEATURES lacks them, so the core answers
 * `notSupported` and never calls those entry points.
 */
#include "board_config.h"
#include "carrier.h"
#include "driver.h"
#include "hbridge.h"

#define ERM_CHANNEL 0
#define LRA_CHANNEL 1

static int16_t lra_level; /* the LRA's last level: 0 means the next non-zero one restarts */
static const driver_calibration_t no_calibration = {false, 0, 0, 0, 0};

bool driver_init(void) {
  lra_level = 0;
  hbridge_init();
  return true;
}

static void output_erm(int16_t level) {
  uint8_t duty = carrier_amplitude(level);
  hbridge_set_erm(level > 0 ? duty : 0, level < 0 ? duty : 0);
}

static void output_lra(int16_t level, uint16_t frequency_x10) {
  carrier_t carrier = {0, carrier_increment(frequency_x10), carrier_amplitude(level), level < 0};
  hbridge_set_carrier(&carrier, lra_level == 0 && level != 0);
  lra_level = level;
}

void driver_output(uint8_t channel, int16_t level, uint16_t frequency_x10) {
  if (channel == ERM_CHANNEL) {
    output_erm(level);
  } else if (channel == LRA_CHANNEL) {
    output_lra(level, frequency_x10);
  }
}

void driver_stop(uint8_t channel) { driver_output(channel, 0, 0); }

bool driver_follows_level(uint8_t channel) {
  (void)channel;
  return true;
}

bool driver_calibrating(void) { return false; }

bool driver_effect_active(void) { return false; }

uint8_t driver_calibration_state(uint8_t channel) {
  (void)channel;
  return 0; /* not applicable */
}

const driver_calibration_t *driver_calibration_result(void) { return &no_calibration; }

void driver_calibrate(uint8_t channel, uint32_t now) {
  (void)channel;
  (void)now;
}

void driver_play_effect(uint8_t channel, uint8_t library, uint8_t effect, uint32_t start) {
  (void)channel;
  (void)library;
  (void)effect;
  (void)start;
}

driver_event_t driver_poll(uint32_t now) {
  (void)now;
  return DRIVER_EVENT_NONE;
}

uint32_t driver_deadline(uint32_t now) { return now + 0x40000000UL; }
