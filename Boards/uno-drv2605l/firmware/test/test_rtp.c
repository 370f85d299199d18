/*
 * test_rtp.c — the core's drive through the DRV2605L back end and the chip (fake_drv2605.c):
 * capabilities with this board's values, segment playback as RTP_INPUT writes with their times
 * (each value written once, levels clamped to 0..255), the host watchdog writing 0, and a
 * missing or foreign chip. The core's own tests (firmware-core/test) check the rest on a test
 * back end.
 */
#include <math.h>
#include <string.h>

#include "batch.h"
#include "board.h"
#include "drv2605.h"
#include "fake_drv2605.h"
#include "fake_hal.h"
#include "host.h"
#include "test.h"

#define FRAME 2000u /* ticks */

/* RTP_INPUT in effect at time t (from the write log); -1 before any write. */
static int rtp_at(uint64_t t) {
  int value = -1;
  for (size_t i = 0; i < fake_drv.write_count && fake_drv.writes[i].time <= t; i++) {
    if (fake_drv.writes[i].reg == DRV_REG_RTP_INPUT) value = fake_drv.writes[i].value;
  }
  return value;
}

/* RTP writes never repeat the value already there. */
static bool rtp_writes_only_changes(size_t from) {
  int last = -1;
  for (size_t i = from; i < fake_drv.write_count; i++) {
    if (fake_drv.writes[i].reg != DRV_REG_RTP_INPUT) continue;
    if (fake_drv.writes[i].value == last) return false;
    last = fake_drv.writes[i].value;
  }
  return true;
}

static int clamp255(long level) { return level < 0 ? 0 : level > 255 ? 255 : (int)level; }

/* Connects, and lifts the watchdog to 5 s so long playbacks need no heartbeats. */
static void setup(host_t *host) {
  boot_and_connect(host, 1000000);
  const uint8_t five_seconds[] = {0x88, 0x13};
  host_send(host, MSG_SET_WATCHDOG, five_seconds, 2);
  run_for(10);
  host_read(host);
}

static void capabilities_announce_this_board(void) {
  host_t host;
  fake_reset(1000);
  board_init();
  host_init(&host, 0x77);
  run_for(MS_TICKS(1));
  host_read(&host);
  host_send(&host, MSG_IDENTIFY, 0, 0);
  run_for(MS_TICKS(1));
  host_read(&host);
  const host_frame_t *caps = host_find(&host, MSG_CAPABILITIES);
  CHECK(caps != NULL);
  if (!caps) return;
  const uint8_t *p = caps->payload;
  CHECK_EQ(p[0], 1);
  CHECK(p[1] == 13 && memcmp(p + 2, "hapticctl-uno", 13) == 0);
  CHECK(p[15] == 5 && memcmp(p + 16, "1.0.0", 5) == 0);
  CHECK(p[21] == 12 && memcmp(p + 22, "uno-drv2605l", 12) == 0);
  const uint8_t *q = p + 34;
  CHECK_EQ(le16(q), 1);           /* boot count */
  CHECK_EQ(le32(q + 2), 2000000); /* clock */
  CHECK_EQ(le16(q + 6), 1000);    /* frame period */
  CHECK_EQ(le16(q + 8), 32);      /* queue depth */
  CHECK_EQ(le16(q + 10), 100);    /* watchdog */
  CHECK_EQ(le16(q + 12), 0x1B);   /* features */
  CHECK_EQ(q[14], 1);             /* channels */
  CHECK_EQ(q[15], 1);             /* LRA */
  CHECK_EQ(le16(q + 16), 1750);
  CHECK_EQ(le16(q + 18), 1100);
  CHECK_EQ(le16(q + 20), 0);
  CHECK_EQ(le16(q + 22), 0);
  CHECK_EQ(q[24], 8);
  CHECK_EQ(q[25], 1); /* uncalibrated: the chip's state */
  CHECK_EQ(caps->frame.length, 60);
}

static void the_vector_batch_as_rtp_writes(void) {
  host_t host;
  setup(&host);
  size_t first_write = fake_drv.write_count;
  uint32_t start = (uint32_t)fake.now + MS_TICKS(10) + 123; /* not on any grid */
  const seg_spec_t segs[] = {{9, 127, 127, false}, {5, -127, -127, true}, {200, 20, 0, false}};
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 0, start, segs, 3);
  run_for(MS_TICKS(240));
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  CHECK_EQ(rtp_at(start - 1), 0);
  for (uint32_t k = 0; k < 214; k++) {
    long expected = k < 9 ? 127 : k < 14 ? -127 : lround(20.0 - 20.0 * (k - 14) / 199.0);
    CHECK_EQ(rtp_at(start + k * FRAME), clamp255(expected));
    CHECK_EQ(rtp_at(start + k * FRAME + FRAME - 1), clamp255(expected));
  }
  CHECK_EQ(rtp_at(start + 214 * FRAME), 0);
  /* The first write lands exactly on the batch start, the brake frames write 0 exactly 9
   * frames later. */
  size_t i = fake_find_write(first_write, DRV_REG_RTP_INPUT);
  CHECK(i != (size_t)-1 && fake_drv.writes[i].time == start && fake_drv.writes[i].value == 127);
  i = fake_find_write(i + 1, DRV_REG_RTP_INPUT);
  CHECK(i != (size_t)-1 && fake_drv.writes[i].time == start + 9 * FRAME && fake_drv.writes[i].value == 0);
  CHECK(rtp_writes_only_changes(first_write));
}

