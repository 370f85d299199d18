/*
 * fake_hbridge.c — the logging DRV8833 (fake_hbridge.h).
 */
#include "fake_hbridge.h"

#include <string.h>

#include "fake_hal.h"
#include "hbridge.h"

fake_bridge_t bridge;

/* Staged switches not logged yet, per bridge in time order (each logged at its time, as the
 * interrupt makes it). */
typedef struct {
  uint32_t at;
  carrier_t carrier; /* bridge B */
  bool restart;
  uint8_t in1, in2;  /* bridge A */
} fake_stage_t;

static fake_stage_t stages[2][HBRIDGE_STAGES];
static size_t stage_count[2];

void fake_bridge_reset(void) {
  memset(&bridge, 0, sizeof bridge);
  stage_count[0] = stage_count[1] = 0;
}

/* This board's fakes (fake_hal.h): the bridge. Nothing on its I2C bus. */
void fake_board_reset(void) { fake_bridge_reset(); }

static void settle_stages(uint64_t now);

static fake_bridge_call_t *append(uint8_t channel) {
  if (bridge.count == FAKE_BRIDGE_MAX_CALLS) return 0;
  fake_bridge_call_t *call = &bridge.calls[bridge.count++];
  memset(call, 0, sizeof *call);
  call->time = fake.now;
  call->channel = channel;
  return call;
}

void hbridge_init(void) {
  bridge.awake = true;
  hbridge_set_erm(0, 0);
  carrier_t off = {0, 0, 0, false};
  hbridge_set_carrier(&off, true, 0);
}

void hbridge_set_erm(uint8_t in1, uint8_t in2) {
  settle_stages(fake.now);
  fake_bridge_call_t *call = append(0);
  if (!call) return;
  call->in1 = in1;
  call->in2 = in2;
}

/* Logs the staged switches whose time is at or before `now` (ticks, 64-bit fake clock), both
 * bridges' in time order (the log is searched in order). */
static void settle_stages(uint64_t now) {
  for (;;) {
    int b = -1;
    for (uint8_t i = 0; i < 2; i++) {
      if (stage_count[i] == 0 || (int32_t)((uint32_t)now - stages[i][0].at) < 0) continue;
      if (b < 0 || (int32_t)(stages[i][0].at - stages[b][0].at) < 0) b = i;
    }
    if (b < 0) return;
    uint64_t at = (now & ~0xFFFFFFFFull) | stages[b][0].at;
    if (at > now) at -= 0x100000000ull;
    fake_bridge_call_t *call = append((uint8_t)b);
    if (call) {
      call->time = at;
      call->in1 = stages[b][0].in1;
      call->in2 = stages[b][0].in2;
      call->carrier = stages[b][0].carrier;
      call->restart = stages[b][0].restart;
      call->since = stages[b][0].at;
      call->staged = true;
    }
    for (size_t i = 1; i < stage_count[b]; i++) stages[b][i - 1] = stages[b][i];
    stage_count[b]--;
  }
}

void hbridge_set_carrier(const carrier_t *carrier, bool restart, uint32_t since) {
  settle_stages(fake.now);
  fake_bridge_call_t *call = append(1);
  if (!call) return;
  call->carrier = *carrier;
  call->restart = restart;
  call->since = since;
}

static bool stage(uint8_t b, fake_stage_t entry) {
  settle_stages(fake.now);
  if (stage_count[b] == HBRIDGE_STAGES) return false;
  stages[b][stage_count[b]++] = entry;
  return true;
}

bool hbridge_stage_carrier(const carrier_t *carrier, bool restart, uint32_t at) {
  return stage(1, (fake_stage_t){at, *carrier, restart, 0, 0});
}

bool hbridge_stage_erm(uint8_t in1, uint8_t in2, uint32_t at) {
  carrier_t none = {0, 0, 0, false};
  return stage(0, (fake_stage_t){at, none, false, in1, in2});
}

uint8_t hbridge_unstage(uint8_t b) {
  settle_stages(fake.now);
  uint8_t dropped = (uint8_t)stage_count[b];
  stage_count[b] = 0;
  return dropped;
}

const fake_bridge_call_t *fake_bridge_at(uint8_t channel, uint64_t time) {
  settle_stages(fake.now);
  const fake_bridge_call_t *found = 0;
  for (size_t i = 0; i < bridge.count && bridge.calls[i].time <= time; i++) {
    if (bridge.calls[i].channel == channel) found = &bridge.calls[i];
  }
  return found;
}

const fake_bridge_call_t *fake_bridge_next(uint8_t channel, size_t from, size_t *index) {
  settle_stages(fake.now);
  for (size_t i = from; i < bridge.count; i++) {
    if (bridge.calls[i].channel == channel) {
      *index = i;
      return &bridge.calls[i];
    }
  }
  return 0;
}
