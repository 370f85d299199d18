/*
 * emu_options.h — hapticctl-emu-uno's command line (emu_main.c describes each option).
 *
 * One emulator is built per board (the Makefile's BOARD): -DEMU_BOARD_DRV2605L (the Uno +
 * DRV2605L) or -DEMU_BOARD_HBRIDGE (the Uno + DRV8833). --no-chip and --lra-f0 belong to the
 * DRV2605L model; the h-bridge build refuses them.
 */
#ifndef EMU_OPTIONS_H
#define EMU_OPTIONS_H

#include <stdbool.h>

#if defined(EMU_BOARD_DRV2605L) == defined(EMU_BOARD_HBRIDGE)
#error "define one of EMU_BOARD_DRV2605L and EMU_BOARD_HBRIDGE (the Makefile's BOARD does)"
#endif

#ifdef EMU_BOARD_HBRIDGE
#define EMU_BOARD_ID "uno-hbridge"
#else
#define EMU_BOARD_ID "uno-drv2605l"
#endif

typedef struct {
  const char *firmware;   /* --firmware PATH.elf */
  const char *bootloader; /* --bootloader HEX */
  bool blank;             /* --blank */
  bool auto_reset;        /* --auto-reset */
  const char *link;       /* --link PATH */
  const char *trace;      /* --trace FILE.csv */
  bool anchors;           /* --anchors: anchor rows in the trace (emu_clock.h) */
  const char *events;     /* --events FILE.csv */
  bool no_chip;           /* --no-chip (DRV2605L) */
  double lra_f0;          /* --lra-f0 HZ (DRV2605L; 175.1 by default) */
} emu_options_t;

/* Reads the command line into `options`: 0 when it is usable, else the exit status (the
 * usage or the problem is on stderr): 1 for a usage error, 2 for an option this board's
 * emulator does not have. */
int emu_options_parse(emu_options_t *options, int argc, char **argv);

#endif
