/*
 * batch.c — the test batch encoder (batch.h).
 */
#include "batch.h"

#include <math.h>

#include "frame.h"

const seg_spec_t vector_batch[VECTOR_BATCH_SEGMENTS] = {{9, 127, 127, false, 0, 0}, {5, -127, -127, true, 0, 0},
                                                        {200, 20, 0, false, 0, 0}};

long vector_batch_level(uint32_t k) { return k < 9 ? 127 : k < 14 ? -127 : lround(20.0 - 20.0 * (k - 14) / 199.0); }

uint8_t build_batch(uint8_t *out, uint8_t channel, uint32_t start, uint8_t level_bytes, const seg_spec_t *segs,
                    int count) {
  uint8_t n = 0;
  out[n++] = channel;
  for (int i = 0; i < 4; i++) out[n++] = (uint8_t)(start >> (8 * i));
  out[n++] = level_bytes;
  out[n++] = (uint8_t)count;
  int previous = 0, previous_hz = 0;
  for (int i = 0; i < count; i++) {
    uint8_t flags = 0;
    if (segs[i].start != previous) flags |= 0x01;
    if (segs[i].end != segs[i].start) flags |= 0x02;
    if (segs[i].start_hz != previous_hz) flags |= 0x04;
    if (segs[i].end_hz != segs[i].start_hz) flags |= 0x08;
    if (segs[i].brake) flags |= 0x10;
    out[n++] = flags;
    uint32_t frames = segs[i].frames;
    do {
      uint8_t byte = frames & 0x7F;
      frames >>= 7;
      out[n++] = frames ? (uint8_t)(byte | 0x80) : byte;
    } while (frames);
    int levels[2] = {segs[i].start, segs[i].end};
    for (int v = 0; v < 2; v++) {
      if (!(flags & (v == 0 ? 0x01 : 0x02))) continue;
      out[n++] = (uint8_t)levels[v];
      if (level_bytes == 2) out[n++] = (uint8_t)((unsigned)levels[v] >> 8);
    }
    int hz[2] = {segs[i].start_hz, segs[i].end_hz};
    for (int v = 0; v < 2; v++) {
      if (!(flags & (v == 0 ? 0x04 : 0x08))) continue;
      out[n++] = (uint8_t)hz[v];
      out[n++] = (uint8_t)((unsigned)hz[v] >> 8);
    }
    previous = segs[i].end;
    previous_hz = segs[i].end_hz;
  }
  return n;
}

void send_batch_on(host_t *host, uint8_t type, uint8_t channel, uint32_t start, const seg_spec_t *segs, int count) {
  uint8_t payload[FRAME_MAX_PAYLOAD];
  uint8_t level_bytes = 1;
  for (int i = 0; i < count; i++) {
    if (segs[i].start > 127 || segs[i].end > 127 || segs[i].start < -128 || segs[i].end < -128) level_bytes = 2;
  }
  uint8_t length = build_batch(payload, channel, start, level_bytes, segs, count);
  host_send(host, type, payload, length);
}
