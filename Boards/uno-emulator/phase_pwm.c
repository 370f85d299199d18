/*
 * phase_pwm.c — Timer0/Timer2 phase-correct PWM beside simavr (see phase_pwm.h).
 */
#include "phase_pwm.h"

#include <stdio.h>
#include <string.h>

#include "avr_timer.h"
#include "sim_cycle_timers.h"
#include "sim_io.h"

/* Register bits (ATmega328P datasheet, TCCR0A/B and TCCR2A/B): TCCRnA COMnA 7:6, COMnB 5:4,
 * WGMn1:0 1:0; TCCRnB WGMn2 3, CSn 2:0. */
#define COM_SHIFT(output) ((output) == 0 ? 6 : 4)
#define WGM_PHASE_CORRECT 1
#define WGM_FAST_PWM 3
#define COM_NON_INVERTING 2
#define COM_INVERTING 3

/* Timer clocks per count up and down (TOP 0xFF): BOTTOM to TOP is half of it. */
#define PERIOD_CLOCKS 510u

/* Prescalers by CSn (0: stopped or the external T0 pin, which is not modelled). */
static const uint16_t timer0_prescalers[8] = {0, 1, 8, 64, 256, 1024, 0, 0};
static const uint16_t timer2_prescalers[8] = {0, 1, 8, 32, 64, 128, 256, 1024};

static uint8_t waveform_mode(const phase_pwm_t *t) {
  const uint8_t *data = t->avr->data;
  return (uint8_t)((data[t->tccra] & 3) | ((data[t->tccrb] >> 1) & 4));
}

/* The compare registers take what was written (the double buffer's contents). */
static bool take_compare(phase_pwm_t *t) {
  uint8_t a = t->avr->data[t->ocr[0]], b = t->avr->data[t->ocr[1]];
  bool moved = a != t->compare[0] || b != t->compare[1];
  t->compare[0] = a;
  t->compare[1] = b;
  return moved;
}

/* BOTTOM: TOVn. */
static avr_cycle_count_t at_bottom(avr_t *avr, avr_cycle_count_t when, void *param) {
  phase_pwm_t *t = param;
  if (t->raise_overflow) avr_raise_interrupt(avr, t->overflow);
  return when + (avr_cycle_count_t)PERIOD_CLOCKS * t->prescaler;
}

/* TOP after an OCR write: the compare unit takes the new values. */
static avr_cycle_count_t at_top(avr_t *avr, avr_cycle_count_t when, void *param) {
  (void)avr;
  phase_pwm_t *t = param;
  t->latch_pending = false;
  if (take_compare(t)) t->changed(t->param, when);
  return 0;
}

static void stop_counting(phase_pwm_t *t) {
  avr_cycle_timer_cancel(t->avr, at_bottom, t);
  avr_cycle_timer_cancel(t->avr, at_top, t);
  t->latch_pending = false;
  t->running = false;
  t->prescaler = 0;
}

/* TCCRnA or TCCRnB was accessed: the mode, the clock or the COM bits may have changed. */
static void control_accessed(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)value;
  phase_pwm_t *t = param;
  avr_t *avr = t->avr;
  uint8_t cs = avr->data[t->tccrb] & 7;
  uint32_t prescaler = (t->name == '0' ? timer0_prescalers : timer2_prescalers)[cs];
  bool counting = waveform_mode(t) == WGM_PHASE_CORRECT && prescaler != 0;
  if (counting && (!t->running || prescaler != t->prescaler)) {
    /* The clock starts (or changes): the count leaves BOTTOM now. */
    stop_counting(t);
    t->running = true;
    t->prescaler = prescaler;
    t->started = avr->cycle;
    avr_cycle_timer_register(avr, (avr_cycle_count_t)PERIOD_CLOCKS * prescaler, at_bottom, t);
    if (prescaler != 1 && t->raise_overflow && !t->warned) {
      t->warned = true;
      fprintf(stderr,
              "hapticctl-emu-uno: Timer%c in phase-correct PWM at prescaler %u: simavr 1.6 also raises "
              "overflows of its own in this mode (prescaler 1 only is exact)\n",
              t->name, (unsigned)prescaler);
    }
  } else if (!counting && t->running) {
    stop_counting(t);
  }
  if (!t->running) take_compare(t);
  t->changed(t->param, avr->cycle); /* the COM bits take effect at once */
}

