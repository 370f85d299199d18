/*
 * emu_board.c — the emulated Uno's resets and exit report (emu_board.h).
 */
#define _GNU_SOURCE
#include "emu_board.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "board_offsets.h"

/* The firmware paints its free RAM 0xC5 at start: the longest untouched run is the part of
 * the stack never used. */
static void report_ram(const avr_t *avr) {
  unsigned best = 0, run = 0, best_end = 0;
  for (unsigned a = 0x100; a <= avr->ramend; a++) {
    run = avr->data[a] == 0xC5 ? run + 1 : 0;
    if (run > best) {
      best = run;
      best_end = a;
    }
  }
  if (best > 32) {
    fprintf(stderr, "hapticctl-emu-uno: stack high-water mark %u bytes below RAMEND (%u bytes never touched)\n",
            avr->ramend - best_end, best);
  }
}

/* SRAM and the register file as a power-up leaves them: noise. The firmware tells a power
 * cycle from a reset by a record it keeps in RAM (hal_avr_system.c), which a reset leaves
 * alone and a power cycle loses; simavr's avr_reset clears the I/O registers only, and
 * avr_init zeroes RAM, so without this every power cycle kept the record, and a firmware
 * reading RAM it never wrote would pass here and fail on the chip. A fixed-seed xorshift: runs
 * are repeatable, and each power cycle gets other bytes. */
void emu_board_power_up_ram(emulator_t *e) {
  static uint32_t state = 0x2545F491u;
  for (unsigned a = 0; a <= e->avr->ramend; a++) {
    if (a == 0x20) a = 0x100; /* the I/O registers (0x20-0xFF) have reset values */
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    e->avr->data[a] = (uint8_t)state;
  }
  emu_events_power_up(&e->events);
}

/* Resets the AVR as its reset pin (`cause` MCUSR_EXTRF) or a power cycle (MCUSR_PORF) would:
 * the I/O registers start over, flash and EEPROM stay, execution starts at the reset vector
 * (the bootloader's when one is loaded); SRAM and the register file keep their contents
 * through a reset (the reset logic does not touch them) and come up as noise after a power
 * cycle. Called between instructions, outside cycle timers. */
void emu_board_reset(emulator_t *e, uint8_t cause) {
  avr_reset(e->avr);
  if (cause == MCUSR_PORF) emu_board_power_up_ram(e);
  e->avr->data[MCUSR_ADDRESS] = cause;
  e->resets++;
  /* Held in reset for the time-out: the CPU does not run and the UART hears nothing. Pacing
   * starts again when it ends (the reset cleared every cycle timer). */
  e->held_until_ns = emu_clock_wall_ns() + RESET_TIMEOUT_NS;
}

/* Resets asked for since the last look: a host opened the pty (DTR went active: the Uno's
 * auto-reset capacitor) or SIGUSR1 (a power cycle). Whether running, held or parked. */
void emu_board_take_reset_requests(emulator_t *e, volatile sig_atomic_t *power_cycle) {
  if (e->pty.opened) {
    e->pty.opened = false;
    emu_board_reset(e, MCUSR_EXTRF);
  }
  if (*power_cycle) {
    *power_cycle = 0;
    emu_board_reset(e, MCUSR_PORF);
  }
}

/* While held in reset: serve the pty (a host may open or close it, what it sends is lost);
 * true while the hold lasts. */
bool emu_board_held_in_reset(emulator_t *e, avr_cycle_timer_t service) {
  if (e->held_until_ns == 0) return false;
  pty_bridge_service(&e->pty, 0);
  pty_bridge_discard_input(&e->pty);
  if (emu_clock_wall_ns() < e->held_until_ns) {
    usleep(e->held_until_ns == UINT64_MAX ? 1000 : 200); /* parked in erased flash, or in reset */
    return true;
  }
  e->held_until_ns = 0;
  emu_clock_anchor(&e->clock, e->avr->cycle);
  avr_cycle_timer_register_usec(e->avr, SERVICE_USEC, service, e);
  return false;
}

void emu_board_report(emulator_t *e) {
  char drive[96];
#ifdef EMU_BOARD_HBRIDGE
  hbridge_model_finish(&e->hbridge);
  hbridge_model_describe(&e->hbridge, drive, sizeof drive);
#else
  snprintf(drive, sizeof drive, "%lu register writes", e->drv.writes);
#endif
  fprintf(stderr,
          "hapticctl-emu-uno: %.3f s simulated, %s, %lu bytes in, %lu out, "
          "%lu dropped, %lu UART overruns, %lu resets\n",
          (double)e->avr->cycle / FREQUENCY, drive, e->pty.bytes_in, e->pty.bytes_out, e->pty.bytes_dropped,
          e->pty.overruns, e->resets);
  emu_clock_report(&e->clock, stderr);
  report_ram(e->avr);
  if (e->events.rx_head) {
    fprintf(stderr, "hapticctl-emu-uno: UART receive ring high-water %u of %u bytes\n", e->events.rx_high_water,
            UART_RX_SIZE - 1u);
    /* The ring fills in (size - 1) byte times at the rate the UART is set to now: the
     * firmware's (BOARD_LINK_BAUD), unless the bootloader has it. */
    double fill_cycles = (UART_RX_SIZE - 1u) * (double)pty_bridge_byte_cycles(&e->pty);
    fprintf(stderr,
            "hapticctl-emu-uno: main loop: bytes waited in the UART ring at most %llu cycles (%.2f ms, sampled every "
            "%u us); the ring fills in %.0f cycles (%.2f ms at %lu baud): margin %.1fx\n",
            (unsigned long long)e->events.longest_wait, e->events.longest_wait * 1000.0 / FREQUENCY, SERVICE_USEC,
            fill_cycles, fill_cycles * 1000.0 / FREQUENCY, (unsigned long)pty_bridge_baud(&e->pty),
            e->events.longest_wait ? fill_cycles / (double)e->events.longest_wait : 0.0);
  }
}
