/*
 * hbridge.h — the DRV8833 dual H-bridge as the back end (hbridge_backend.c) drives it:
 * implemented by hbridge_avr.c on the Uno and by test/fake_hbridge.c on the host.
 *
 * Wiring (docs/boards.md §8.1): bridge A (channel 0, the ERM) AIN1 = D6 (OC0A), AIN2 = D5
 * (OC0B), Timer0 phase-correct PWM; bridge B (channel 1, the LRA) BIN1 = D11 (OC2A), BIN2 =
 * D3 (OC2B), Timer2 phase-correct PWM whose overflow interrupt steps the carrier; nSLEEP = D8.
 * Both timers run at 16 MHz / 510 = 31.4 kHz, above hearing.
 */
#ifndef HBRIDGE_H
#define HBRIDGE_H

#include <stdbool.h>
#include <stdint.h>

#include "carrier.h"

/* Wakes the bridge (nSLEEP high) with both channels off and starts the PWM timers. */
void hbridge_init(void);

/* Bridge A's input duties now (0…255; one of them 0: forward, reverse or coast). Switches
 * staged for later stay. */
void hbridge_set_erm(uint8_t in1, uint8_t in2);

/* Bridge B's carrier from the next sample on: amplitude, phase increment and sign from
 * `carrier`. With `restart` its phase starts over at 0 as of board time `since` (the frame's
 * start: carrier_phase_after() of the ticks since then), else it runs on. Amplitude 0 turns
 * the bridge's inputs off (and the carrier interrupt with them).
 * Switches staged for later stay. */
void hbridge_set_carrier(const carrier_t *carrier, bool restart, uint32_t since);

/* Switches staged at once at most, per bridge (the core stages four frames ahead). */
#define HBRIDGE_STAGES 4

/* The same at board time `at` (later than any staged before, within 8 ms from now; the switch
 * is made then, the carrier's next sample follows it), its phase restarting at 0 there with
 * `restart`. False when HBRIDGE_STAGES are staged and not made yet. */
bool hbridge_stage_carrier(const carrier_t *carrier, bool restart, uint32_t at);

/* Bridge A's duties from board time `at` on, as hbridge_stage_carrier. */
bool hbridge_stage_erm(uint8_t in1, uint8_t in2, uint32_t at);

/* Drops bridge `bridge`'s (0 A, 1 B) staged switches not made yet (due ones are made first);
 * returns how many. */
uint8_t hbridge_unstage(uint8_t bridge);

#endif
