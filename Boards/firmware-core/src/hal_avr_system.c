/*
 * hal_avr_system.c — the ATmega328P HAL's start and its system parts: the reset cause (worked
 * out before the C runtime starts, from MCUSR and a record kept in RAM across resets), the
 * hardware watchdog (500 ms, kicked by the main loop; its interrupt records "watchdog" in that
 * record before the reset) and hal_init(), which starts the clock (hal_avr_clock.c) and the
 * UART (hal_avr_uart.c). The other peripherals are in hal_avr_eeprom.c and hal_avr_i2c.c.
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <avr/wdt.h>

#include "hal.h"
#include "hal_avr.h"

/* ---- Reset cause ----
 *
 * MCUSR says why the chip reset, but the Uno's stock bootloader (Optiboot 4.4, as in Debian's
 * arduino-core-avr) reads and clears it before the application starts, and passes nothing on:
 * r2 then holds whatever the previous program left in it. Worse, after an external reset (the
 * DTR auto-reset of every port open) Optiboot waits for an upload and leaves through a watchdog
 * reset, so every way into the application looks the same: MCUSR 0. What still tells them
 * apart is RAM: the reset logic does not touch SRAM, so a record the application left there
 * survives an external or watchdog reset, while a power cycle loses it (SRAM powers up as
 * noise). The record holds a magic number and what the application itself did last:
 *
 *   MCUSR not 0 (no bootloader cleared it: a board flashed over ISP, or Optiboot 8, which
 *     leaves the flags) -> the flags: power-on, watchdog, brown-out, external, in that order;
 *   else the record invalid -> power-on (1): RAM lost its content, the supply went away;
 *   else the record says the watchdog fired (its interrupt wrote that) -> watchdog (4);
 *   else -> external (2): the reset pin, which the bootloader's own watchdog exit follows.
 *
 * r2 is not read: Optiboot 6 and 7 pass the flags there, but 4.4 leaves the previous program's
 * r2, which can look like any flags (read as flags, it gave a sticky "power-on" for every
 * auto-reset after a power cycle: issue 31), and the application cannot read the bootloader's
 * version word to tell them apart (the Uno's lock bits keep the boot section from LPM). With
 * those versions the record still gives power-on, external and watchdog.
 *
 * Limits: a brown-out that leaves RAM intact reads external (2), one that does not, power-on
 * (1) — the flags that would say brown-out are gone; a hang with interrupts off gets no
 * interrupt, and its reset (at the second time-out) reads external; power-up noise matches the
 * record with odds of 2 in 2^32; the first start of a newly flashed image whose variables moved
 * reads power-on. The record is in .noinit, after .data and .bss: Optiboot writes RAM only in
 * its page buffer (0x100-0x17F, while it programs flash) and its stack (the top ~10 bytes), and
 * the UART rings alone (hal.h, 256 bytes of .bss) keep .noinit above the first, the
 * application's own stack keeps it below the second. */

#define RESET_RECORD_MAGIC 0xC35Au
#define RESET_EVENT_NONE 0x00     /* running, nothing recorded */
#define RESET_EVENT_WATCHDOG 0x57 /* the watchdog interrupt ran: a reset follows */

/* `check` is ~`event`: with the magic, 32 bits that RAM noise matches by chance for 2 of
 * their 2^32 values (the two events). */
static struct {
  uint16_t magic;
  uint8_t event;
  uint8_t check;
} reset_record __attribute__((section(".noinit")));

/* Worked out before the C runtime clears .bss, so kept beside the record. */
static uint8_t reset_cause __attribute__((section(".noinit")));

static void reset_record_write(uint8_t event) {
  reset_record.magic = RESET_RECORD_MAGIC;
  reset_record.event = event;
  reset_record.check = (uint8_t)~event;
}

/* Called from .init3 (below) with the flags MCUSR held; noinline: .init3's code is naked (no
 * prologue), so anything needing registers saved or a frame lives in a real function. */
static void __attribute__((noinline)) reset_cause_find(uint8_t flags) {
  bool recorded =
      reset_record.magic == RESET_RECORD_MAGIC && (uint8_t)(reset_record.check ^ reset_record.event) == 0xFF;
  if (flags & _BV(PORF)) {
    reset_cause = 1; /* power-on (BORF is usually set with it) */
  } else if ((flags & _BV(WDRF)) || (recorded && reset_record.event == RESET_EVENT_WATCHDOG)) {
    reset_cause = 4; /* watchdog */
  } else if (flags & _BV(BORF)) {
    reset_cause = 3; /* brown-out */
  } else if (flags & _BV(EXTRF)) {
    reset_cause = 2; /* external: the reset pin, the DTR auto-reset */
  } else {
    /* The bootloader cleared the flags: the record decides. */
    reset_cause = recorded ? 2 : 1;
  }
  reset_record_write(RESET_EVENT_NONE);
}

/* Before the C runtime (.init3: r1 is 0 and the stack set; .data and .bss not yet set up). */
void early_reset_cause(void) __attribute__((naked, used, section(".init3")));
void early_reset_cause(void) {
  uint8_t flags = MCUSR;
  MCUSR = 0;     /* WDRF set keeps the watchdog on: cleared first */
  wdt_disable(); /* after a watchdog reset it would still be running with a 16 ms timeout */
  reset_cause_find(flags);
}

uint8_t hal_reset_cause(void) { return reset_cause; }

/* ---- Watchdog ----
 *
 * Interrupt and system reset mode: the first time-out runs WDT_vect (the hardware then clears
 * WDIE, leaving the reset armed), which records "watchdog" and resets at once. Without the
 * interrupt a watchdog reset would look like an external one behind Optiboot (above). */

#define WATCHDOG_PERIOD (_BV(WDP2) | _BV(WDP0)) /* 500 ms (WDTO_500MS's prescaler bits) */

ISR(WDT_vect, ISR_NAKED) {
  /* Never returns, so nothing is saved; r1 is cleared because the interrupted code may have
   * been in a multiplication, and the compiled code below takes r1 as 0. */
  __asm__ volatile("clr __zero_reg__");
  reset_record_write(RESET_EVENT_WATCHDOG);
  wdt_enable(WDTO_15MS); /* reset mode only, shortest period: ~16 ms, not another 500 */
  for (;;) {
  }
}

void hal_watchdog_kick(void) { wdt_reset(); }

/* Starts the watchdog in interrupt and system reset mode. WDTCSR takes a new mode only within
 * four cycles of the WDCE unlock, so both stores are in one asm block (as avr-libc's
 * wdt_enable, which has no interrupt mode). Interrupts must be off (hal_init runs before sei). */
static void watchdog_start(void) {
  __asm__ volatile("wdr\n\t"
                   "sts %[reg], %[unlock]\n\t"
                   "sts %[reg], %[mode]\n\t"
                   :
                   : [reg] "n"(_SFR_MEM_ADDR(WDTCSR)), [unlock] "r"((uint8_t)(_BV(WDCE) | _BV(WDE))),
                     [mode] "r"((uint8_t)(_BV(WDIE) | _BV(WDE) | WATCHDOG_PERIOD))
                   : "memory");
}

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
  watchdog_start();
}
