/*
 * carrier.h — the LRA channel's sine carrier (docs/protocol.md §6.5, "carrier phase"): a
 * 32-bit phase accumulator advanced once per PWM period of Timer2 (phase-correct 8-bit PWM at
 * 16 MHz / 510 = 31 372.5 Hz), a half-wave table of |sin|, and the sign choosing which input
 * of the H-bridge gets the duty (the positive half-wave on IN1 with IN2 low, the negative one
 * on IN2), so the bridge drives amplitude × sin φ. Portable: the AVR's Timer2 interrupt calls
 * carrier_step(), the host tests do the same.
 */
#ifndef CARRIER_H
#define CARRIER_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __AVR__
#include <avr/pgmspace.h>
#define CARRIER_TABLE_READ(index) pgm_read_byte(&carrier_half_sine[index])
#define CARRIER_PROGMEM PROGMEM
#else
#define CARRIER_TABLE_READ(index) (carrier_half_sine[index])
#define CARRIER_PROGMEM
#endif

/* CPU cycles per carrier sample: one period of Timer2's phase-correct 8-bit PWM. */
#define CARRIER_CYCLES_PER_SAMPLE 510UL

/* 255 × sin(π i / 128), i = 0…127: half a period. */
extern const uint8_t carrier_half_sine[128] CARRIER_PROGMEM;

typedef struct {
  uint32_t phase;     /* 2^32 = one period; 0 = the start of a positive half-wave */
  uint32_t increment; /* per sample: carrier_increment() of the frequency */
  uint8_t amplitude;  /* 0…255 of full scale; 0 = off */
  bool inverted;      /* a negative level: the same carrier in anti-phase */
} carrier_t;

/* The phase increment per sample for a frequency in tenths of a hertz:
 * round(f × 2^32 × 510 / 16 MHz) within 1, every frequency up to 6553.5 Hz. */
uint32_t carrier_increment(uint16_t frequency_x10);

/* The phase a carrier restarted `ticks` board ticks (2 MHz) ago has reached: increment ×
 * ticks × 31 372.5 / 2 MHz, modulo a period, for up to 16 383 ticks (8 ms; a frame's drive is
 * computed a little after the frame began: its carrier starts where the frame's would be). */
uint32_t carrier_phase_after(uint32_t increment, uint32_t ticks);

/* Full-scale fraction of a level: round(|level| × 255 / 127) (levels are ±127 at most). */
uint8_t carrier_amplitude(int16_t level);

/* The duties of the bridge's inputs for the current phase, then one step: IN1 carries the
 * positive half-wave, IN2 the negative (both 0 at zero amplitude). */
static inline void carrier_step(carrier_t *carrier, uint8_t *in1, uint8_t *in2) {
  uint8_t top = (uint8_t)(carrier->phase >> 24);
  uint8_t magnitude = CARRIER_TABLE_READ(top & 0x7F);
  uint8_t duty = (uint8_t)(((uint16_t)carrier->amplitude * magnitude + 255u) >> 8);
  bool negative = ((top & 0x80) != 0) != carrier->inverted;
  *in1 = negative ? 0 : duty;
  *in2 = negative ? duty : 0;
  carrier->phase += carrier->increment;
}

#endif
