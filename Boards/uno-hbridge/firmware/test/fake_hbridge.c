/*
 * fake_hbridge.c — the logging DRV8833 (fake_hbridge.h).
 */
#include "fake_hbridge.h"

#include <string.h>

#include "fake_hal.h"
#include "hbridge.h"

fake_bridge_t bridge;

/* A staged carrier switch not logged yet (it takes effect at its time, as the interrupt does). */
static struct {
  bool pending;
  uint32_t at;
  carrier_t carrier;
  bool restart;
} stage;

void fake_bridge_reset(void) {
  memset(&bridge, 0, sizeof bridge);
  memset(&stage, 0, sizeof stage);
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

/* Logs the staged switch once its time is at or before `now` (ticks, 64-bit fake clock). */
static void settle_stage(uint64_t now) {
  if (!stage.pending) return;
  uint64_t at = (now & ~0xFFFFFFFFull) | stage.at;
  if (at > now) at -= 0x100000000ull;
  if ((int32_t)((uint32_t)now - stage.at) < 0) return;
  fake_bridge_call_t *call = append(1);
  stage.pending = false;
  if (!call) return;
  call->time = at;
  call->carrier = stage.carrier;
  call->restart = stage.restart;
  call->since = stage.at;
  call->staged = true;
}

void hbridge_set_carrier(const carrier_t *carrier, bool restart, uint32_t since) {
  settle_stage(fake.now);
  stage.pending = false;
  fake_bridge_call_t *call = append(1);
  if (!call) return;
  call->carrier = *carrier;
  call->restart = restart;
  call->since = since;
}

void hbridge_stage_carrier(const carrier_t *carrier, bool restart, uint32_t at) {
  settle_stage(fake.now);
  stage.pending = true;
  stage.at = at;
  stage.carrier = *carrier;
  stage.restart = restart;
}

const fake_bridge_call_t *fake_bridge_at(uint8_t channel, uint64_t time) {
  settle_stage(fake.now);
  const fake_bridge_call_t *found = 0;
  for (size_t i = 0; i < bridge.count && bridge.calls[i].time <= time; i++) {
    if (bridge.calls[i].channel == channel) found = &bridge.calls[i];
  }
  return found;
}

const fake_bridge_call_t *fake_bridge_next(uint8_t channel, size_t from, size_t *index) {
  settle_stage(fake.now);
  for (size_t i = from; i < bridge.count; i++) {
    if (bridge.calls[i].channel == channel) {
      *index = i;
      return &bridge.calls[i];
    }
  }
  return 0;
}
