/*
 * emu_clock.h — keeping the emulated board on the wall clock, and saying when it cannot.
 *
 * The AVR's time is its cycle count at 16 MHz; an anchor ties a cycle to a wall-clock instant.
 * Every service tick (emu_main.c) compares the two: while the simulation is ahead the emulator
 * sleeps; while it lags it runs without sleeping and catches up (simavr runs the 328P many times
 * faster than real time), so the board clock stays on the wall clock as a real board's does.
 * Only a lag past 500 ms re-anchors (a slip: the board clock then jumps back by it, reported).
 *
 * While the simulation lags, the board's clock is behind the one the host synchronised to, and
 * while it catches up its clock runs fast. Bytes from the host are therefore fed to the UART no
 * earlier than the simulated time that stands for when they were read (emu_clock_wall_cycle,
 * pty_bridge.h); and every lag past a frame is told: a `behind` event (lag_ms), then
 * `caught_up` (max_lag_ms), and a line on exit.
 */
#ifndef EMU_CLOCK_H
#define EMU_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "emu_events.h"
#include "sim_avr.h"

typedef struct {
  uint32_t frequency;              /* Hz */
  emu_events_t *events;            /* behind / caught_up rows */
  FILE *anchors;                   /* the drive trace, for anchor rows (--anchors), or NULL */
  uint64_t anchor_wall_ns;         /* wall clock at anchor_cycle */
  avr_cycle_count_t anchor_cycle;
  unsigned long slips;             /* times the simulation fell over 500 ms behind: re-anchored */
  uint64_t slipped_usec;
  uint64_t max_lag_ns;             /* the largest lag of simulated behind wall-clock time */
  bool behind;                     /* in a lag episode past a frame */
  uint64_t episode_lag_ns;         /* its worst */
  unsigned long behind_episodes;
} emu_clock_t;

/* The monotonic wall clock, ns. */
uint64_t emu_clock_wall_ns(void);

/* Starts following: `cycle` now stands for the wall-clock time now. */
void emu_clock_init(emu_clock_t *clock, uint32_t frequency, emu_events_t *events, FILE *anchors, avr_cycle_count_t cycle);

/* Ties `cycle` to the wall-clock time now (after a reset held the AVR, or its timers were lost). */
void emu_clock_anchor(emu_clock_t *clock, avr_cycle_count_t cycle);

/* The simulated cycle that stands for the wall-clock time now. */
avr_cycle_count_t emu_clock_wall_cycle(const emu_clock_t *clock);

/* Compares the simulation at `cycle` with the wall clock: follows the lag (events) and
 * re-anchors past 500 ms; returns how far the simulation is ahead, ns (0 when it is not). */
uint64_t emu_clock_check(emu_clock_t *clock, avr_cycle_count_t cycle);

/* The exit lines: slips, and the largest lag. */
void emu_clock_report(const emu_clock_t *clock, FILE *out);

#endif
