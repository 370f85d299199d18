/*
 * queue.c — segment storage, the cut of `replace`, and the playback rule.
 */
#include "queue.h"

#include "frame.h"

/* The slot of the segment `offset` places after the head. */
static uint8_t slot_of(const segment_queue_t *queue, uint8_t offset) {
  uint8_t index = (uint8_t)(queue->head + offset);
  if (index >= BOARD_QUEUE_DEPTH) index = (uint8_t)(index - BOARD_QUEUE_DEPTH);
  return index;
}

static segment_t *at(segment_queue_t *queue, uint8_t offset) { return &queue->segments[slot_of(queue, offset)]; }


void queue_init(segment_queue_t *queue) {
  queue->head = 0;
  queue->count = 0;
  queue->cursor.slot = QUEUE_NO_CURSOR;
}

void queue_clear(segment_queue_t *queue) { queue_init(queue); }

uint8_t queue_free(const segment_queue_t *queue) { return (uint8_t)(BOARD_QUEUE_DEPTH - queue->count); }

/* round(n / d) for d > 0, half away from zero. */
static int32_t divide_rounded32(int32_t n, uint32_t d) {
  if (n >= 0) return (int32_t)((2u * (uint32_t)n + d) / (2u * d));
  return -(int32_t)((2u * (uint32_t)(-n) + d) / (2u * d));
}

static int32_t divide_rounded64(int64_t n, uint32_t d) {
  if (n >= 0) return (int32_t)((2u * (uint64_t)n + d) / (2u * (uint64_t)d));
  return -(int32_t)((2u * (uint64_t)(-n) + d) / (2u * (uint64_t)d));
}

int16_t queue_ramp_level(int16_t l0, int16_t l1, uint16_t span, uint32_t j) {
  if (span == 0 || l0 == l1) return l0;
  if (j > span) j = span;
  /* round((l0 * span + (l1 - l0) * j) / span): the whole value is rounded, not just the
   * step, so that the sign of the result decides the direction of a half. */
  int32_t delta = (int32_t)l1 - l0;
  int32_t result;
  if (l0 > -8192 && l0 < 8192 && l1 > -8192 && l1 < 8192) {
    /* |l0 * span| < 2^29, |delta * j| < 2^30: fits, and 2 |n| + d < 2^32. */
    result = divide_rounded32((int32_t)l0 * (int32_t)span + delta * (int32_t)j, span);
  } else {
    result = divide_rounded64((int64_t)l0 * span + (int64_t)delta * j, span);
  }
  return (int16_t)result;
}

bool queue_drop_finished(segment_queue_t *queue, uint32_t now) {
  bool had = queue->count > 0;
  while (queue->count > 0 && time_diff(now, at(queue, 0)->end) >= 0) {
    queue->head = (uint8_t)((queue->head + 1) % BOARD_QUEUE_DEPTH);
    queue->count--;
  }
  return had && queue->count == 0;
}

/* ---- The cursor (queue.h): a ramp frame by frame without division ---- */

/* Frame 0 of a ramp from l0 to l1 over `span` frames: n_0 = l0 * span, and the step
 * l1 - l0 = dq * span + dr (a 16-bit division: |l1 - l0| < 2^16). */
static void ramp_start(queue_ramp_t *ramp, int16_t l0, int16_t l1, uint16_t span) {
  ramp->q = (uint16_t)l0;
  ramp->r = 0;
  ramp->dq = 0;
  ramp->dr = 0;
  if (span == 0 || l0 == l1) return;
  bool down = l1 < l0;
  uint16_t magnitude = down ? (uint16_t)(l0 - l1) : (uint16_t)(l1 - l0);
  uint16_t q = 0, r = magnitude; /* a shallow ramp (most of them): no division */
  if (magnitude >= span) {
    q = magnitude / span;
    r = magnitude % span;
  }
  if (down) {
    /* floor(-m / span) = -(q + 1) and remainder span - r, unless r is 0. */
    if (r != 0) {
      q++;
      r = (uint16_t)(span - r);
    }
    q = (uint16_t)-q;
  }
  ramp->dq = q;
  ramp->dr = r;
}