static void levels_clamp_to_rtp_range(void) {
  host_t host;
  setup(&host);
  uint8_t payload[64];
  uint32_t start = (uint32_t)fake.now + MS_TICKS(1);
  const seg_spec_t segs[] = {{3, 255, 255, false}, {1, 300, 300, false}, {3, -100, 100, false}};
  uint8_t length = build_batch(payload, 0, start, 2, segs, 3);
  host_send(&host, MSG_QUEUE_SEGMENTS, payload, length);
  run_for(MS_TICKS(10));
  CHECK_EQ(rtp_at(start), 255);
  CHECK_EQ(rtp_at(start + 3 * FRAME), 255); /* 300 clamps to full scale */
  CHECK_EQ(rtp_at(start + 4 * FRAME), 0);   /* -100 clamps to 0 (no signed levels) */
  CHECK_EQ(rtp_at(start + 5 * FRAME), 0);   /* the ramp passes 0 */
  CHECK_EQ(rtp_at(start + 6 * FRAME), 100);
}

static void watchdog_writes_zero(void) {
  host_t host;
  boot_and_connect(&host, 1000000);
  host.auto_ack = false; /* acks are frames too: the host must be really silent */
  const seg_spec_t second[] = {{1000, 120, 120, false}};
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 0, (uint32_t)fake.now + MS_TICKS(1), second, 1);
  uint64_t last_frame = fake.now;
  run_for(MS_TICKS(200));
  CHECK_EQ(rtp_at(last_frame + MS_TICKS(100) - 1), 120);
  CHECK_EQ(rtp_at(last_frame + MS_TICKS(100)), 0);
  size_t i = fake_drv.write_count;
  while (i > 0 && fake_drv.writes[i - 1].reg != DRV_REG_RTP_INPUT) i--;
  CHECK(i > 0 && fake_drv.writes[i - 1].time == last_frame + MS_TICKS(100));
}

static const host_frame_t *request_status(host_t *host) {
  host_send(host, MSG_STATUS_REQUEST, 0, 0);
  run_for(10);
  host_read(host);
  const host_frame_t *status = host_find(host, MSG_STATUS);
  CHECK(status != NULL);
  return status;
}

static void missing_or_foreign_chip_is_a_fault(void) {
  host_t host;
  fake_reset(1000);
  fake_drv.chip_present = false;
  board_init();
  host_init(&host, 0x77);
  run_for(MS_TICKS(1));
  host_read(&host);
  CHECK_EQ(host.frames[0].frame.type, MSG_RESET_NOTICE); /* the board still talks */
  CHECK(!drv2605.present);
  const host_frame_t *status = request_status(&host);
  if (status) CHECK_EQ(status->payload[5], 0x04); /* driver not responding */
  /* Playback goes on without hanging (writes fail, nothing else happens). */
  const seg_spec_t segs[] = {{10, 100, 100, false}};
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 0, (uint32_t)fake.now + MS_TICKS(1), segs, 1);
  run_for(MS_TICKS(20));
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  CHECK_EQ(fake_drv.write_count, 0);
  /* A chip with another id (4, a DRV2604) is not ours either. */
  fake_reset(1000);
  fake_drv.regs[0] = 0x80;
  board_init();
  CHECK_EQ(board.faults, 0x04);
  CHECK_EQ(drv2605.device_id, 4);
  /* The DRV2605 (id 3) is accepted. */
  fake_reset(1000);
  fake_drv.regs[0] = 0x60;
  board_init();
  CHECK_EQ(board.faults, 0);
  CHECK_EQ(drv2605.device_id, 3);
}

const test_case_t rtp_tests[] = {
    {"capabilities: the Uno + DRV2605L's values, uncalibrated", capabilities_announce_this_board},
    {"the vector batch as RTP_INPUT writes on time, each value once (brake -> 0)", the_vector_batch_as_rtp_writes},
    {"levels clamp to RTP_INPUT's 0..255", levels_clamp_to_rtp_range},
    {"the host watchdog writes RTP_INPUT 0 at exactly 100 ms of silence", watchdog_writes_zero},
    {"a missing or foreign driver chip is fault bit 2", missing_or_foreign_chip_is_a_fault},
    TEST_LIST_END,
};
