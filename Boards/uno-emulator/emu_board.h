/*
 * emu_board.h — the emulated Uno's state (the AVR, its pty, the driver model, events, the
 * clock) and what resets and reports it (emu_board.c): power-up SRAM, the reset pin and power
 * cycles, the reset time-out, and the summary printed when the emulator exits. emu_main.c runs
 * the board; this keeps the reset model and the report out of its loop.
 */
#ifndef EMU_BOARD_H
#define EMU_BOARD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "emu_clock.h"
#include "emu_events.h"
#include "emu_extint.h"
#include "pty_bridge.h"
#include "sim_avr.h"
#include "sim_cycle_timers.h"
#ifdef EMU_BOARD_HBRIDGE
#include "hbridge_model.h"
#else
#include "drv2605_model.h"
#endif

#define MCU "atmega328p"
#define FREQUENCY 16000000u
#define SERVICE_USEC 100 /* pacing and pty service interval (simulated) */

/* How long the AVR stays in reset after the pin is released: the Uno's fuses (full-swing
 * crystal, SUT = 11) add 14 CK + 65 ms of reset time-out (ATmega328P datasheet table 9-4). */
#define RESET_TIMEOUT_NS 65000000ull

/* MCUSR's data address and reset-flag bits (ATmega328P datasheet §10.9.1). */
#define MCUSR_ADDRESS 0x54
#define MCUSR_PORF 0x01
#define MCUSR_EXTRF 0x02

typedef struct {
  avr_t *avr;
  pty_bridge_t pty;
#ifdef EMU_BOARD_HBRIDGE
  hbridge_model_t hbridge;
#else
  drv2605_model_t drv;
#endif
  emu_events_t events;
  emu_extint_t extint;     /* INT0/INT1 as the chip has them (emu_extint.h) */
  emu_clock_t clock;       /* simulated time against the wall clock (emu_clock.h) */
  unsigned long resets;    /* external resets (auto-reset) and power cycles */
  unsigned long overruns_seen; /* pty.overruns already written as events */
  uint64_t held_until_ns;  /* the AVR is in reset until this wall-clock time (0: running) */
} emulator_t;

/* SRAM and the register file as a power-up leaves them (noise). */
void emu_board_power_up_ram(emulator_t *e);

/* Resets the AVR as its reset pin (`cause` MCUSR_EXTRF) or a power cycle (MCUSR_PORF) would. */
void emu_board_reset(emulator_t *e, uint8_t cause);

/* Resets asked for since the last look: a host opened the pty, or `*power_cycle` (SIGUSR1). */
void emu_board_take_reset_requests(emulator_t *e, volatile sig_atomic_t *power_cycle);

/* While held in reset: serves the pty; true while the hold lasts. When it ends, the pacing
 * timer `service` is armed again (a reset cleared every cycle timer). */
bool emu_board_held_in_reset(emulator_t *e, avr_cycle_timer_t service);

/* The summary on stderr when the emulator ends: simulated time, drive, bytes, resets, the
 * clock's lag, the stack's high-water mark and the UART ring's margin. */
void emu_board_report(emulator_t *e);

#endif
