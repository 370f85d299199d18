/*
 * board_offsets.c — compiled for the AVR to assembly only (never linked): each OFFSET line
 * becomes "->NAME VALUE" in the output, which the Makefile turns into build/board_offsets.h,
 * so the emulator reads the firmware's `board` state at the offsets avr-gcc laid it out with
 * (the kernel's asm-offsets technique; the host compiler would pad the struct differently).
 */
#include <stddef.h>

#include "board.h"

#define OFFSET(name, member) __asm__ volatile("\n->" #name " %0" ::"n"(offsetof(board_t, member)))

void board_offsets(void);
void board_offsets(void) {
  OFFSET(BOARD_OFFSET_BOOT_COUNT, boot_count);
  OFFSET(BOARD_OFFSET_RESET_CAUSE, reset_cause);
  OFFSET(BOARD_OFFSET_WATCHDOG_FIRED, watchdog_fired);
  OFFSET(BOARD_OFFSET_LEVEL, channels[0].level);
  OFFSET(BOARD_OFFSET_UNDERRUNS, channels[0].underruns);
  OFFSET(BOARD_OFFSET_LATE_SEGMENTS, channels[0].late_segments);
  OFFSET(BOARD_OFFSET_BAD_FRAMES, receiver.bad_frames);
  OFFSET(BOARD_OFFSET_LINK_LOST, link.lost);
  __asm__ volatile("\n->BOARD_SIZE %0" ::"n"(sizeof(board_t)));
}
