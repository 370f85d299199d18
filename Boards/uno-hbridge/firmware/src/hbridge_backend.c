/*
 * hbridge_backend.c — the Uno + DRV8833 board's driver back end (driver.h): channel 0 an ERM
 * driven by signed PWM on bridge A (a negative level reverse-drives: the host's brake),
 * channel 1 an LRA driven open loop by a synthesized sine carrier on bridge B at each frame's
 * frequency, following the carrier-phase rule of docs/protocol.md §6.5: the phase runs on
 * across frames and frequency changes and restarts at 0 on the first non-zero frame after a
 * frame at 0. Frames come staged (the core stages four ahead) and switch at their start
 * (hbridge_avr.c). No calibration and no effects: BOARD_FEATURES lacks them, so the core
 * answers `notSupported` and never calls those entry points.
 */
#include "board_config.h"
#include "carrier.h"
#include "driver.h"
#include "hal.h"
#include "hbridge.h"

#define ERM_CHANNEL 0
#define LRA_CHANNEL 1

/* A frame's drive on a channel. */
typedef struct {
  int16_t level;
  uint16_t frequency_x10; /* the LRA's; 0 on the ERM */
} drive_t;

/* A frame staged with the bridge, in time order: the bridge switches to it at `at`. */
typedef struct {
  drive_t drive;
  uint32_t at;
} stage_t;

/* A channel's drive as the back end set it: the frame playing and those staged after it. */
typedef struct {
  drive_t now; /* on the LRA, a level 0 makes the next non-zero frame restart the carrier */
  stage_t stages[HBRIDGE_STAGES]; /* staged, not yet output by the core */
  uint8_t staged;
} channel_drive_t;

static channel_drive_t drives[2]; /* ERM_CHANNEL, LRA_CHANNEL */
static const driver_calibration_t no_calibration = {false, 0, 0, 0, 0};

bool driver_init(void) {
  drives[ERM_CHANNEL] = (channel_drive_t){{0, 0}, {{{0, 0}, 0}}, 0};
  drives[LRA_CHANNEL] = drives[ERM_CHANNEL];
  hbridge_init();
  return true;
}

static bool same_drive(drive_t a, drive_t b) { return a.level == b.level && a.frequency_x10 == b.frequency_x10; }

/* Whether board time a is before b. */
static bool before(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }

