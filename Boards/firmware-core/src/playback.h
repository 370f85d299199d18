/*
 * playback.h — the board's channels played from their queues (playback.c), on `board`.
 */
#ifndef PLAYBACK_H
#define PLAYBACK_H

#include <stdint.h>

/* Evaluates every channel whose frame changed or whose queue changed (each at its own time):
 * the level and frequency due go to the driver, coming frames are staged. `between`, if not
 * NULL, runs between these pieces of work (the board drains the UART's receive ring there). */
void playback_update(void (*between)(void));

/* The same without staging: the frames due only (before a frame is handled). */
void playback_output(void);

/* The earlier of `deadline` and when playback_update() has work next (a frame changes, one is
 * to be staged; `now` when a queue changed). */
uint32_t playback_deadline(uint32_t now, uint32_t deadline);

/* Level 0 and an empty queue now on channel `c` (stop, watchdog, calibration). */
void stop_channel(uint8_t c);

/* stop_channel for every channel in `mask` (bit c: channel c). */
void stop_channels(uint8_t mask);

#endif
