/*
 * main_avr.c — entry point on the ATmega328P: hardware up, then the board loop forever.
 * The loop sleeps (idle mode) between events; see hal_idle_until in hal_avr_clock.c.
 */
#include <avr/interrupt.h>

#include "board.h"
#include "hal.h"

int main(void) {
  hal_init();
  sei();
  board_init();
  for (;;) board_poll();
}
