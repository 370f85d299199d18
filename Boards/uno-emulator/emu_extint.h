/*
 * emu_extint.h — INT0/INT1 as the ATmega328P has them: a low level on their pin matters only
 * while EIMSK enables them (emu_extint.c explains the simavr 1.6 behaviour this corrects).
 */
#ifndef EMU_EXTINT_H
#define EMU_EXTINT_H

#include "sim_avr.h"
#include "sim_io.h"

typedef struct {
  avr_io_t io; /* first: simavr calls its reset with the AVR's */
} emu_extint_t;

/* Follows EIMSK from now on and through every reset of `avr`. */
void emu_extint_attach(emu_extint_t *x, avr_t *avr);

#endif
