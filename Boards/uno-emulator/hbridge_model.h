/*
 * hbridge_model.h — the uno-hbridge board's TI DRV8833 dual H-bridge as the ATmega328P drives
 * it, recorded as a drive trace.
 *
 * Wiring (fixed; the firmware uses exactly this):
 *   channel 0 (ERM) on bridge A: AIN1 = D6 = PD6 = OC0A, AIN2 = D5 = PD5 = OC0B (Timer0)
 *   channel 1 (LRA) on bridge B: BIN1 = D11 = PB3 = OC2A, BIN2 = D3 = PD3 = OC2B (Timer2)
 *   nSLEEP = D8 = PB0 (low: every output off)
 * Both timers run phase-correct 8-bit PWM at prescaler 1 (31372.5 Hz), non-inverting; the
 * firmware's TIMER2_OVF interrupt writes a sine carrier into OCR2A/OCR2B every period. simavr
 * 1.6 does not run that mode: phase_pwm.c does (the overflow interrupt, OCR double buffering).
 *
 * The trace (`--trace FILE.csv`): a header `time_us,channel,in1,in2`, then a row whenever a
 * channel's input duties change, at the simulated time they change (µs, 3 decimals: the
 * nanosecond, truncated). in1 and in2 are 0–255, the duty each input pin gets: the compare
 * value while the timer's COM bits have the pin (0 always low, 255 always high; inverting COM:
 * 255 − OCR), else 255 when its PORT bit is set, else 0; 0 while its DDR bit leaves it an input
 * (the DRV8833's pull-down), and both 0 while nSLEEP is low (PB0 not driven high). Nothing is
 * written before the first change (every input starts at 0). Rows are buffered and reach the
 * file within 100 ms of simulated time, and on exit.
 */
#ifndef HBRIDGE_MODEL_H
#define HBRIDGE_MODEL_H

#include <stdint.h>
#include <stdio.h>

#include "phase_pwm.h"
#include "sim_avr.h"
#include "sim_io.h"

#define HBRIDGE_CHANNELS 2

typedef struct {
  avr_io_t io;            /* first: simavr calls its reset with the AVR's */
  avr_t *avr;
  phase_pwm_t timer0, timer2;
  uint8_t drive[HBRIDGE_CHANNELS][2]; /* in1, in2 as last recorded */
  unsigned long changes[HBRIDGE_CHANNELS];
  FILE *trace;            /* NULL: no trace */
  unsigned long unflushed;
  char buffer[1 << 20];   /* the trace's stdio buffer */
} hbridge_model_t;

/* Connects the model to the AVR's ports and timers; `trace` (may be NULL) gets the header now. */
void hbridge_model_init(hbridge_model_t *model, avr_t *avr, FILE *trace);

/* "N drive changes on channel 0, M on channel 1" (rows written, with a trace) for the summary. */
void hbridge_model_describe(const hbridge_model_t *model, char *text, size_t size);

/* Writes out the buffered rows (at exit). */
void hbridge_model_finish(hbridge_model_t *model);

#endif