/* OCRnA or OCRnB was accessed. */
static void compare_accessed(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)value;
  phase_pwm_t *t = param;
  avr_t *avr = t->avr;
  if (!t->running) {
    if (take_compare(t)) t->changed(t->param, avr->cycle);
    return;
  }
  if (t->latch_pending) return;
  if (avr->data[t->ocr[0]] == t->compare[0] && avr->data[t->ocr[1]] == t->compare[1]) return;
  /* TOPs come at started + 255 N + k 510 N: the first one after now. */
  avr_cycle_count_t half = (avr_cycle_count_t)(PERIOD_CLOCKS / 2) * t->prescaler;
  avr_cycle_count_t period = 2 * half, elapsed = avr->cycle - t->started;
  avr_cycle_count_t k = elapsed < half ? 0 : (elapsed - half) / period + 1;
  t->latch_pending = true;
  avr_cycle_timer_register(avr, t->started + half + k * period - avr->cycle, at_top, t);
}

/* Whether simavr's own Timer `name` runs waveform mode 1 (then it raises the overflows). */
static avr_timer_t *simavr_timer(avr_t *avr, char name) {
  for (avr_io_t *io = avr->io_port; io; io = io->next) {
    /* avr_timer_t starts with its avr_io_t (avr_timer.h), the one avr_timer_init registers. */
    if (io->kind && strcmp(io->kind, "timer") == 0 && ((avr_timer_t *)io)->name == name) return (avr_timer_t *)io;
  }
  return NULL;
}

static void watch(avr_t *avr, uint16_t address, avr_irq_notify_t notify, phase_pwm_t *t) {
  avr_irq_register_notify(avr_iomem_getirq(avr, address, NULL, AVR_IOMEM_IRQ_ALL), notify, t);
}

void phase_pwm_init(phase_pwm_t *t, avr_t *avr, char name, phase_pwm_changed_t changed, void *param) {
  memset(t, 0, sizeof *t);
  t->avr = avr;
  t->name = name;
  t->changed = changed;
  t->param = param;
  /* Data addresses (iom328p.h). */
  t->tccra = name == '0' ? 0x44 : 0xB0;
  t->tccrb = name == '0' ? 0x45 : 0xB1;
  t->ocr[0] = name == '0' ? 0x47 : 0xB3;
  t->ocr[1] = name == '0' ? 0x48 : 0xB4;
  avr_timer_t *timer = simavr_timer(avr, name);
  if (timer) {
    t->overflow = &timer->overflow;
    t->raise_overflow = timer->wgm_op[WGM_PHASE_CORRECT].kind == avr_timer_wgm_none;
  } else {
    fprintf(stderr, "hapticctl-emu-uno: simavr has no Timer%c: its overflow interrupt will not fire\n", name);
  }
  watch(avr, t->tccra, control_accessed, t);
  watch(avr, t->tccrb, control_accessed, t);
  watch(avr, t->ocr[0], compare_accessed, t);
  watch(avr, t->ocr[1], compare_accessed, t);
}

void phase_pwm_reset(phase_pwm_t *t) {
  stop_counting(t);
  t->compare[0] = t->compare[1] = 0;
}

int phase_pwm_duty(const phase_pwm_t *t, unsigned output) {
  uint8_t mode = waveform_mode(t);
  if (mode != WGM_PHASE_CORRECT && mode != WGM_FAST_PWM) return -1;
  uint8_t com = (uint8_t)((t->avr->data[t->tccra] >> COM_SHIFT(output)) & 3);
  if (com == COM_NON_INVERTING) return t->compare[output];
  if (com == COM_INVERTING) return 255 - t->compare[output];
  return -1;
}
