/*
 * hbridge_avr.c — the DRV8833 on the ATmega328P (hbridge.h): Timer0 and Timer2 in
 * phase-correct 8-bit PWM at 16 MHz / 510 = 31 372.5 Hz (prescaler 1), non-inverting on both
 * compare outputs; Timer2's overflow interrupt (at BOTTOM, once per PWM period) writes the
 * carrier's next sample, which the compare unit takes at TOP. The interrupt runs only while
 * the LRA drives (~70 cycles of 510: 14 % of the CPU).
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>

#include "hbridge.h"

static carrier_t carrier; /* the interrupt's; changed with interrupts off */

ISR(TIMER2_OVF_vect) {
  uint8_t in1, in2;
  carrier_step(&carrier, &in1, &in2);
  OCR2A = in1;
  OCR2B = in2;
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

void hbridge_set_carrier(const carrier_t *next, bool restart) {
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    uint32_t phase = restart ? 0 : carrier.phase;
    carrier = *next;
    carrier.phase = phase;
    if (carrier.amplitude == 0) {
      TIMSK2 = 0;
      OCR2A = 0;
      OCR2B = 0;
    } else {
      TIMSK2 = _BV(TOIE2);
    }
  }
}
