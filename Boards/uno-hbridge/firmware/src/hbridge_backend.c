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
#include "hal.h"
#include "hbridge.h"

#define ERM_CHANNEL 0
#define LRA_CHANNEL 1

/* An LRA frame's drive. */
typedef struct {
  int16_t level;
  uint16_t frequency_x10;
} lra_drive_t;

static lra_drive_t lra_now;    /* the frame the carrier plays: a level 0 makes the next non-zero one restart */
static lra_drive_t lra_staged; /* the frame staged for lra_staged_at (while lra_staged_valid) */
static uint32_t lra_staged_at;
static bool lra_staged_valid;
static const driver_calibration_t no_calibration = {false, 0, 0, 0, 0};

bool driver_init(void) {
  lra_now = (lra_drive_t){0, 0};
  lra_staged_valid = false;
  hbridge_init();
  return true;
}

static void output_erm(int16_t level) {
  uint8_t duty = carrier_amplitude(level);
  hbridge_set_erm(level > 0 ? duty : 0, level < 0 ? duty : 0);
}

static bool same_drive(lra_drive_t a, lra_drive_t b) { return a.level == b.level && a.frequency_x10 == b.frequency_x10; }

/* The carrier settings of a drive (the phase is the bridge's). */
static carrier_t lra_carrier(lra_drive_t drive) {
  /* The increment only changes with the frequency (most frames keep it). */
  static uint16_t last_frequency;
  static uint32_t increment;
  if (drive.frequency_x10 != last_frequency || increment == 0) {
    last_frequency = drive.frequency_x10;
    increment = carrier_increment(drive.frequency_x10);
  }
  carrier_t carrier = {0, increment, carrier_amplitude(drive.level), drive.level < 0};
  return carrier;
}

/* The frame that started at `frame_start`: the carrier's interrupt switched to it then when
 * it was staged as it is; otherwise it changes now (its phase aligned to the frame's start
 * when it restarts: hbridge_set_carrier). */
static void output_lra(lra_drive_t drive, uint32_t frame_start) {
  if (lra_staged_valid && (int32_t)(frame_start - lra_staged_at) < 0 && (int32_t)(hal_ticks() - lra_staged_at) >= 0) {
    /* A frame computed just before the staged one began, output after it did: the carrier
     * plays the staged frame already, going back would put out a stale drive. The core
     * evaluates the channel again at once (its next change is due). */
    return;
  }
  if (lra_staged_valid && lra_staged_at == frame_start) {
    /* The staged frame: the interrupt switches (or switched) at its start as staged. */
    lra_staged_valid = false;
    if (same_drive(drive, lra_staged)) {
      lra_now = drive;
      return;
    }
  } else if (same_drive(drive, lra_now)) {
    return; /* the frame playing, evaluated again (the queue changed): a staged switch stands */
  }
  carrier_t carrier = lra_carrier(drive);
  hbridge_set_carrier(&carrier, lra_now.level == 0 && drive.level != 0, frame_start);
  lra_now = drive;
  lra_staged_valid = false;
}

/* The frame due at `at`, right after the one playing: the interrupt switches at its first
 * carrier sample from then on (within 32 us), restarting the phase after a frame at 0. */
static void stage_lra(lra_drive_t drive, uint32_t at) {
  /* Staged already (the core stages again after every evaluation): the switch, perhaps made
   * by now, stands as it is. */
  if (lra_staged_valid && lra_staged_at == at && same_drive(drive, lra_staged)) return;
  carrier_t carrier = lra_carrier(drive);
  hbridge_stage_carrier(&carrier, lra_now.level == 0 && drive.level != 0, at);
  lra_staged = drive;
  lra_staged_at = at;
  lra_staged_valid = true;
}

void driver_output(uint8_t channel, int16_t level, uint16_t frequency_x10, uint32_t frame_start) {
  if (channel == ERM_CHANNEL) {
    output_erm(level);
  } else if (channel == LRA_CHANNEL) {
    output_lra((lra_drive_t){level, frequency_x10}, frame_start);
  }
}

/* The ERM has no phase: its level changes when the frame is computed (~50 us after its start). */
void driver_stage(uint8_t channel, int16_t level, uint16_t frequency_x10, uint32_t at) {
  if (channel == LRA_CHANNEL) stage_lra((lra_drive_t){level, frequency_x10}, at);
}

void driver_stop(uint8_t channel) {
  if (channel == LRA_CHANNEL) {
    /* Off now, and a staged switch (an onset, perhaps) cancelled with it. */
    carrier_t off = {0, 0, 0, false};
    hbridge_set_carrier(&off, false, 0);
    lra_now = (lra_drive_t){0, 0};
    lra_staged_valid = false;
  } else {
    driver_output(channel, 0, 0, 0);
  }
}

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