/* Frame k (k <= span) of that ramp: n_k = l0 * (span - k) + l1 * k, within ±32768 × span
 * (< 2^31), by one 32-bit division. */
static void ramp_place(queue_ramp_t *ramp, int16_t l0, int16_t l1, uint16_t span, uint16_t k) {
  ramp_start(ramp, l0, l1, span);
  if (k == 0 || l0 == l1) return;
  if (k >= span) {
    ramp->q = (uint16_t)l1; /* n = l1 * span */
    return;
  }
  int32_t n = (int32_t)l0 * (int32_t)(uint16_t)(span - k) + (int32_t)l1 * (int32_t)k;
  int32_t q = n / (int32_t)span, r = n % (int32_t)span;
  if (r < 0) {
    r += span;
    q--;
  }
  ramp->q = (uint16_t)q;
  ramp->r = (uint16_t)r;
}

/* `frames` frames on: n += l1 - l0 each. A ramp at its end (n = l1 * span) stays there: only a
 * frequency ramp of a segment longer than QUEUE_MAX_RAMP_FRAMES, whose denominator wrapped
 * (queue_insert_batch), gets that far; queue_ramp_level holds its end value. */
static void ramp_forward(queue_ramp_t *ramp, uint16_t span, int16_t end, uint8_t frames) {
  uint16_t q = ramp->q, r = ramp->r, dq = ramp->dq, dr = ramp->dr;
  if ((dq | dr) == 0) return; /* not a ramp */
  uint16_t room = (uint16_t)(span - dr); /* r + dr >= span: a carry */
  do {
    if (r == 0 && q == (uint16_t)end) break;
    q = (uint16_t)(q + dq);
    if (r >= room) {
      r = (uint16_t)(r - room);
      q++;
    } else {
      r = (uint16_t)(r + dr);
    }
  } while (--frames != 0);
  ramp->q = q;
  ramp->r = r;
}

/* round(n / span), half away from zero (queue_ramp_level's rule): q, or q + 1 past a half;
 * at exactly a half, q + 1 when n > 0 (q >= 0). */
static int16_t ramp_value(const queue_ramp_t *ramp, uint16_t span) {
  uint16_t q = ramp->q, r = ramp->r;
  if (r != 0) {
    uint16_t rest = (uint16_t)(span - r);
    if (r > rest || (r == rest && (int16_t)q >= 0)) q++;
  }
  return (int16_t)q;
}

/* The cursor on frame j of the segment in `slot`. */
static void cursor_place(queue_cursor_t *cursor, uint8_t slot, const segment_t *segment, uint32_t j) {
  uint16_t k = j < segment->span ? (uint16_t)j : segment->span; /* a ramp holds its end */
  cursor->slot = slot;
  cursor->start = segment->start + j * BOARD_TICKS_PER_FRAME;
  ramp_place(&cursor->level, segment->start_level, segment->end_level, segment->span, k);
#if BOARD_FEATURES & BOARD_FEATURE_FREQUENCY_CONTROL
  ramp_place(&cursor->hz, (int16_t)segment->start_hz, (int16_t)segment->end_hz, segment->span, k);
#endif
}

/* Frames the cursor walks at most to the frame asked for; one farther off is found by
 * division. */
#define CURSOR_MAX_STEPS 16u

