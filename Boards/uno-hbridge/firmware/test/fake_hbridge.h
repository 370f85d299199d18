/*
 * fake_hbridge.h — the DRV8833 on the host (hbridge.h): every change logged with the fake
 * clock's time (a staged carrier switch at the time it takes effect, as the interrupt makes
 * it), so tests see what each channel drove from when.
 */
#ifndef FAKE_HBRIDGE_H
#define FAKE_HBRIDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "carrier.h"

typedef struct {
  uint64_t time;    /* board ticks */
  uint8_t channel;  /* 0: hbridge_set_erm, 1: hbridge_set_carrier */
  uint8_t in1, in2; /* channel 0 */
  carrier_t carrier; /* channel 1 (phase: 0 when restarted, else the running phase's origin is kept) */
  bool restart;
  uint32_t since;   /* the restart's frame start */
  bool staged;      /* a staged switch, logged at the time it took effect */
} fake_bridge_call_t;

#define FAKE_BRIDGE_MAX_CALLS 4096

typedef struct {
  bool awake;
  fake_bridge_call_t calls[FAKE_BRIDGE_MAX_CALLS];
  size_t count;
} fake_bridge_t;

extern fake_bridge_t bridge;

/* Forgets every call (the bridge asleep until hbridge_init); fake_reset() does it too. */
void fake_bridge_reset(void);

/* The last call on `channel` at or before `time`, or NULL. */
const fake_bridge_call_t *fake_bridge_at(uint8_t channel, uint64_t time);

/* The first call on `channel` after index `from` (its index in *index), or NULL. */
const fake_bridge_call_t *fake_bridge_next(uint8_t channel, size_t from, size_t *index);

#endif
