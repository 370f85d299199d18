/*
 * expect.c — the shared checks (expect.h).
 */
#include "expect.h"

#include <stddef.h>

#include "batch.h"
#include "fake_hal.h"
#include "test.h"

#define FRAME 2000u /* ticks */

const host_frame_t *request_status(host_t *host) {
  host_send(host, MSG_STATUS_REQUEST, 0, 0);
  run_for(10);
  host_read(host);
  const host_frame_t *status = host_find(host, MSG_STATUS);
  CHECK(status != NULL);
  return status;
}

const host_frame_t *expect_error(host_t *host, uint8_t code, uint8_t type, uint16_t detail) {
  const host_frame_t *error = host_find(host, MSG_ERROR);
  CHECK(error != NULL);
  if (!error) return NULL;
  CHECK_EQ(error->payload[0], code);
  CHECK_EQ(error->payload[1], type);
  CHECK_EQ(le16(error->payload + 2), detail);
  return error;
}

void expect_driver_not_responding(host_t *host) {
  init_and_listen(host, 0x77);
  CHECK_EQ(host->frames[0].frame.type, MSG_RESET_NOTICE); /* the board still talks */
  const host_frame_t *status = request_status(host);
  if (status) CHECK_EQ(status->payload[5], 0x04); /* driver not responding */
  const seg_spec_t segs[] = {{10, 100, 100, false, 0, 0}};
  send_batch_on(host, MSG_QUEUE_SEGMENTS, 0, (uint32_t)fake.now + MS_TICKS(1), segs, 1);
  run_for(MS_TICKS(20));
  host_read(host);
  CHECK(host_find(host, MSG_ERROR) == NULL);
}

void expect_levels_clamped(int (*drive_at)(uint64_t time), int (*level)(long queued)) {
  host_t host;
  boot_for_playback(&host, 1000000);
  uint8_t payload[64];
  uint32_t start = (uint32_t)fake.now + MS_TICKS(1);
  const seg_spec_t segs[] = {{3, 255, 255, false, 0, 0}, {1, 300, 300, false, 0, 0}, {3, -100, 100, false, 0, 0}};
  uint8_t length = build_batch(payload, 0, start, 2, segs, 3);
  host_send(&host, MSG_QUEUE_SEGMENTS, payload, length);
  run_for(MS_TICKS(10));
  CHECK_EQ(drive_at(start), level(255));
  CHECK_EQ(drive_at(start + 3 * FRAME), level(300));
  CHECK_EQ(drive_at(start + 4 * FRAME), level(-100));
  CHECK_EQ(drive_at(start + 5 * FRAME), 0); /* the ramp passes 0 */
  CHECK_EQ(drive_at(start + 6 * FRAME), level(100));
}

void expect_vector_batch(uint32_t start, int (*drive_at)(uint64_t time), int (*level)(long queued)) {
  CHECK_EQ(drive_at(start - 1), 0);
  for (uint32_t k = 0; k < VECTOR_BATCH_FRAMES; k++) {
    int expected = level(vector_batch_level(k));
    CHECK_EQ(drive_at(start + k * FRAME), expected);
    CHECK_EQ(drive_at(start + k * FRAME + FRAME - 1), expected);
  }
  CHECK_EQ(drive_at(start + VECTOR_BATCH_FRAMES * FRAME), 0);
}
