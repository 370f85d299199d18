/*
 * hbridge_avr.c — the DRV8833 on the ATmega328P (hbridge.h): Timer0 and Timer2 in
 * phase-correct 8-bit PWM at 16 MHz / 510 = 31 372.5 Hz (prescaler 1), non-inverting on both
 * compare outputs; Timer2's overflow interrupt (at BOTTOM, once per PWM period) writes the
 * carrier's next sample, which the compare unit takes at TOP, and switches to a staged frame
 * at its first sample at or after the frame's start. The interrupt runs only while the LRA
 * drives or a switch is staged (~80 cycles of 510: 16 % of the CPU).
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>

#include "board_config.h"
#include "hal.h"
#include "hbridge.h"

static carrier_t carrier; /* the interrupt's; changed with interrupts off */
/* A switch staged for the first sample at or after board time staged_at (low 16 bits: Timer1's
 * counter; a stage is at most 8 ms ahead, well within its 32.8 ms wrap). */
static carrier_t staged;
static uint16_t staged_at;
static bool staged_restart;
static volatile bool staged_pending;

/* Makes the staged switch when its time has come (interrupts off). */
static void switch_when_due(void) {
  if (staged_pending && (int16_t)(TCNT1 - staged_at) >= 0) {
    uint32_t phase = staged_restart ? 0 : carrier.phase;
    carrier = staged;
    carrier.phase = phase;
    staged_pending = false;
  }
}

ISR(TIMER2_OVF_vect) {
  switch_when_due();
  uint8_t in1, in2;
  carrier_step(&carrier, &in1, &in2);
  OCR2A = in1;
  OCR2B = in2;
  if (carrier.amplitude == 0 && !staged_pending) TIMSK2 = 0; /* silent, nothing to wait for */
}

void hbridge_init(void) {
  OCR0A = 0;
  OCR0B = 0;
  OCR2A = 0;
  OCR2B = 0;
  /* AIN1 PD6, AIN2 PD5, BIN2 PD3 and BIN1 PB3 as outputs (driven by the compare units), nSLEEP
   * PB0 high: the bridge wakes (~1 ms, DRV8833 t_WAKE) with every input low: coasting. */
  DDRD |= _BV(PD6) | _BV(PD5) | _BV(PD3);
  DDRB |= _BV(PB3) | _BV(PB0);
  PORTB |= _BV(PB0);
  TCCR0A = _BV(COM0A1) | _BV(COM0B1) | _BV(WGM00); /* phase-correct PWM, TOP 0xFF */
  TCCR0B = _BV(CS00);                               /* no prescaler */
  TCCR2A = _BV(COM2A1) | _BV(COM2B1) | _BV(WGM20);
  TCCR2B = _BV(CS20);
  TIMSK0 = 0;
  TIMSK2 = 0;
}

void hbridge_set_erm(uint8_t in1, uint8_t in2) {
  OCR0A = in1;
  OCR0B = in2;
}

void hbridge_set_carrier(const carrier_t *next, bool restart, uint32_t since) {
  uint32_t phase = 0;
  if (restart) {
    /* The frame began `late` ticks ago (its drive was computed since): start the carrier where
     * it would be had it started then, so the host's brakes, computed for a restart at the
     * frame's start, stay in anti-phase. */
    uint32_t late = hal_ticks() - since;
    if (late < BOARD_TICKS_PER_FRAME) phase = carrier_phase_after(next->increment, late);
  }
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    if (!restart) phase = carrier.phase;
    carrier = *next;
    carrier.phase = phase;
    staged_pending = false;
    if (carrier.amplitude == 0) {
      TIMSK2 = 0;
      OCR2A = 0;
      OCR2B = 0;
    } else {
      TIMSK2 = _BV(TOIE2);
    }
  }
}

void hbridge_stage_carrier(const carrier_t *next, bool restart, uint32_t at) {
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    /* A switch already due that the interrupt has not made yet (the frame began within the
     * last sample) is made first: replacing it would skip its frame. */
    switch_when_due();
    staged = *next;
    staged_restart = restart;
    staged_at = (uint16_t)at;
    staged_pending = true;
    TIMSK2 = _BV(TOIE2); /* the interrupt watches the time (outputs stay 0 while silent) */
  }
}
