/*
 * phase_pwm.h — the ATmega328P's 8-bit Timer0 and Timer2 in phase-correct PWM (WGM 1), which
 * simavr 1.6 does not run: what hbridge_model.c needs of them.
 *
 * simavr's megax8 core lists no waveform mode 1 for these timers (cores/sim_megax8.h: their
 * wgm_op has modes 0, 2, 3 and 7 only, on simavr's master too), so sim/avr_timer.c takes the
 * mode as "none" with TOP 0: at prescaler 1 its overflow period is 1 cycle, which it never
 * schedules (avr_timer_configure arms cycle timers only for periods > 1), so the firmware's
 * TIMERn_OVF interrupt never fires (measured: 0 overflows in 1 s simulated); at other prescalers
 * it fires at a wrong rate (at 8: 7857/s, not 3922). Its TIMER_IRQ_OUT_PWM0/1 IRQs (raised by
 * avr_timer_write_ocr, filtered: on change only) exist only for the kinds it runs as PWM, never
 * mode 1, and carry the value as written, where the hardware's double buffer takes it at TOP.
 *
 * This module runs the mode as the datasheet has it (Timer/Counter0 and 2, "Phase Correct PWM
 * Mode"): the counter goes 0 → 255 → 0 in 510 timer clocks, TOVn is set at BOTTOM (simavr's own
 * overflow vector is raised there, so the flag, the interrupt and waking from sleep work as for
 * its other sources), and a new OCRnA/OCRnB takes effect at the next TOP. It follows the timer's registers through
 * simavr's I/O-memory IRQs (raised after every access, avr_iomem_getirq): exact to the
 * instruction, and nothing runs while the firmware leaves them alone but one cycle timer per
 * period (BOTTOM) and one at the TOP after an OCR write.
 *
 * Not modelled: TCNTn reads and writes (the count starts at 0 when the clock starts), the
 * external clock on T0 (CS0 6, 7: the timer counts as stopped), compare-match interrupts and
 * pin toggling in the non-PWM modes. Outside mode 1 (and while stopped) OCRn values take effect
 * as written, as simavr has them.
 */
#ifndef PHASE_PWM_H
#define PHASE_PWM_H

#include <stdbool.h>
#include <stdint.h>

#include "sim_avr.h"
#include "sim_interrupts.h"

/* Called when what a compare output drives may have changed, at simulated cycle `cycle`. */
typedef void (*phase_pwm_changed_t)(void *param, avr_cycle_count_t cycle);

typedef struct {
  avr_t *avr;
  char name;                   /* '0' or '2' */
  uint16_t tccra, tccrb, ocr[2]; /* data addresses */
  avr_int_vector_t *overflow;  /* simavr's TIMERn_OVF vector */
  bool raise_overflow;         /* simavr does not run mode 1 itself (false: it does, leave it) */
  bool running;                /* in mode 1 with the internal clock */
  uint32_t prescaler;
  avr_cycle_count_t started;   /* the cycle the count left 0 (the first BOTTOM) */
  bool latch_pending;          /* an OCR write waits for TOP */
  uint8_t compare[2];          /* OCRnA, OCRnB as the compare unit uses them */
  bool warned;
  phase_pwm_changed_t changed;
  void *param;
} phase_pwm_t;

/* Follows Timer `name` ('0' or '2'); `changed` is called when its outputs may change. */
void phase_pwm_init(phase_pwm_t *timer, avr_t *avr, char name, phase_pwm_changed_t changed, void *param);

/* The AVR was reset (its registers are 0, simavr cleared every cycle timer). */
void phase_pwm_reset(phase_pwm_t *timer);

/* The duty compare output `output` (0: OCnA, 1: OCnB) drives its pin with while the compare
 * unit has the pin (0 always low … 255 always high), or -1 when its COM bits leave the pin
 * to the port (non-PWM modes count as that). */
int phase_pwm_duty(const phase_pwm_t *timer, unsigned output);

#endif
