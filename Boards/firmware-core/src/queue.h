/*
 * queue.h — a channel's segment queue and its playback (docs/protocol.md §6.5).
 *
 * Segments are stored with absolute board times: [start, end) in ticks, the start and end
 * levels (and frequencies, on boards with frequency control) and the ramp's denominator
 * (frames - 1). Frame j of a segment is held from
 * start + j * BOARD_TICKS_PER_FRAME and drives round(l0 + (l1 - l0) * j / (frames - 1)),
 * rounding half away from zero. `end` is start + frames * period unless a replace cut the
 * segment short. Queued segments never overlap and are kept in time order; a gap between
 * them plays 0.
 */
#ifndef QUEUE_H
#define QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "board_config.h"
#include "wire.h"

typedef struct {
  uint32_t start;
  uint32_t end;
  int16_t start_level;
  int16_t end_level;
  uint16_t span; /* frames - 1: the ramp's denominator (ramps are limited to 65536 frames) */
#if BOARD_FEATURES & BOARD_FEATURE_FREQUENCY_CONTROL
  uint16_t start_hz; /* whole hertz as on the wire, 0 = the channel's f0 */
  uint16_t end_hz;
#endif
} segment_t;

/* A ramp's value at one frame, kept so that the next frame's follows by an addition, not a
 * division: frame j's value is n_j / span with n_j = l0 * span +
 * (l1 - l0) * j, kept as n_j = q * span + r (0 <= r < span), and a frame's step l1 - l0 =
 * dq * span + dr likewise (floor division). q and dq are kept modulo 2^16: the values they stand
 * for are within int16 (n_j / span lies between l0 and l1). */
typedef struct {
  uint16_t q, r, dq, dr;
} queue_ramp_t;

/* Where the playback stands in one segment: queue_frame() moves it forward to the frame asked
 * for, a frame at a time (the frame playing; a copy of it goes on to the frames to stage), so
 * that a frame costs a few additions; a new segment starts from its first frame, and a frame
 * far off (or back) is found by division. */
typedef struct {
  uint8_t slot;   /* the segment's index in `segments`, QUEUE_NO_CURSOR when none */
  uint32_t start; /* the frame's start (board ticks) */
  queue_ramp_t level; /* frame min(j, span)'s level, j the frame's index in the segment */
#if BOARD_FEATURES & BOARD_FEATURE_FREQUENCY_CONTROL
  queue_ramp_t hz;
#endif
} queue_cursor_t;

#define QUEUE_NO_CURSOR 0xFF

typedef struct {
  segment_t segments[BOARD_QUEUE_DEPTH];
  uint8_t head;
  uint8_t count;
  queue_cursor_t cursor;
} segment_queue_t;

/* Longest ramp (frames): its denominator is stored in 16 bits. Constant segments may be
 * longer; every batch must fit in QUEUE_MAX_BATCH_TICKS (2^30 ticks, 536 s at 2 MHz) so that
 * 32-bit time comparisons stay unambiguous. */
#define QUEUE_MAX_RAMP_FRAMES 65536UL
#define QUEUE_MAX_BATCH_TICKS 0x40000000UL

/* Signed distance a - b of two 32-bit board times. */
static inline int32_t time_diff(uint32_t a, uint32_t b) { return (int32_t)(a - b); }

void queue_init(segment_queue_t *queue);
void queue_clear(segment_queue_t *queue);
uint8_t queue_free(const segment_queue_t *queue);

/* Level of frame j of a ramp from l0 to l1 with denominator `span` (frames - 1). */
int16_t queue_ramp_level(int16_t l0, int16_t l1, uint16_t span, uint32_t j);

/* Drops the segments that ended at or before `now`. Returns true when that emptied the
 * queue (it ran dry). */
bool queue_drop_finished(segment_queue_t *queue, uint32_t now);

/* What a channel drives at `now`. */
typedef struct {
  int16_t level;  /* 0 in a gap or when empty */
  uint16_t hz;    /* whole hertz by the same rule as levels; 0 = the channel's f0 (also in a
                     gap, when empty and on boards without frequency control) */
  uint32_t start; /* when this frame started (board ticks; `now` in a gap or when empty) */
  uint32_t next;  /* the next time the drive may change */
} queue_frame_t;

/* The frame at `now` (at or after the playback's time: segments over by then are skipped).
 * Levels and frequencies are queue_ramp_level()'s, worked out from the queue's cursor (moved to
 * the frame): a frame next to the last one asked for costs a few additions on the AVR, where
 * queue_ramp_level() is a 32-bit division (~40 us) per value. */
queue_frame_t queue_frame(segment_queue_t *queue, uint32_t now);

/* The same for a frame ahead of the playback (one to stage) from `cursor`, a copy of the
 * queue's (which stays at the frame playing), moved there: frames asked for in turn follow
 * each other at the cost of one. */
queue_frame_t queue_frame_ahead(const segment_queue_t *queue, queue_cursor_t *cursor, uint32_t at);

/* Outcome of queue_insert_batch. */
typedef struct {
  uint8_t error;   /* 0, ERR_BAD_PAYLOAD or ERR_QUEUE_FULL */
  uint16_t detail; /* free slots for ERR_QUEUE_FULL */
  bool late;       /* the batch started before now (status lateSegments counts such batches,
                     one per batch) */
  uint8_t stored;  /* segments queued */
} queue_result_t;

/* Queues a batch (channel already checked): drops everything queued at or after its start
 * time (cutting a segment in progress: the newest batch wins, for `replace` and for a `queue`
 * batch that overlaps the queued drive), skips segments already over, and refuses the batch
 * whole when it does not fit (nothing changes then). */
queue_result_t queue_insert_batch(segment_queue_t *queue, const uint8_t *payload, uint8_t length, uint32_t now);

#endif
