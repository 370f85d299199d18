/*
 * hal_avr.h — what the ATmega328P HAL's files (hal_avr_*.c) share among themselves, beyond
 * hal.h: each peripheral's start, called by hal_init() (hal_avr_system.c), and the UART's
 * receive state for idle sleep (hal_avr_clock.c).
 */
#ifndef HAL_AVR_H
#define HAL_AVR_H

#include <stdbool.h>

/* Timer1 as the board clock: normal mode, clk/8 (2 MHz), overflow interrupt on. */
void hal_avr_clock_init(void);

/* UART0: BOARD_LINK_BAUD 8N1 with U2X, receive interrupt on. */
void hal_avr_uart_init(void);

/* Whether the main loop has UART work (interrupts off: nothing changes meanwhile): a frame's
 * delimiter received since it last looked (hal_uart_peek), or 16 bytes or more in the receive
 * ring (bytes of a frame coming in wait for more, not a pass each), or the transmit ring ran
 * empty since the last call (a frame that did not fit may go now). */
bool hal_avr_uart_wakes(void);

#endif
