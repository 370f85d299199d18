/*
 * hbridge_avr.c — the DRV8833 on the ATmega328P (hbridge.h): Timer0 and Timer2 in
 * phase-correct 8-bit PWM at 16 MHz / 510 = 31 372.5 Hz (prescaler 1), non-inverting on both
 * compare outputs; Timer2's overflow interrupt (at BOTTOM, once per PWM period) writes the
 * carrier's next sample, which the compare unit takes at TOP, and switches to a staged frame
 * at its first sample at or after the frame's start; it makes the ERM's staged switches too.
 * It runs only while the LRA drives or a switch is staged (~80 cycles of 510: 16 % of the CPU).
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>

#include "board_config.h"
#include "hal.h"
#include "hbridge.h"

static carrier_t carrier; /* the interrupt's; changed with interrupts off */

/* Switches staged for the first sample at or after their board time (low 16 bits: Timer1's
 * counter; a stage is at most ~8 ms ahead, well within its 32.8 ms wrap), in time order, one
 * ring per bridge. */
typedef struct {
  carrier_t carrier;
  uint16_t at;
  bool restart;
} carrier_stage_t;

typedef struct {
  uint8_t in1, in2;
  uint16_t at;
} erm_stage_t;

static carrier_stage_t carrier_stages[HBRIDGE_STAGES];
static erm_stage_t erm_stages[HBRIDGE_STAGES];
static uint8_t carrier_head, erm_head;
static volatile uint8_t carrier_count, erm_count;

static bool due(uint16_t at) { return (int16_t)(TCNT1 - at) >= 0; }

/* Makes the staged switches whose time has come (interrupts off). */
static void switch_when_due(void) {
  while (carrier_count > 0 && due(carrier_stages[carrier_head].at)) {
    const carrier_stage_t *stage = &carrier_stages[carrier_head];
    uint32_t phase = stage->restart ? 0 : carrier.phase;
    carrier = stage->carrier;
    carrier.phase = phase;
    carrier_head = (uint8_t)((carrier_head + 1) % HBRIDGE_STAGES);
    carrier_count--;
  }
  while (erm_count > 0 && due(erm_stages[erm_head].at)) {
    OCR0A = erm_stages[erm_head].in1;
    OCR0B = erm_stages[erm_head].in2;
    erm_head = (uint8_t)((erm_head + 1) % HBRIDGE_STAGES);
    erm_count--;
  }
}

/* The interrupt runs while the carrier drives or a switch waits (interrupts off). */
static void update_interrupt(void) {
  TIMSK2 = carrier.amplitude == 0 && carrier_count == 0 && erm_count == 0 ? 0 : _BV(TOIE2);
}

ISR(TIMER2_OVF_vect) {
  switch_when_due();
  uint8_t in1, in2;
  carrier_step(&carrier, &in1, &in2);
  /* The input going to 0 first: both are never on together, even for an instant. */
  if (in1 == 0) {
    OCR2A = 0;
    OCR2B = in2;
  } else {
    OCR2B = 0;
    OCR2A = in1;
  }
  update_interrupt();
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
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    OCR0A = in1;
    OCR0B = in2;
  }
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
    if (carrier.amplitude == 0) {
      OCR2A = 0;
      OCR2B = 0;
    }
    update_interrupt();
  }
}

bool hbridge_stage_carrier(const carrier_t *next, bool restart, uint32_t at) {
  bool staged = false;
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    switch_when_due(); /* a due switch the interrupt has not made yet frees its place */
    if (carrier_count < HBRIDGE_STAGES) {
      carrier_stage_t *stage = &carrier_stages[(carrier_head + carrier_count) % HBRIDGE_STAGES];
      stage->carrier = *next;
      stage->at = (uint16_t)at;
      stage->restart = restart;
      carrier_count++;
      staged = true;
      update_interrupt();
    }
  }
  return staged;
}

bool hbridge_stage_erm(uint8_t in1, uint8_t in2, uint32_t at) {
  bool staged = false;
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    switch_when_due();
    if (erm_count < HBRIDGE_STAGES) {
      erm_stage_t *stage = &erm_stages[(erm_head + erm_count) % HBRIDGE_STAGES];
      stage->in1 = in1;
      stage->in2 = in2;
      stage->at = (uint16_t)at;
      erm_count++;
      staged = true;
      update_interrupt();
    }
  }
  return staged;
}

uint8_t hbridge_unstage(uint8_t bridge) {
  uint8_t dropped;
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    switch_when_due();
    if (bridge == 0) {
      dropped = erm_count;
      erm_count = 0;
    } else {
      dropped = carrier_count;
      carrier_count = 0;
    }
    update_interrupt();
  }
  return dropped;
}
