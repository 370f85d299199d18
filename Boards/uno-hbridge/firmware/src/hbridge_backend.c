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

/* A frame staged with the bridge, in time order: the bridge switches to it at `at`. */
typedef struct {
  lra_drive_t drive;
  uint32_t at;
} lra_stage_t;

static lra_drive_t lra_now; /* the frame the carrier plays: a level 0 makes the next non-zero one restart */
static lra_stage_t lra_stages[HBRIDGE_STAGES]; /* staged, not yet output by the core */
static uint8_t lra_staged;
static const driver_calibration_t no_calibration = {false, 0, 0, 0, 0};

bool driver_init(void) {
  lra_now = (lra_drive_t){0, 0};
  lra_staged = 0;
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

/* Forgets the first `count` staged frames (output, or dropped). */
static void pop_stages(uint8_t count) {
  for (uint8_t i = count; i < lra_staged; i++) lra_stages[i - count] = lra_stages[i];
  lra_staged = (uint8_t)(lra_staged - count);
}

/* Whether board time a is before b. */
static bool before(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }

/* The frame that started at `frame_start`: the bridge switched to it then when it was staged as
 * it is; otherwise it changes now (its phase aligned to the frame's start when it restarts:
 * hbridge_set_carrier). */
static void output_lra(lra_drive_t drive, uint32_t frame_start) {
  if (lra_staged > 0 && before(frame_start, lra_stages[0].at) && !before(hal_ticks(), lra_stages[0].at)) {
    /* A frame computed just before the next staged one began, output after it did: the
     * carrier plays the staged frame already, going back would put out a stale drive. The core
     * evaluates the channel again at once (its next change is due). */
    return;
  }
  while (lra_staged > 0 && before(lra_stages[0].at, frame_start)) {
    lra_now = lra_stages[0].drive; /* a frame the core had no time to compute: the bridge played it */
    pop_stages(1);
  }
  if (lra_staged > 0 && lra_stages[0].at == frame_start) {
    bool same = same_drive(drive, lra_stages[0].drive);
    pop_stages(1);
    if (same) {
      lra_now = drive; /* switched (or switching) at the frame's start */
      return;
    }
  } else if (same_drive(drive, lra_now)) {
    return; /* the frame playing, evaluated again */
  }
  /* Not staged (a frame the core could not stage in time): now. Frames staged after it stay. */
  carrier_t carrier = lra_carrier(drive);
  hbridge_set_carrier(&carrier, lra_now.level == 0 && drive.level != 0, frame_start);
  lra_now = drive;
}

/* A coming frame, after the last staged (or the frame playing): the interrupt switches at its
 * first carrier sample from `at` on (within 32 us), restarting the phase after a frame at 0. */
static bool stage_lra(lra_drive_t drive, uint32_t at) {
  if (lra_staged == HBRIDGE_STAGES) return false;
  lra_drive_t before = lra_staged > 0 ? lra_stages[lra_staged - 1].drive : lra_now;
  carrier_t carrier = lra_carrier(drive);
  if (!hbridge_stage_carrier(&carrier, before.level == 0 && drive.level != 0, at)) return false;
  lra_stages[lra_staged++] = (lra_stage_t){drive, at};
  return true;
}

/* The queue changed: the staged frames not switched to yet go (those switched to are playing). */
static void unstage_lra(void) {
  uint8_t made = (uint8_t)(lra_staged - hbridge_unstage());
  if (made > 0) lra_now = lra_stages[made - 1].drive;
  lra_staged = 0;
}

void driver_output(uint8_t channel, int16_t level, uint16_t frequency_x10, uint32_t frame_start) {
  if (channel == ERM_CHANNEL) {
    output_erm(level);
  } else if (channel == LRA_CHANNEL) {
    output_lra((lra_drive_t){level, frequency_x10}, frame_start);
  }
}

/* The LRA's carrier switches at exact times; the ERM has no phase: its level changes when the
 * frame is computed (~0.2 ms after its start on the AVR, nothing against a motor's 50 ms). */
bool driver_stages(uint8_t channel) { return channel == LRA_CHANNEL; }

bool driver_stage(uint8_t channel, int16_t level, uint16_t frequency_x10, uint32_t at) {
  return channel == LRA_CHANNEL && stage_lra((lra_drive_t){level, frequency_x10}, at);
}

void driver_unstage(uint8_t channel) {
  if (channel == LRA_CHANNEL) unstage_lra();
}

void driver_stop(uint8_t channel) {
  if (channel == LRA_CHANNEL) {
    /* Off now, and a staged switch (an onset, perhaps) cancelled with it. */
    carrier_t off = {0, 0, 0, false};
    (void)hbridge_unstage();
    hbridge_set_carrier(&off, false, 0);
    lra_now = (lra_drive_t){0, 0};
    lra_staged = 0;
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
