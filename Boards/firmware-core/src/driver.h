/*
 * driver.h — a board's driver back end as the portable core (board.c, playback.c) sees it: one
 * per board, behind the HAL. The Uno + DRV2605L's is drv2605_backend.c (the chip's real-time
 * playback for channel 0, its auto-calibration and ROM effects), the Uno + DRV8833's
 * hbridge_backend.c. Calibration and effects exist only where BOARD_FEATURES says so (bits 3
 * and 4); the core answers `notSupported` otherwise.
 */
#ifndef DRIVER_H
#define DRIVER_H

#include <stdbool.h>
#include <stdint.h>

/* What driver_poll reports. */
typedef enum {
  DRIVER_EVENT_NONE = 0,
  DRIVER_EVENT_CALIBRATED,         /* a calibration ran: driver_calibration_result() */
  DRIVER_EVENT_CALIBRATION_FAILED, /* it did not finish: the result's `status` */
  DRIVER_EVENT_EFFECT_FINISHED     /* an effect ended: the channel's level drives again */
} driver_event_t;

/* A calibration's outcome, as `calibration result` carries it (§6.10). */
typedef struct {
  bool succeeded;
  uint16_t f0_x10;
  uint8_t compensation;
  uint8_t back_emf;
  uint8_t status; /* the driver's status byte when it failed (0xFF: no answer) */
} driver_calibration_t;

/* Starts the driver; false when it does not answer (the core reports driverNotResponding). */
bool driver_init(void);

/* Channel `channel`'s drive now, at every frame change: its level (the board's level range),
 * frequency in tenths of a hertz (the channel's f0 without frequency control or for 0 Hz,
 * else the frame's frequency clamped to the channel's range; §6.5), and when the frame began
 * (board ticks, at or a little before now: a carrier restarted now is aligned to it). */
void driver_output(uint8_t channel, int16_t level, uint16_t frequency_x10, uint32_t frame_start);

/* Whether channel `channel`'s back end switches frames at exact times from staged drive
 * (driver_stage); the core computes frames ahead only for those. A back end that stages
 * nothing links driver_unstaged.c for these three (uno.mk: DRIVER_PARTS := unstaged). */
bool driver_stages(uint8_t channel);

/* Channel `channel`'s drive from board time `at` on (a coming frame, at most a few frames
 * ahead, later than any staged before): the back end switches to it then. The core still calls
 * driver_output() for the frame once `at` has passed, with the same drive unless the queue
 * changed since; it then calls driver_unstage() first. False when no more can be staged. */
bool driver_stage(uint8_t channel, int16_t level, uint16_t frequency_x10, uint32_t at);

/* Drops channel `channel`'s staged drive not switched to yet (the queue changed). */
void driver_unstage(uint8_t channel);

/* Stops channel `channel` now: level 0, and any effect on it ended (a staged drive too). */
void driver_stop(uint8_t channel);

/* Whether channel `channel` drives its queue's level now (false while an effect or a
 * calibration has the actuator: status then reports level 0). */
bool driver_follows_level(uint8_t channel);

/* Whether a calibration runs (the board is busy: no drive, no other calibration). */
bool driver_calibrating(void);

/* Whether an effect is scheduled or playing (drive the host watchdog guards). */
bool driver_effect_active(void);

/* The calibration state `capabilities` announce for `channel` (§6.3). */
uint8_t driver_calibration_state(uint8_t channel);

/* The resonance `channel`'s driver measured, in tenths of a hertz, that `capabilities`
 * announce as its f0 while its calibration state is CALIBRATION_CALIBRATED (§6.3: the stored
 * or the last run's); 0 when there is none, and the board file's f0 (BOARD_CHn_F0_X10)
 * stays. */
uint16_t driver_calibrated_f0_x10(uint8_t channel);

/* The last calibration's outcome. */
const driver_calibration_t *driver_calibration_result(void);

/* Starts calibrating `channel` (the core stopped it first). */
void driver_calibrate(uint8_t channel, uint32_t now);

/* Schedules effect `effect` of `library` on `channel` at board time `start`. */
void driver_play_effect(uint8_t channel, uint8_t library, uint8_t effect, uint32_t start);

/* Advances calibration and effects. */
driver_event_t driver_poll(uint32_t now);

/* When driver_poll next has work. */
uint32_t driver_deadline(uint32_t now);

#endif
