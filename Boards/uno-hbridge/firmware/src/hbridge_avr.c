/*
 * hbridge_avr.c — the DRV8833 on the ATmega328P (hbridge.h): Timer0 and Timer2 in
 * phase-correct 8-bit PWM at 16 MHz / 510 = 31 372.5 Hz (prescaler 1), non-inverting on both
 * compare outputs. Timer2's overflow interrupt (at BOTTOM, once per PWM period) writes the
 * carrier's next sample, which the compare unit takes at TOP: it does nothing else, as it runs
 * 31 372 times a second while the LRA drives (~100 of each 510 cycles). Staged switches are
 * made by Timer1's compare-B interrupt (Timer1 is the board clock, compare A the HAL's wake-up)
 * at their exact board time: the ERM's duties then, the LRA's carrier from its next sample.
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>

#include "board_config.h"
#include "hal.h"
#include "hbridge.h"

static carrier_t carrier; /* the interrupt's; changed with interrupts off */

/* Switches staged for their board time (low 16 bits: Timer1's counter; a stage is at most
 * ~8 ms ahead, well within its 32.8 ms wrap), in time order, one ring per bridge. */
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

/* The carrier interrupt runs while the carrier drives (interrupts off). */
static void update_interrupt(void) { TIMSK2 = carrier.amplitude == 0 ? 0 : _BV(TOIE2); }

/* Makes one due carrier switch, with interrupts off for just that (the carrier interrupt, due
 * every 32 us, must not wait: a sample written after TOP repeats the last, one delayed a whole
 * period is lost and the carrier's phase slips). True when it made one. */
static bool switch_carrier(void) {
  bool made = false;
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    if (carrier_count > 0 && due(carrier_stages[carrier_head].at)) {
      const carrier_stage_t *stage = &carrier_stages[carrier_head];
      uint32_t phase = stage->restart ? 0 : carrier.phase;
      carrier = stage->carrier;
      carrier.phase = phase;
      if (carrier.amplitude == 0) {
        OCR2A = 0;
        OCR2B = 0;
      }
      update_interrupt();
      carrier_head = (uint8_t)((carrier_head + 1) % HBRIDGE_STAGES);
      carrier_count--;
      made = true;
    }
  }
  return made;
}

/* Makes one due ERM switch, as switch_carrier. */
static bool switch_erm(void) {
  bool made = false;
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    if (erm_count > 0 && due(erm_stages[erm_head].at)) {
      OCR0A = erm_stages[erm_head].in1;
      OCR0B = erm_stages[erm_head].in2;
      erm_head = (uint8_t)((erm_head + 1) % HBRIDGE_STAGES);
      erm_count--;
      made = true;
    }
  }
  return made;
}

/* Sets compare B to the next staged switch (or off); true when that one is due already (it
 * passed while being set: compare B only fires on the exact count). TIFR1 is not written: with
 * interrupts off that loses a pending Timer1 overflow in simavr 1.6; a stale OCF1B only makes
 * one early, harmless interrupt. */
static bool schedule_compare(void) {
  bool passed = false;
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    uint16_t next = 0;
    bool any = true;
    if (carrier_count > 0 && erm_count > 0) {
      uint16_t a = carrier_stages[carrier_head].at, b = erm_stages[erm_head].at;
      next = (int16_t)(a - b) < 0 ? a : b;
    } else if (carrier_count > 0) {
      next = carrier_stages[carrier_head].at;
    } else if (erm_count > 0) {
      next = erm_stages[erm_head].at;
    } else {
      any = false;
    }
    if (any) {
      OCR1B = next;
      TIMSK1 |= _BV(OCIE1B);
      passed = due(next);
    } else {
      TIMSK1 &= (uint8_t)~_BV(OCIE1B);
    }
  }
  return passed;
}

/* Makes the staged switches whose time has come, then sets compare B to the next; interrupts
 * stay on between steps (each step is atomic on its own). */
static void switch_when_due(void) {
  do {
    while (switch_carrier() || switch_erm()) {
    }
  } while (schedule_compare());
}

/* Compare B: the staged switches at their board time. Interruptible (ISR_NOBLOCK), so the
 * carrier interrupt is never held up by it. */
ISR(TIMER1_COMPB_vect, ISR_NOBLOCK) { switch_when_due(); }

ISR(TIMER2_OVF_vect) {
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

/* A slot past the ring's count is the caller's alone (a switch only pops from the head, which
 * keeps head + count): filled with interrupts on, then counted in. */
bool hbridge_stage_carrier(const carrier_t *next, bool restart, uint32_t at) {
  switch_when_due(); /* a due switch compare B has not made yet frees its place */
  if (carrier_count == HBRIDGE_STAGES) return false;
  carrier_stage_t *stage = &carrier_stages[(carrier_head + carrier_count) % HBRIDGE_STAGES];
  stage->carrier = *next;
  stage->at = (uint16_t)at;
  stage->restart = restart;
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { carrier_count++; }
  switch_when_due(); /* compare B for the earliest */
  return true;
}

bool hbridge_stage_erm(uint8_t in1, uint8_t in2, uint32_t at) {
  switch_when_due();
  if (erm_count == HBRIDGE_STAGES) return false;
  erm_stage_t *stage = &erm_stages[(erm_head + erm_count) % HBRIDGE_STAGES];
  stage->in1 = in1;
  stage->in2 = in2;
  stage->at = (uint16_t)at;
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { erm_count++; }
  switch_when_due();
  return true;
}

uint8_t hbridge_unstage(uint8_t bridge) {
  uint8_t dropped;
  switch_when_due();
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    if (bridge == 0) {
      dropped = erm_count;
      erm_count = 0;
    } else {
      dropped = carrier_count;
      carrier_count = 0;
    }
  }
  switch_when_due(); /* compare B for what is left, or off */
  return dropped;
}
