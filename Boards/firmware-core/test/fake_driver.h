/*
 * fake_driver.h — a driver back end (driver.h) for the core's own tests, so that they run on
 * every board's configuration (its board_config.h) without its chip: it drives nothing, logs
 * every output and stop with the fake clock's time, and runs calibrations and effects for as
 * long as the test says. fake_reset() resets it (fake_board_reset).
 */
#ifndef FAKE_DRIVER_H
#define FAKE_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board_config.h"
#include "driver.h"
#include "wire.h"

typedef struct {
  uint64_t time; /* ticks */
  uint8_t channel;
  int16_t level; /* 0 for a stop */
  uint16_t frequency_x10;
  uint32_t frame_start;
  bool stop; /* driver_stop, not driver_output */
} fake_output_t;

#define FAKE_MAX_OUTPUTS 8192

typedef struct {
  bool present; /* what driver_init answers */
  fake_output_t outputs[FAKE_MAX_OUTPUTS];
  size_t count;

  /* Calibration: runs `calibration_ticks`, then succeeds, or fails (`calibration_fails`). */
  bool calibrating;
  uint8_t calibration_channel;
  uint32_t calibration_end;
  uint32_t calibration_ticks;
  bool calibration_fails;
  uint8_t calibration_state; /* announced in capabilities */
  unsigned calibrations;
  driver_calibration_t result;

  /* An effect: scheduled, then playing for `effect_ticks`. */
  bool effect_pending, effect_playing;
  uint8_t effect_channel, effect_library, effect;
  uint32_t effect_start;
  uint32_t effect_ticks;
  unsigned effects;
} fake_driver_t;

extern fake_driver_t fake_driver;

/* Present, idle, an empty log; calibration 1 s, effects 100 ms. */
void fake_driver_reset(void);

/* The level channel `channel` was given last at or before `time`; -1 before any output. */
int fake_drive_at(uint8_t channel, uint64_t time);

/* The index of the first output on `channel` from index `from` on whose level differs from the
 * one before it on that channel (the first output counts as one); (size_t)-1 when none. */
size_t fake_next_change(uint8_t channel, size_t from);

/* The level the core drives for a queued `level` on this board: clamped to 0…2^bits − 1, or
 * ±(2^(bits−1) − 1) with signed levels (playback.c). */
static inline int board_level(long level) {
#if BOARD_FEATURES & BOARD_FEATURE_SIGNED_LEVELS
  const long most = (1L << (BOARD_AMPLITUDE_BITS - 1)) - 1, least = -most;
#else
  const long most = (1L << BOARD_AMPLITUDE_BITS) - 1, least = 0;
#endif
  return (int)(level < least ? least : level > most ? most : level);
}

#endif
