/*
 * batch.h — segment batches for host tests, encoded as the Swift SegmentPayload does
 * (docs/protocol.md §6.5: each value only when it changes, levels as i8 or i16).
 */
#ifndef TEST_BATCH_H
#define TEST_BATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "host.h"

typedef struct {
  uint32_t frames;
  int start;    /* levels */
  int end;
  bool brake;
  int start_hz; /* frequencies (0 = f0, and what a segment without them carries) */
  int end_hz;
} seg_spec_t;

/* The queue batch of docs/protocol.md §9's vectors: 9 frames at 127, 5 braking at -127, then a
 * ramp 20 -> 0 over 200 frames. */
#define VECTOR_BATCH_SEGMENTS 3
#define VECTOR_BATCH_FRAMES 214
extern const seg_spec_t vector_batch[VECTOR_BATCH_SEGMENTS];

/* The level queued for frame `k` of the vector batch (the ramp rounded as the core does). */
long vector_batch_level(uint32_t k);

/* Encodes a batch for `channel` into `out`; returns its length. */
uint8_t build_batch(uint8_t *out, uint8_t channel, uint32_t start, uint8_t level_bytes, const seg_spec_t *segs,
                    int count);

/* Sends a batch on `channel` (1-byte levels when they all fit an i8, else 2-byte). */
void send_batch_on(host_t *host, uint8_t type, uint8_t channel, uint32_t start, const seg_spec_t *segs, int count);

#endif