/* The carrier settings of an LRA drive (the phase is the bridge's). */
static carrier_t lra_carrier(drive_t drive) {
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

/* The ERM's duties: forward on IN1, reverse (the host's brake) on IN2, 0 coasts. */
static void erm_duties(int16_t level, uint8_t *in1, uint8_t *in2) {
  uint8_t duty = carrier_amplitude(level);
  *in1 = level > 0 ? duty : 0;
  *in2 = level < 0 ? duty : 0;
}

/* Channel `c` to `drive` now (the frame began at `frame_start`); frames staged after it stay. */
static void set_now(uint8_t c, drive_t drive, uint32_t frame_start) {
  if (c == ERM_CHANNEL) {
    uint8_t in1, in2;
    erm_duties(drive.level, &in1, &in2);
    hbridge_set_erm(in1, in2);
  } else {
    carrier_t carrier = lra_carrier(drive);
    hbridge_set_carrier(&carrier, drives[c].now.level == 0 && drive.level != 0, frame_start);
  }
}

/* Forgets channel `c`'s first `count` staged frames (output, or dropped). */
static void pop_stages(channel_drive_t *channel, uint8_t count) {
  for (uint8_t i = count; i < channel->staged; i++) channel->stages[i - count] = channel->stages[i];
  channel->staged = (uint8_t)(channel->staged - count);
}

void driver_output(uint8_t channel, int16_t level, uint16_t frequency_x10, uint32_t frame_start) {
  if (channel > LRA_CHANNEL) return;
  channel_drive_t *d = &drives[channel];
  drive_t drive = {level, channel == LRA_CHANNEL ? frequency_x10 : 0};
  if (d->staged > 0 && before(frame_start, d->stages[0].at) && !before(hal_ticks(), d->stages[0].at)) {
    /* A frame computed just before the next staged one began, output after it did: the bridge
     * plays the staged frame already, going back would put out a stale drive. The core
     * evaluates the channel again at once (its next change is due). */
    return;
  }
  while (d->staged > 0 && before(d->stages[0].at, frame_start)) {
    d->now = d->stages[0].drive; /* a frame the core had no time to compute: the bridge played it */
    pop_stages(d, 1);
  }
  if (d->staged > 0 && d->stages[0].at == frame_start) {
    bool same = same_drive(drive, d->stages[0].drive);
    pop_stages(d, 1);
    if (same) {
      d->now = drive; /* switched (or switching) at the frame's start */
      return;
    }
  } else if (same_drive(drive, d->now)) {
    return; /* the frame playing, evaluated again */
  }
  /* Not staged (a frame the core could not stage in time): now. Frames staged after it stay. */
  set_now(channel, drive, frame_start);
  d->now = drive;
}

/* Frames switch at exact times on both bridges: staged switches are made at the frame's start
 * (the LRA's carrier from its next sample, its phase restarting after a frame at 0); a frame
 * set by hand lands when the core computes it (~0.2 ms late). */
bool driver_stages(uint8_t channel) { return channel <= LRA_CHANNEL; }

bool driver_stage(uint8_t channel, int16_t level, uint16_t frequency_x10, uint32_t at) {
  if (channel > LRA_CHANNEL) return false;
  channel_drive_t *d = &drives[channel];
  drive_t drive = {level, channel == LRA_CHANNEL ? frequency_x10 : 0};
  drive_t before_it = d->staged > 0 ? d->stages[d->staged - 1].drive : d->now;
  /* The drive of the frame before: nothing switches, it goes on (the frame's driver_output
   * finds it playing). Most frames of a long ramp, and every one of a gap. */
  if (same_drive(drive, before_it)) return true;
  if (d->staged == HBRIDGE_STAGES) return false;
  bool staged;
  if (channel == ERM_CHANNEL) {
    uint8_t in1, in2;
    erm_duties(level, &in1, &in2);
    staged = hbridge_stage_erm(in1, in2, at);
  } else {
    carrier_t carrier = lra_carrier(drive);
    staged = hbridge_stage_carrier(&carrier, before_it.level == 0 && drive.level != 0, at);
  }
  if (staged) d->stages[d->staged++] = (stage_t){drive, at};
  return staged;
}

/* The queue changed: the staged frames not switched to yet go (those switched to are playing). */
void driver_unstage(uint8_t channel) {
  if (channel > LRA_CHANNEL) return;
  channel_drive_t *d = &drives[channel];
  uint8_t pending = hbridge_unstage(channel);
  /* (Never more pending than staged here; if it were, nothing is taken as made.) */
  uint8_t made = pending < d->staged ? (uint8_t)(d->staged - pending) : 0;
  if (made > 0) d->now = d->stages[made - 1].drive;
  d->staged = 0;
}

/* Off now, and whatever was staged (an onset, perhaps) cancelled with it. */
void driver_stop(uint8_t channel) {
  if (channel > LRA_CHANNEL) return;
  (void)hbridge_unstage(channel);
  drives[channel].staged = 0;
  drive_t off = {0, 0};
  if (channel == ERM_CHANNEL) {
    hbridge_set_erm(0, 0);
  } else {
    carrier_t carrier = {0, 0, 0, false};
    hbridge_set_carrier(&carrier, false, 0);
  }
  drives[channel].now = off;
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

uint16_t driver_calibrated_f0_x10(uint8_t channel) {
  (void)channel;
  return 0; /* nothing measured: the board file's f0 */
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
