/*
 * emu_events.h — what the emulated board's firmware did beside its drive, as the events file
 * of `sim serve --trace` has it (docs/architecture.md §12): `time_s,event,channel,detail` rows
 * for reset, watchdog_stop, underrun, late_batch, bad_frames and link_lost, and a last row,
 * `stopped`, when the emulator ends (the end of the board's time line); and the emulator's own
 * rows (emu_events_note): behind / caught_up, uart_overrun.
 *
 * The firmware has no channel to say so (a real board has none either): the emulator reads its
 * `board` state from the AVR's RAM every service tick, at the offsets avr-gcc gave the fields
 * (build/<board>/board_offsets.h, generated from board_offsets.c), and writes a row when a
 * counter moves or a flag rises. underrun and late_batch rows name their channel (each of the
 * board's BOARD_CHANNEL_COUNT channels is watched); the other events are the board's.
 */
#ifndef EMU_EVENTS_H
#define EMU_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "board_offsets.h"
#include "sim_avr.h"
#include "sim_elf.h"

typedef struct {
  avr_t *avr;
  FILE *out;         /* NULL: no events file */
  uint32_t board;    /* RAM address of the firmware's `board` */
  bool seen;         /* the state below was read once (after the firmware's board_init) */
  uint16_t boot_count;
  bool watchdog_fired;
  uint16_t underruns[BOARD_CHANNEL_COUNT];     /* per channel */
  uint16_t late_segments[BOARD_CHANNEL_COUNT];
  uint16_t bad_frames;
  bool link_lost;
  unsigned long rows;
  /* The UART receive ring (hal_avr_uart.c's rx_head, rx_tail; 0 when not found): its fullest
   * sampled fill, reported on exit — how close the firmware came to dropping a byte. */
  uint32_t rx_head, rx_tail;
  unsigned rx_high_water;
  /* The main loop's longest stall as the UART sees it: the longest the ring held bytes while
   * the firmware took none (its tail did not move), in cycles, sampled every service tick —
   * against the ring's fill time at the line rate, the margin before a byte is dropped. */
  uint8_t last_tail;
  uint64_t tail_moved;      /* cycle the tail last moved, or the ring was last empty */
  uint64_t longest_wait;    /* cycles */
  /* After a power-up RAM holds noise until the firmware's C runtime clears .bss: the ring's
   * indices and the board state are not read until they have read 0 once (emu_events_poll). */
  bool ring_noise, board_noise;
} emu_events_t;

/* Finds `board` (and the UART ring) in the firmware's symbols; false (with a message on stderr) when it is missing
 * or not the size this emulator was built for. `out` gets the CSV header now. */
bool emu_events_init(emu_events_t *events, avr_t *avr, const elf_firmware_t *firmware, FILE *out);

/* The AVR powered up: its RAM is noise until the firmware clears it (no rows from noise). */
void emu_events_power_up(emu_events_t *events);

/* Compares the firmware's state with the last look; writes a row for each change. */
void emu_events_poll(emu_events_t *events);

/* A row of the emulator's own at the current simulated time: `behind` / `caught_up` (it could
 * not keep real time), `uart_overrun` (a byte lost as the real UART would lose it). */
void emu_events_note(emu_events_t *events, const char *event, const char *detail);

/* The last look, and the `stopped` row at the current simulated time. */
void emu_events_finish(emu_events_t *events);

#endif
