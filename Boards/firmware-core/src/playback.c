/*
 * playback.c — each channel's playback at frame boundaries (docs/protocol.md §6.5): the frame
 * due from the queue, its level clamped to the board's range and its frequency to the
 * channel's, handed to the driver back end; the coming frames staged ahead for back ends that
 * switch at exact times; stops.
 */
#include "playback.h"

#include "board.h"
#include "board_config.h"
#include "driver.h"
#include "hal.h"
#include "wire.h"

/* A queued level within what the board drives: 0…2^bits − 1, or ±(2^(bits−1) − 1) with
 * signed levels. */
static int16_t clamp_level(int16_t level) {
#if BOARD_FEATURES & BOARD_FEATURE_SIGNED_LEVELS
  const int16_t most = (int16_t)((1 << (BOARD_AMPLITUDE_BITS - 1)) - 1), least = (int16_t)-most;
#else
  const int16_t most = (int16_t)((1L << BOARD_AMPLITUDE_BITS) - 1), least = 0;
#endif
  return level < least ? least : level > most ? most : level;
}

/* Channel `c`'s drive frequency for a frame's `hz` (tenths of a hertz): f0 for 0 Hz and on
 * channels without frequency control, else clamped to the channel's range (§6.5). */
static uint16_t channel_frequency(uint8_t c, uint16_t hz) {
  static const wire_channel_info_t info[BOARD_CHANNEL_COUNT] = BOARD_CHANNEL_INFO;
  const wire_channel_info_t *channel = &info[c];
  if (hz == 0 || channel->freq_max == 0) return channel->f0_x10;
  if (hz < channel->freq_min) hz = channel->freq_min;
  if (hz > channel->freq_max) hz = channel->freq_max;
  return (uint16_t)(hz * 10u);
}

/* How far ahead frames are staged: a batch takes up to ~2 ms to decode and play on the AVR,
 * during which the main loop computes no frame; staged frames still switch on time. */
#define STAGE_AHEAD_TICKS (4u * BOARD_TICKS_PER_FRAME)

/* Hands the driver channel `c`'s coming frames ahead of time (driver_stage), up to
 * STAGE_AHEAD_TICKS from now, for back ends that switch at exact times; a frame further off
 * is staged when the channel is evaluated STAGE_AHEAD_TICKS before it. */
static void stage_ahead(uint8_t c, uint32_t now) {
  channel_t *channel = &board.channels[c];
  if (!driver_stages(c)) return;
  if (!channel->staging) {
    channel->staging = true;
    channel->stage_from = channel->next_eval;
  }
  while (time_diff(channel->stage_from, now) <= (int32_t)STAGE_AHEAD_TICKS) {
    queue_frame_t frame = queue_frame(&channel->queue, channel->stage_from);
    if (!driver_stage(c, clamp_level(frame.level), channel_frequency(c, frame.hz), channel->stage_from)) break;
    channel->stage_from = frame.next;
  }
  if (time_diff(channel->stage_from - STAGE_AHEAD_TICKS, channel->next_eval) < 0) {
    channel->next_eval = channel->stage_from - STAGE_AHEAD_TICKS; /* wake to stage it */
  }
}

/* Drives channel `c`'s frame due at `now` when a frame boundary passed or its queue changed.
 * The drive is computed from the queue as it is now: a level written ahead to a driver that
 * cannot hold it back to the frame's start could be stale (written, then corrected 41 us later,
 * and a frame of a steep ramp held a level too low on the DRV2605L: 2 of 13 emulated runs, 0 of
 * 24 without it). Back ends that switch at exact times get the coming frames staged instead,
 * dropped when a batch cuts into them (`restage`). */
static void playback_update_channel(uint8_t c, uint32_t now) {
  channel_t *channel = &board.channels[c];
  if (!channel->reevaluate && time_diff(now, channel->next_eval) < 0) return;
  if (channel->restage) {
    if (channel->staging) driver_unstage(c); /* staged frames may be stale */
    channel->staging = false;
    channel->restage = false;
  }
  channel->reevaluate = false;
  bool dry = queue_drop_finished(&channel->queue, now);
  queue_frame_t frame = queue_frame(&channel->queue, now);
  channel->next_eval = frame.next;
  int16_t level = clamp_level(frame.level);
  if (dry && channel->level != 0 && channel->underruns != 0xFFFF) channel->underruns++;
  channel->level = level;
  driver_output(c, level, channel_frequency(c, frame.hz), frame.start);
  stage_ahead(c, now);
}

/* Each channel at the time it is computed: a channel computed with the time its predecessor
 * was (~100 us earlier on the AVR) could miss a frame boundary that passed meanwhile. */
void playback_update(void) {
  for (uint8_t c = 0; c < BOARD_CHANNEL_COUNT; c++) playback_update_channel(c, hal_ticks());
}

/* Level 0 and an empty queue now on channel `c` (stop, watchdog, calibration); the driver stops
 * (the DRV2605L brakes by itself in closed loop when its input drops below the back-EMF). */
void stop_channel(uint8_t c) {
  channel_t *channel = &board.channels[c];
  queue_clear(&channel->queue);
  driver_stop(c);
  channel->level = 0;
  channel->reevaluate = true;
  channel->restage = true;
}

void stop_channels(uint8_t mask) {
  for (uint8_t c = 0; c < BOARD_CHANNEL_COUNT; c++) {
    if (mask & (1u << c)) stop_channel(c);
  }
}