/* The frame at `now` from `cursor` (the queue's, or a copy of it), which it moves there. */
static queue_frame_t frame_at(const segment_queue_t *queue, queue_cursor_t *cursor, uint32_t now) {
  queue_frame_t frame;
  frame.level = 0;
  frame.hz = 0;
  frame.start = now;
  /* Segments over by `now` are skipped (a frame ahead of the playback: driver_stage). */
  uint8_t slot = queue->head, left = queue->count;
  const segment_t *segment;
  for (;; left--) {
    if (left == 0) {
      frame.next = now + QUEUE_MAX_BATCH_TICKS;
      return frame;
    }
    segment = &queue->segments[slot];
    if (time_diff(now, segment->end) < 0) break;
    if (++slot == BOARD_QUEUE_DEPTH) slot = 0;
  }
  if (time_diff(now, segment->start) < 0) {
    frame.next = segment->start; /* a gap before the segment: 0 */
    return frame;
  }
  /* The cursor walks forward only: from where it is in this segment, else from its start. */
  uint32_t ahead = now - cursor->start;
  if (cursor->slot != slot || (int32_t)ahead < 0) {
    cursor_place(cursor, slot, segment, 0);
    ahead = now - segment->start;
  }
  if (ahead >= BOARD_TICKS_PER_FRAME) {
    if (ahead >= CURSOR_MAX_STEPS * BOARD_TICKS_PER_FRAME) {
      /* One division (the AVR's is a library call of ~40 us), then a 32-bit one per value. */
      cursor_place(cursor, slot, segment, (now - segment->start) / BOARD_TICKS_PER_FRAME);
    } else {
      uint8_t frames = 0;
      do {
        ahead -= BOARD_TICKS_PER_FRAME;
        frames++;
      } while (ahead >= BOARD_TICKS_PER_FRAME);
      cursor->start = now - ahead;
      if (segment->span != 0) { /* else one value throughout (queue_ramp_level) */
        ramp_forward(&cursor->level, segment->span, segment->end_level, frames);
#if BOARD_FEATURES & BOARD_FEATURE_FREQUENCY_CONTROL
        ramp_forward(&cursor->hz, segment->span, (int16_t)segment->end_hz, frames);
#endif
      }
    }
  }
  frame.start = cursor->start;
  uint32_t frame_end = frame.start + BOARD_TICKS_PER_FRAME;
  frame.next = time_diff(frame_end, segment->end) < 0 ? frame_end : segment->end;
  frame.level = ramp_value(&cursor->level, segment->span);
#if BOARD_FEATURES & BOARD_FEATURE_FREQUENCY_CONTROL
  /* Stored values are at most 32767 (queue_insert_batch): the level rule applies unchanged. */
  frame.hz = (uint16_t)ramp_value(&cursor->hz, segment->span);
#endif
  return frame;
}

queue_frame_t queue_frame(segment_queue_t *queue, uint32_t now) { return frame_at(queue, &queue->cursor, now); }

queue_frame_t queue_frame_ahead(const segment_queue_t *queue, queue_cursor_t *cursor, uint32_t at) {
  return frame_at(queue, cursor, at);
}

/* How many queued segments stay when drive at or after `cut` is dropped (the newest go first).
 * Times compare as offsets from `now`: each is within 2^31 ticks of now (docs/protocol.md §6.2),
 * two of them need not be within 2^31 of each other (a batch 1000 s ahead, a late one from
 * 300 s ago). */
static uint8_t kept_before(const segment_queue_t *queue, int32_t cut_offset, uint32_t now) {
  uint8_t keep = queue->count;
  uint8_t index = slot_of(queue, keep);
  while (keep > 0) {
    index = (uint8_t)(index == 0 ? BOARD_QUEUE_DEPTH - 1 : index - 1);
    if (time_diff(queue->segments[index].start, now) < cut_offset) break;
    keep--;
  }
  return keep;
}

/* Drops queued drive at or after `cut` (kept_before() segments stay), cutting the segment in
 * progress there. */
static void cut_at(segment_queue_t *queue, uint32_t cut, int32_t cut_offset, uint8_t keep, uint32_t now) {
  queue->count = keep;
  if (keep > 0) {
    segment_t *last = at(queue, (uint8_t)(keep - 1));
    if (time_diff(last->end, now) > cut_offset) last->end = cut;
  }
}

