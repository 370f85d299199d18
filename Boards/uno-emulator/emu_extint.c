/*
 * emu_extint.c — INT0/INT1's level trigger only while EIMSK enables them (see emu_extint.h).
 *
 * simavr 1.6 (avr_extint.c, avr_extint_irq_notify) starts a cycle timer that runs on every
 * cycle while an INT0/INT1 pin is low and its sense control is "low level" (ISC 00, the reset
 * value), whether or not EIMSK enables the interrupt; each falling edge starts one more. On
 * uno-hbridge, PD3 is INT1 and the bridge input BIN2 (OC2B): it is low whenever the LRA does
 * not drive it, so the emulator ran that timer 16 million times a simulated second — measured
 * with perf on an idle board: 81 % of a core, 28 % of it in the avr_ioctl of that poll — and
 * fell 40-170 ms behind the wall clock while it drove. On the chip a disabled INTn does nothing
 * (datasheet §13.2: EIMSK enables it); no firmware here enables one. simavr's own switch for
 * the poll (avr_extint_set_strict_lvl_trig) is set here to what EIMSK enables, at every write
 * of EIMSK and after every reset (avr_extint_reset turns it on again: this module's reset runs
 * before it, so it sets the switch one cycle later, before any instruction).
 */
#include "emu_extint.h"

#include <stddef.h>

#include "avr_extint.h"
#include "sim_cycle_timers.h"

#define EIMSK_ADDRESS 0x3D /* data address (I/O 0x1D) */

/* The level poll on for each of INT0 and INT1 exactly while EIMSK enables it. */
static void follow(avr_t *avr, uint8_t eimsk) {
  for (uint8_t n = 0; n < 2; n++) avr_extint_set_strict_lvl_trig(avr, n, (eimsk >> n) & 1);
}

static void eimsk_written(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  follow((avr_t *)param, (uint8_t)value);
}

static avr_cycle_count_t after_reset(avr_t *avr, avr_cycle_count_t when, void *param) {
  (void)when;
  (void)param;
  follow(avr, avr->data[EIMSK_ADDRESS]);
  return 0;
}

/* avr_reset cleared the cycle timers before the I/O resets run: this one survives it. */
static void reset(avr_io_t *io) { avr_cycle_timer_register(io->avr, 1, after_reset, NULL); }

void emu_extint_attach(emu_extint_t *x, avr_t *avr) {
  *x = (emu_extint_t){.io = {.kind = "emu_extint", .reset = reset}};
  avr_register_io(avr, &x->io);
  avr_irq_register_notify(avr_iomem_getirq(avr, EIMSK_ADDRESS, NULL, AVR_IOMEM_IRQ_ALL), eimsk_written, avr);
  follow(avr, avr->data[EIMSK_ADDRESS]);
}
