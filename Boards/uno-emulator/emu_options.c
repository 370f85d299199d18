/*
 * emu_options.c — hapticctl-emu-uno's command line (see emu_options.h).
 */
#include "emu_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(void) {
  fprintf(stderr,
          "usage: hapticctl-emu-uno [--firmware PATH.elf] [--bootloader HEX [--blank] [--auto-reset]] [--link PATH]\n"
#ifdef EMU_BOARD_HBRIDGE
          "                         [--trace FILE.csv [--anchors]] [--events FILE.csv]\n"
          "       (the " EMU_BOARD_ID " board: ATmega328P + DRV8833; --trace writes its drive)\n"
#else
          "                         [--trace FILE.csv [--anchors]] [--events FILE.csv] [--no-chip] [--lra-f0 HZ]\n"
          "       (the " EMU_BOARD_ID " board: ATmega328P + DRV2605L; --trace writes its register writes)\n"
#endif
  );
}

/* --no-chip and --lra-f0 on a board without the DRV2605L: 2, with what to do instead. */
static int drv_only(const char *option) {
#ifdef EMU_BOARD_HBRIDGE
  fprintf(stderr,
          "hapticctl-emu-uno: %s is an option of the DRV2605L model; this emulator is built for " EMU_BOARD_ID
          " (a DRV8833 h-bridge): run build/uno-drv2605l/hapticctl-emu-uno (make BOARD=uno-drv2605l)\n",
          option);
  return 2;
#else
  (void)option;
  return 0;
#endif
}

int emu_options_parse(emu_options_t *o, int argc, char **argv) {
  memset(o, 0, sizeof *o);
  o->lra_f0 = 175.1; /* the LRA on the DRV2605L's outputs (its board file says 175 Hz) */
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    bool has_value = i + 1 < argc;
    if (strcmp(arg, "--firmware") == 0 && has_value) {
      o->firmware = argv[++i];
    } else if (strcmp(arg, "--link") == 0 && has_value) {
      o->link = argv[++i];
    } else if (strcmp(arg, "--trace") == 0 && has_value) {
      o->trace = argv[++i];
    } else if (strcmp(arg, "--anchors") == 0) {
      o->anchors = true;
    } else if (strcmp(arg, "--events") == 0 && has_value) {
      o->events = argv[++i];
    } else if (strcmp(arg, "--bootloader") == 0 && has_value) {
      o->bootloader = argv[++i];
    } else if (strcmp(arg, "--blank") == 0) {
      o->blank = true;
    } else if (strcmp(arg, "--auto-reset") == 0) {
      o->auto_reset = true;
    } else if (strcmp(arg, "--lra-f0") == 0 && has_value) {
      int refused = drv_only(arg);
      if (refused) return refused;
      char *end = NULL;
      o->lra_f0 = strtod(argv[++i], &end);
      if (!end || *end || !(o->lra_f0 >= 40 && o->lra_f0 <= 1000)) {
        fprintf(stderr, "hapticctl-emu-uno: --lra-f0 %s: a frequency of 40-1000 Hz\n", argv[i]);
        return 1;
      }
    } else if (strcmp(arg, "--no-chip") == 0) {
      int refused = drv_only(arg);
      if (refused) return refused;
      o->no_chip = true;
    } else {
      usage();
      return 1;
    }
  }
  if ((!o->firmware && !o->blank) || ((o->blank || o->auto_reset) && !o->bootloader) || (o->anchors && !o->trace)) {
    usage();
    return 1;
  }
  return 0;
}
