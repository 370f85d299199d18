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

/* UART0: 115200 baud 8N1 with U2X, receive interrupt on. */
void hal_avr_uart_init(void);

/* Whether a received byte waits in the ring (interrupts off: nothing changes meanwhile). */
bool hal_avr_uart_rx_pending(void);

#endif
