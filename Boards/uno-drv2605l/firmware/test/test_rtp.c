/*
 * test_rtp.c — the core's drive through the DRV2605L back end and the chip (fake_drv2605.c):
 * capabilities with this board's values, segment playback as RTP_INPUT writes with their times
 * (each value written once, levels clamped to 0..255), the host watchdog writing 0, and a
 * missing or foreign chip. The core's own tests (firmware-core/test) check the rest on a test
 * back end.
 */
#include <string.h>

#include "batch.h"
#include "board.h"
#include "drv2605.h"
#include "expect.h"
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

static void capabilities_announce_this_board(void) {
  host_t host;
  boot_and_identify(&host, 1000);
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
  CHECK_EQ(le16(q + 12), 0x5B);   /* features: braking, overdrive, calibration, ROM effects, identity */
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
  boot_for_playback(&host, 1000000);
  size_t first_write = fake_drv.write_count;
  uint32_t start = (uint32_t)fake.now + MS_TICKS(10) + 123; /* not on any grid */
  send_batch_on(&host, MSG_QUEUE_SEGMENTS, 0, start, vector_batch, VECTOR_BATCH_SEGMENTS);
  run_for(MS_TICKS(240));
  host_read(&host);
  CHECK(host_find(&host, MSG_ERROR) == NULL);
  expect_vector_batch(start, rtp_at, clamp255);
  /* The first write lands exactly on the batch start, the brake frames write 0 exactly 9
   * frames later. */
  size_t i = fake_find_write(first_write, DRV_REG_RTP_INPUT);
  CHECK(i != (size_t)-1 && fake_drv.writes[i].time == start && fake_drv.writes[i].value == 127);
  i = fake_find_write(i + 1, DRV_REG_RTP_INPUT);
  CHECK(i != (size_t)-1 && fake_drv.writes[i].time == start + 9 * FRAME && fake_drv.writes[i].value == 0);
  CHECK(rtp_writes_only_changes(first_write));
}

static void levels_clamp_to_rtp_range(void) {
  /* 300 clamps to full scale (255), -100 to 0 (no signed levels). */
  expect_levels_clamped(rtp_at, clamp255);
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

static void missing_or_foreign_chip_is_a_fault(void) {
  host_t host;
  fake_reset(1000);
  fake_drv.chip_present = false;
  expect_driver_not_responding(&host);
  CHECK(!drv2605.present);
  CHECK_EQ(fake_drv.write_count, 0); /* playback went on without hanging: writes fail, nothing else */
  /* A chip with another id (4, a DRV2604) is not ours either; the DRV2605 (id 3) is accepted.
   * The id is STATUS's top 3 bits. */
  static const struct {
    uint8_t status, id, faults;
  } chips[] = {{0x80, 4, 0x04}, {0x60, 3, 0}};
  for (size_t c = 0; c < sizeof chips / sizeof chips[0]; c++) {
    fake_reset(1000);
    fake_drv.regs[0] = chips[c].status;
    board_init();
    CHECK_EQ(board.faults, chips[c].faults);
    CHECK_EQ(drv2605.device_id, chips[c].id);
  }
}

const test_case_t rtp_tests[] = {
    {"capabilities: the Uno + DRV2605L's values, uncalibrated", capabilities_announce_this_board},
    {"the vector batch as RTP_INPUT writes on time, each value once (brake -> 0)", the_vector_batch_as_rtp_writes},
    {"levels clamp to RTP_INPUT's 0..255", levels_clamp_to_rtp_range},
    {"the host watchdog writes RTP_INPUT 0 at exactly 100 ms of silence", watchdog_writes_zero},
    {"a missing or foreign driver chip is fault bit 2", missing_or_foreign_chip_is_a_fault},
    TEST_LIST_END,
};
