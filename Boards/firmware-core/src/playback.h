/*
 * playback.h — the board's channels played from their queues (playback.c), on `board`.
 */
#ifndef PLAYBACK_H
#define PLAYBACK_H

#include <stdint.h>

/* Evaluates every channel whose frame changed or whose queue changed (each at its own time):
 * the level and frequency due go to the driver, coming frames are staged. */
void playback_update(void);

/* Level 0 and an empty queue now on channel `c` (stop, watchdog, calibration). */
void stop_channel(uint8_t c);

/* stop_channel for every channel in `mask` (bit c: channel c). */
void stop_channels(uint8_t mask);

#endif
