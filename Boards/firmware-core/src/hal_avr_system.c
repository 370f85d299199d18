/*
 * hal_avr_system.c — the ATmega328P HAL's start and its system parts: the reset cause (MCUSR,
 * saved before the C runtime starts), the hardware watchdog (500 ms, kicked by the main loop)
 * and hal_init(), which starts the clock (hal_avr_clock.c) and the UART (hal_avr_uart.c). The
 * other peripherals are in hal_avr_eeprom.c and hal_avr_i2c.c.
 */
#include <avr/io.h>
#include <avr/sleep.h>
#include <avr/wdt.h>

#include "hal.h"
#include "hal_avr.h"

/* ---- Reset cause: saved before the C runtime starts ---- */

/* MCUSR, and r2, where Optiboot 6 and later pass the flags after clearing MCUSR. Stock
 * Optiboot 4.4 on the Uno clears MCUSR and passes nothing: r2 is then used only when it looks
 * like reset flags (non-zero, bits 7:4 clear), else the cause reads "unknown" (0). A leftover
 * r2 value that happens to look like flags would be misreported: a known limit. */
static uint8_t saved_mcusr __attribute__((section(".noinit")));
static uint8_t saved_r2 __attribute__((section(".noinit")));

void early_save_r2(void) __attribute__((naked, used, section(".init0")));
void early_save_r2(void) { __asm__ volatile("sts saved_r2, r2" ::: "memory"); }

void early_reset_flags(void) __attribute__((naked, used, section(".init3")));
void early_reset_flags(void) {
  saved_mcusr = MCUSR;
  MCUSR = 0;
  wdt_disable(); /* after a watchdog reset it would still be running with a 16 ms timeout */
}

uint8_t hal_reset_cause(void) {
  uint8_t flags = saved_mcusr;
  if (flags == 0 && saved_r2 != 0 && (saved_r2 & 0xF0) == 0) flags = saved_r2;
  if (flags & _BV(PORF)) return 1;  /* power-on (BORF is usually set with it) */
  if (flags & _BV(WDRF)) return 4;  /* watchdog */
  if (flags & _BV(BORF)) return 3;  /* brown-out */
  if (flags & _BV(EXTRF)) return 2; /* external (the reset pin, DTR auto-reset) */
  return 0;
}

/* ---- Watchdog ---- */

void hal_watchdog_kick(void) { wdt_reset(); }

/* ---- Start ---- */

/* Fills the free RAM between the end of the variables and the stack with 0xC5, so the stack's
 * high-water mark can be read later (the emulator reports it when it exits). */
extern uint8_t __heap_start;
static void paint_free_ram(void) {
  uint8_t *p = &__heap_start;
  uint8_t *limit = (uint8_t *)SP - 24;
  while (p < limit) *p++ = 0xC5;
}

void hal_init(void) {
  paint_free_ram();
  hal_avr_clock_init();
  hal_avr_uart_init();
  set_sleep_mode(SLEEP_MODE_IDLE);
  wdt_enable(WDTO_500MS);
}