queue_result_t queue_insert_batch(segment_queue_t *queue, const uint8_t *payload, uint8_t length, uint32_t now) {
  queue_result_t result = {0, 0, false, 0};
  wire_batch_t batch;
  wire_segment_t segment;
  if (!wire_batch_begin(&batch, payload, length)) {
    result.error = ERR_BAD_PAYLOAD;
    return result;
  }
  /* Pass 0 decodes the batch, checks it and counts the segments that are not over yet; those go
   * straight into the free slots after the queued ones, where nothing changes if the batch is
   * refused. Accepted, the cut drops what it replaces and they move down in its place. When they
   * outnumber the free slots (replacing most of a full queue), pass 1 decodes the rest of the
   * batch, from where the free slots ran out, to store them after those. One decoder
   * (wire_batch_next, inline), one loop. */
  uint8_t queued = queue->count, free = queue_free(queue);
  uint8_t needed = 0;
  wire_batch_t rest = batch; /* where pass 1 starts: after the segments stored in pass 0 */
  uint32_t rest_start = batch.start_time;
  for (uint8_t pass = 0;; pass++) {
    uint32_t start = pass == 0 ? batch.start_time : rest_start;
    int status;
    while ((status = wire_batch_next(&batch, &segment)) == 1) {
      if (segment.frames > QUEUE_MAX_BATCH_TICKS / BOARD_TICKS_PER_FRAME) break;
      if (segment.start_level != segment.end_level && segment.frames > QUEUE_MAX_RAMP_FRAMES) break;
      uint32_t from = start;
      start += segment.frames * BOARD_TICKS_PER_FRAME;
      /* The batch within QUEUE_MAX_BATCH_TICKS (pass 1 sees a batch pass 0 checked). */
      if (start - batch.start_time > QUEUE_MAX_BATCH_TICKS) break;
      if (time_diff(start, now) <= 0) continue; /* over already */
      uint8_t index = 0xFF;
      if (pass != 0) {
        index = slot_of(queue, queue->count++);
      } else {
        if (needed < free) {
          index = slot_of(queue, (uint8_t)(queued + needed));
          if (needed + 1u == free) { /* the last that fits: pass 1 goes on from here */
            rest = batch;
            rest_start = start;
          }
        }
        needed++;
      }
      if (index == 0xFF) continue;
      if (index == queue->cursor.slot) queue->cursor.slot = QUEUE_NO_CURSOR; /* its segment goes */
      segment_t *slot = &queue->segments[index];
      slot->start = from;
      slot->end = start;
      slot->start_level = segment.start_level;
      slot->end_level = segment.end_level;
      slot->span = (uint16_t)(segment.frames - 1);
#if BOARD_FEATURES & BOARD_FEATURE_FREQUENCY_CONTROL
      /* Any frequency beyond 32767 Hz is beyond every channel's range: it clamps the same. */
      slot->start_hz = segment.start_frequency > 32767u ? 32767u : segment.start_frequency;
      slot->end_hz = segment.end_frequency > 32767u ? 32767u : segment.end_frequency;
#endif
    }
    if (pass != 0) break;
    if (status != 0) {
      result.error = ERR_BAD_PAYLOAD;
      return result;
    }
    int32_t cut_offset = time_diff(batch.start_time, now);
    uint8_t keep = kept_before(queue, cut_offset, now);
    uint8_t available = (uint8_t)(free + queue->count - keep);
    if (needed > available) {
      result.error = ERR_QUEUE_FULL;
      result.detail = available;
      return result;
    }
    cut_at(queue, batch.start_time, cut_offset, keep, now);
    result.stored = needed;
    /* The ones stored already: moved down over what the cut dropped. */
    uint8_t stored = needed < free ? needed : free;
    if (queue->count != queued) {
      for (uint8_t i = 0; i < stored; i++) {
        uint8_t to = slot_of(queue, (uint8_t)(queue->count + i));
        if (to == queue->cursor.slot) queue->cursor.slot = QUEUE_NO_CURSOR;
        queue->segments[to] = queue->segments[slot_of(queue, (uint8_t)(queued + i))];
      }
    }
    queue->count = (uint8_t)(queue->count + stored);
    if (needed == stored) break;
    batch = rest;
  }
  result.late = time_diff(batch.start_time, now) < 0;
  return result;
}
