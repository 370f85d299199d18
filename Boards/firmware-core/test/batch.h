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

/* Encodes a batch for `channel` into `out`; returns its length. */
uint8_t build_batch(uint8_t *out, uint8_t channel, uint32_t start, uint8_t level_bytes, const seg_spec_t *segs,
                    int count);

/* Sends a batch on `channel` (1-byte levels when they all fit an i8, else 2-byte). */
void send_batch_on(host_t *host, uint8_t type, uint8_t channel, uint32_t start, const seg_spec_t *segs, int count);

#endif
