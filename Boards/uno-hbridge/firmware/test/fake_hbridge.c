/*
 * fake_hbridge.c — the logging DRV8833 (fake_hbridge.h).
 */
#include "fake_hbridge.h"

#include <string.h>

#include "fake_hal.h"
#include "hbridge.h"

fake_bridge_t bridge;

/* Staged carrier switches not logged yet, in time order (each logged at its time, as the
 * interrupt makes it). */
static struct {
  uint32_t at;
  carrier_t carrier;
  bool restart;
} stages[HBRIDGE_STAGES];
static size_t stage_count;

void fake_bridge_reset(void) {
  memset(&bridge, 0, sizeof bridge);
  stage_count = 0;
}

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
  fake_bridge_call_t *call = append(0);
  if (!call) return;
  call->in1 = in1;
  call->in2 = in2;
}

/* Logs the staged switches whose time is at or before `now` (ticks, 64-bit fake clock). */
static void settle_stages(uint64_t now) {
  while (stage_count > 0 && (int32_t)((uint32_t)now - stages[0].at) >= 0) {
    uint64_t at = (now & ~0xFFFFFFFFull) | stages[0].at;
    if (at > now) at -= 0x100000000ull;
    fake_bridge_call_t *call = append(1);
    if (call) {
      call->time = at;
      call->carrier = stages[0].carrier;
      call->restart = stages[0].restart;
      call->since = stages[0].at;
      call->staged = true;
    }
    for (size_t i = 1; i < stage_count; i++) stages[i - 1] = stages[i];
    stage_count--;
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

bool hbridge_stage_carrier(const carrier_t *carrier, bool restart, uint32_t at) {
  settle_stages(fake.now);
  if (stage_count == HBRIDGE_STAGES) return false;
  stages[stage_count].at = at;
  stages[stage_count].carrier = *carrier;
  stages[stage_count].restart = restart;
  stage_count++;
  return true;
}

uint8_t hbridge_unstage(void) {
  settle_stages(fake.now);
  uint8_t dropped = (uint8_t)stage_count;
  stage_count = 0;
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
