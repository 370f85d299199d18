/*
 * fake_hbridge.c — the logging DRV8833 (fake_hbridge.h).
 */
#include "fake_hbridge.h"

#include <string.h>

#include "fake_hal.h"
#include "hbridge.h"

fake_bridge_t bridge;

void fake_bridge_reset(void) { memset(&bridge, 0, sizeof bridge); }

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
  hbridge_set_carrier(&off, true);
}

void hbridge_set_erm(uint8_t in1, uint8_t in2) {
  fake_bridge_call_t *call = append(0);
  if (!call) return;
  call->in1 = in1;
  call->in2 = in2;
}

void hbridge_set_carrier(const carrier_t *carrier, bool restart) {
  fake_bridge_call_t *call = append(1);
  if (!call) return;
  call->carrier = *carrier;
  call->restart = restart;
}

const fake_bridge_call_t *fake_bridge_at(uint8_t channel, uint64_t time) {
  const fake_bridge_call_t *found = 0;
  for (size_t i = 0; i < bridge.count && bridge.calls[i].time <= time; i++) {
    if (bridge.calls[i].channel == channel) found = &bridge.calls[i];
  }
  return found;
}

const fake_bridge_call_t *fake_bridge_next(uint8_t channel, size_t from, size_t *index) {
  for (size_t i = from; i < bridge.count; i++) {
    if (bridge.calls[i].channel == channel) {
      *index = i;
      return &bridge.calls[i];
    }
  }
  return 0;
}
