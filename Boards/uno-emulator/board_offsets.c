/*
 * board_offsets.c — compiled for the AVR to assembly only (never linked): each OFFSET line
 * becomes "->NAME VALUE" in the output, which the Makefile turns into
 * build/<board>/board_offsets.h, so the emulator reads the firmware's `board` state at the
 * offsets avr-gcc laid it out with (the kernel's asm-offsets technique; the host compiler would
 * pad the struct differently). The layout is per board: channel_t holds a queue of
 * BOARD_QUEUE_DEPTH segments and board_t BOARD_CHANNEL_COUNT channels (the board's
 * src/board_config.h, which board.h includes).
 *
 * The channel fields are channel 0's; channel c's are BOARD_CHANNEL_STRIDE * c further on.
 */
#include <stddef.h>

#include "board.h"
#include "hal.h"

#define OFFSET(name, member) __asm__ volatile("\n->" #name " %0" ::"n"(offsetof(board_t, member)))
#define VALUE(name, value) __asm__ volatile("\n->" #name " %0" ::"n"(value))

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
  VALUE(BOARD_CHANNEL_STRIDE, sizeof(((board_t *)0)->channels[0]));
  VALUE(BOARD_CHANNEL_COUNT, sizeof(((board_t *)0)->channels) / sizeof(((board_t *)0)->channels[0]));
  VALUE(BOARD_SIZE, sizeof(board_t));
  VALUE(UART_RX_SIZE, HAL_UART_RX_SIZE);
}
