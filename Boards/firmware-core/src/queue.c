/*
 * queue.c — segment storage, the cut of `replace`, and the playback rule.
 */
#include "queue.h"

#include "frame.h"

static segment_t *at(segment_queue_t *queue, uint8_t offset) {
  uint8_t index = (uint8_t)(queue->head + offset);
  if (index >= BOARD_QUEUE_DEPTH) index = (uint8_t)(index - BOARD_QUEUE_DEPTH);
  return &queue->segments[index];
}

static const segment_t *at_const(const segment_queue_t *queue, uint8_t offset) {
  return at((segment_queue_t *)queue, offset);
}

void queue_init(segment_queue_t *queue) {
  queue->head = 0;
  queue->count = 0;
}

void queue_clear(segment_queue_t *queue) {
  queue->head = 0;
  queue->count = 0;
}

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

queue_frame_t queue_frame(const segment_queue_t *queue, uint32_t now) {
  queue_frame_t frame = {0, 0, now, now + QUEUE_MAX_BATCH_TICKS};
  /* Segments over by `now` are skipped (a frame ahead of the playback: driver_stage). */
  uint8_t offset = 0;
  while (offset < queue->count && time_diff(now, at_const(queue, offset)->end) >= 0) offset++;
  if (offset == queue->count) return frame;
  const segment_t *segment = at_const(queue, offset);
  if (time_diff(now, segment->start) < 0) {
    frame.next = segment->start; /* a gap before the segment: 0 */
    return frame;
  }
  /* One division per frame change: the AVR's is a library call of ~40 us. */
  uint32_t j = (now - segment->start) / BOARD_TICKS_PER_FRAME;
  frame.start = segment->start + j * BOARD_TICKS_PER_FRAME;
  uint32_t frame_end = frame.start + BOARD_TICKS_PER_FRAME;
  frame.next = time_diff(frame_end, segment->end) < 0 ? frame_end : segment->end;
  frame.level = queue_ramp_level(segment->start_level, segment->end_level, segment->span, j);
#if BOARD_FEATURES & BOARD_FEATURE_FREQUENCY_CONTROL
  /* Stored values are at most 32767 (queue_insert_batch): the level rule applies unchanged. */
  frame.hz = (uint16_t)queue_ramp_level((int16_t)segment->start_hz, (int16_t)segment->end_hz, segment->span, j);
#endif
  return frame;
}

/* Drops queued drive at or after `cut`; returns how many segments that would remove
 * (only counts when `apply` is false). Times compare as offsets from `now`: each is within
 * 2^31 ticks of now (docs/protocol.md §6.2), two of them need not be within 2^31 of each
 * other (a batch 1000 s ahead, a late one from 300 s ago). */
static uint8_t cut_at(segment_queue_t *queue, uint32_t cut, uint32_t now, bool apply) {
  int32_t cut_offset = time_diff(cut, now);
  uint8_t keep = queue->count;
  while (keep > 0 && time_diff(at(queue, (uint8_t)(keep - 1))->start, now) >= cut_offset) keep--;
  uint8_t removed = (uint8_t)(queue->count - keep);
  if (apply) {
    queue->count = keep;
    if (keep > 0) {
      segment_t *last = at(queue, (uint8_t)(keep - 1));
      if (time_diff(last->end, now) > cut_offset) last->end = cut; /* cut the segment in progress */
    }
  }
  return removed;
}

queue_result_t queue_insert_batch(segment_queue_t *queue, const uint8_t *payload, uint8_t length, uint32_t now) {
  queue_result_t result = {0, 0, false, 0};
  wire_batch_t batch;
  wire_segment_t segment;

  /* Pass 1: validate and count the segments that are not over yet. */
  if (!wire_batch_begin(&batch, payload, length)) {
    result.error = ERR_BAD_PAYLOAD;
    return result;
  }
  uint32_t offset = 0; /* ticks from the batch start */
  uint8_t needed = 0;
  int status;
  while ((status = wire_batch_next(&batch, &segment)) == 1) {
    if (segment.frames > QUEUE_MAX_BATCH_TICKS / BOARD_TICKS_PER_FRAME) break;
    if (segment.start_level != segment.end_level && segment.frames > QUEUE_MAX_RAMP_FRAMES) break;
    offset += segment.frames * BOARD_TICKS_PER_FRAME;
    if (offset > QUEUE_MAX_BATCH_TICKS) break;
    if (time_diff(batch.start_time + offset, now) > 0) needed++;
  }
  if (status != 0) {
    result.error = ERR_BAD_PAYLOAD;
    return result;
  }
  uint8_t available = (uint8_t)(queue_free(queue) + cut_at(queue, batch.start_time, now, false));
  if (needed > available) {
    result.error = ERR_QUEUE_FULL;
    result.detail = available;
    return result;
  }

  /* Pass 2: cut, then store. */
  cut_at(queue, batch.start_time, now, true);
  (void)wire_batch_begin(&batch, payload, length);
  uint32_t start = batch.start_time;
  while (wire_batch_next(&batch, &segment) == 1) {
    uint32_t end = start + segment.frames * BOARD_TICKS_PER_FRAME;
    if (time_diff(end, now) > 0) {
      segment_t *slot = at(queue, queue->count);
      slot->start = start;
      slot->end = end;
      slot->start_level = segment.start_level;
      slot->end_level = segment.end_level;
      slot->span = (uint16_t)(segment.frames - 1);
#if BOARD_FEATURES & BOARD_FEATURE_FREQUENCY_CONTROL
      /* Any frequency beyond 32767 Hz is beyond every channel's range: it clamps the same. */
      slot->start_hz = segment.start_frequency > 32767u ? 32767u : segment.start_frequency;
      slot->end_hz = segment.end_frequency > 32767u ? 32767u : segment.end_frequency;
#endif
      queue->count++;
      result.stored++;
    }
    start = end;
  }
  result.late = time_diff(batch.start_time, now) < 0;
  return result;
}
