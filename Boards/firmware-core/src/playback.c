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
  static const wire_channel_info_t info[BOARD_CHANNEL_COUNT] HAL_FLASH = BOARD_CHANNEL_INFO;
  const wire_channel_info_t *channel = &info[c];
  uint16_t least, most;
  hal_flash_read(&most, &channel->freq_max, sizeof most);
  if (hz == 0 || most == 0) {
    hal_flash_read(&most, &channel->f0_x10, sizeof most);
    return most;
  }
  hal_flash_read(&least, &channel->freq_min, sizeof least);
  if (hz < least) hz = least;
  if (hz > most) hz = most;
  return (uint16_t)(hz * 10u);
}

/* How far ahead frames are staged: the main loop may be away for a few milliseconds (an
 * EEPROM write, a burst of frames from the host), during which it computes no frame; staged
 * frames still switch on time. */
#define STAGE_AHEAD_TICKS (4u * BOARD_TICKS_PER_FRAME)

/* Frames staged per update at most (~0.1 ms each on the AVR): a restage (a batch cut into the
 * staged frames) stages the rest in the passes that follow, with the UART's receive ring
 * drained between them; in steady playback one frame comes due per frame. */
#define STAGE_PER_UPDATE 1u

/* When channel `c` stages its next frame: STAGE_AHEAD_TICKS before it, unless the driver took
 * no more (then at its next frame, when it has room again). */
static uint32_t stage_time(const channel_t *channel) {
  return channel->stage_full ? channel->next_eval : channel->stage_from - STAGE_AHEAD_TICKS;
}

/* Hands the driver channel `c`'s coming frames ahead of time (driver_stage), up to
 * STAGE_AHEAD_TICKS from now (STAGE_PER_UPDATE of them at most), for back ends that switch at
 * exact times. */
static void stage_ahead(uint8_t c, uint32_t now, void (*between)(void)) {
  channel_t *channel = &board.channels[c];
  if (!driver_stages(c)) return;
  if (!channel->staging) {
    channel->staging = true;
    channel->stage_from = channel->next_eval;
  }
  channel->stage_full = false;
  /* Staging fell behind (the loop was busy with a burst of frames): the frame playing went to
   * the driver as it came (driver_output); staging goes on after it, not with frames past. */
  if (time_diff(channel->stage_from, now) <= 0) channel->stage_from = channel->next_eval;
  if (time_diff(channel->stage_from, now) > (int32_t)STAGE_AHEAD_TICKS) return;
  /* From the frame playing on, frame after frame (queue_frame_ahead). */
  queue_cursor_t cursor = channel->queue.cursor;
  uint8_t staged = 0;
  do {
    queue_frame_t frame = queue_frame_ahead(&channel->queue, &cursor, channel->stage_from);
    if (!driver_stage(c, clamp_level(frame.level), channel_frequency(c, frame.hz), channel->stage_from)) {
      channel->stage_full = true;
      return;
    }
    channel->stage_from = frame.next;
    if (between) between();
  } while (++staged < STAGE_PER_UPDATE && time_diff(channel->stage_from, now) <= (int32_t)STAGE_AHEAD_TICKS);
}

/* Drives channel `c`'s frame due at `now` when a frame boundary passed or its queue changed.
 * The drive is computed from the queue as it is now: a level written ahead to a driver that
 * cannot hold it back to the frame's start could be stale (written, then corrected 41 us later,
 * and a frame of a steep ramp held a level too low on the DRV2605L: 2 of 13 emulated runs, 0 of
 * 24 without it). Back ends that switch at exact times get the coming frames staged instead,
 * dropped when a batch cuts into them (`restage`). */
static void playback_update_channel(uint8_t c, uint32_t now, bool stage, void (*between)(void)) {
  channel_t *channel = &board.channels[c];
  if (!channel->reevaluate && time_diff(now, channel->next_eval) < 0) {
    /* No new frame: only staging, if it is behind (or starts again after a restage). */
    if (stage && (!channel->staging || time_diff(now, stage_time(channel)) >= 0)) stage_ahead(c, now, between);
    return;
  }
  /* Before a frame is handled (no staging), a frame the driver has staged is left to the
   * update after it: the driver switched to it at its start already. */
  if (!stage && !channel->reevaluate && channel->staging && !channel->restage &&
      time_diff(now, channel->stage_from) < 0)
    return;
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
  if (!stage) return;
  if (between) between();
  stage_ahead(c, now, between);
}

uint32_t playback_deadline(uint32_t now, uint32_t deadline) {
  for (uint8_t c = 0; c < BOARD_CHANNEL_COUNT; c++) {
    const channel_t *channel = &board.channels[c];
    if (channel->reevaluate) return now;
    if (time_diff(channel->next_eval, deadline) < 0) deadline = channel->next_eval;
    if (channel->staging && time_diff(stage_time(channel), deadline) < 0) deadline = stage_time(channel);
  }
  return deadline;
}

/* Each channel at the time it is computed: a channel computed with the time its predecessor
 * was (~100 us earlier on the AVR) could miss a frame boundary that passed meanwhile. */
void playback_update(void (*between)(void)) {
  for (uint8_t c = 0; c < BOARD_CHANNEL_COUNT; c++) playback_update_channel(c, hal_ticks(), true, between);
}

void playback_output(void) {
  for (uint8_t c = 0; c < BOARD_CHANNEL_COUNT; c++) playback_update_channel(c, hal_ticks(), false, 0);
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
