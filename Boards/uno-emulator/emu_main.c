/*
 * emu_main.c — hapticctl-emu-uno: an emulated Arduino Uno board, built per board (make BOARD=…):
 *
 *   uno-drv2605l: hapticctl-emu-uno [--firmware PATH.elf] [--bootloader HEX [--blank] [--auto-reset]]
 *                   [--link PATH] [--trace FILE.csv [--anchors]] [--events FILE.csv] [--no-chip] [--lra-f0 HZ]
 *   uno-hbridge:  hapticctl-emu-uno [--firmware PATH.elf] [--bootloader HEX [--blank] [--auto-reset]]
 *                   [--link PATH] [--trace FILE.csv [--anchors]] [--events FILE.csv]
 *
 * Runs the firmware ELF on simavr's ATmega328P at 16 MHz in real time, with UART0 on a
 * pseudo-terminal (its path is the first line on stdout; --link adds a symlink to it) and the
 * board's driver beside it, chosen at compile time (-DEMU_BOARD_…, emu_options.h):
 *  - uno-drv2605l: a DRV2605L model on the TWI bus (drv2605_model.h); --trace logs its register
 *    writes (`time_us,register,value`), --no-chip leaves the bus empty, --lra-f0 sets the
 *    resonance of the modelled LRA, which the chip's auto-calibration measures (175.1 Hz by
 *    default);
 *  - uno-hbridge: a DRV8833 dual h-bridge on Timer0's and Timer2's PWM pins (hbridge_model.h);
 *    --trace logs the duty each bridge input gets (`time_us,channel,in1,in2`); --no-chip and
 *    --lra-f0 are refused (exit status 2).
 * --events writes what the firmware did beside its drive — resets, watchdog stops, underruns
 * and late batches per channel, bad frames, a lost link — as `sim serve --trace` does
 * (emu_events.h).
 * --bootloader loads an Intel hex (Optiboot) at its address and starts there, as the Uno's
 * fuses (BOOTRST) do; --blank leaves the application flash erased (the firmware ELF, if given,
 * is then read for its symbols only), so the board runs nothing until flashed through the
 * bootloader. --auto-reset models the Uno's DTR auto-reset: every host open of the pty, however
 * soon after a close (pty_bridge.c), resets the AVR externally (EXTRF), which is what makes
 * Optiboot listen (~1 s) before the application. SIGUSR1 power-cycles the board (PORF:
 * Optiboot starts the application at once; SRAM comes up as noise: emu_board.c).
 * Runs until SIGINT or SIGTERM, then exits 0 with the trace flushed and the link
 * removed. A usage error is exit status 1, a missing or unreadable firmware file too; a
 * firmware that crashes or stops is 2.
 *
 * Real time: a cycle timer every 100 us of simulated time compares simulated with wall-clock
 * time and sleeps while the simulation is ahead (waking early when the host writes). When the
 * process was not scheduled for a while (a busy machine), the simulation catches up by running
 * without sleeping — simavr runs the 328P many times faster than real time — so the board clock
 * stays on the wall clock, as a real board's does; the host only sees replies delayed by the
 * stall, and bytes it wrote reach the UART no earlier than the simulated time of the moment they
 * were read (pty_bridge.h), so a lag never makes the board answer early. Every lag past a frame
 * is an event (`behind`, `caught_up`) and the exit summary gives the largest. Only when it falls more than 500 ms behind does it give up, re-anchor and count a slip
 * (reported on exit). Re-anchoring at 20 ms, as before, set the board clock back by every
 * stall: a 27 ms stall on a busy 2-core machine left the host's clock sync 27 ms off and the
 * board played 26 frames of a pattern at 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "emu_board.h"
#include "emu_clock.h"
#include "emu_events.h"
#include "emu_image.h"
#include "emu_options.h"
#include "pty_bridge.h"
#include "sim_avr.h"
#include "sim_cycle_timers.h"
#include "sim_elf.h"
#include "sim_io.h"
#include "avr_watchdog.h"
#include "sim_time.h"
#include "board_offsets.h"
#ifdef EMU_BOARD_HBRIDGE
#include "hbridge_model.h"
#else
#include "drv2605_model.h"
#endif

#define AHEAD_SLEEP_USEC 200   /* sleep when the simulation leads by more than this */

static volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t power_cycle_requested;

static void on_signal(int signal_number) {
  if (signal_number == SIGUSR1) {
    power_cycle_requested = 1;
  } else {
    stop_requested = 1;
  }
}


/* simavr would usleep() in sleep mode itself; pacing is done here instead. */
static void no_sleep(avr_t *avr, avr_cycle_count_t how_long) {
  (void)avr;
  (void)how_long;
}

static avr_cycle_count_t service(avr_t *avr, avr_cycle_count_t when, void *param) {
  emulator_t *e = param;
  pty_bridge_service(&e->pty, emu_clock_wall_cycle(&e->clock));
  emu_events_poll(&e->events);
  for (; e->overruns_seen < e->pty.overruns; e->overruns_seen++) emu_events_note(&e->events, "uart_overrun", "");
  uint64_t ahead = emu_clock_check(&e->clock, avr->cycle);
  if (ahead > AHEAD_SLEEP_USEC * 1000ull) {
    /* Ahead: wait, but wake as soon as the host writes, or opens the port. */
    struct timespec timeout = {(time_t)(ahead / 1000000000ull), (long)(ahead % 1000000000ull)};
    struct pollfd fds[2];
    int count = pty_bridge_poll_fds(&e->pty, fds);
    (void)ppoll(count > 0 ? fds : NULL, (nfds_t)count, &timeout, NULL);
    pty_bridge_service(&e->pty, emu_clock_wall_cycle(&e->clock));
  }
  return when + avr_usec_to_cycles(avr, SERVICE_USEC);
}

/* simavr 1.6 keeps a running watchdog's old period when a new prescaler is written (its
 * timer is re-armed only when the enable bits change or at the next WDR). Optiboot aborts on
 * a byte that is not STK500 by setting a 16 ms watchdog and spinning without WDR: in simavr
 * it waited the whole 1 s instead (measured: a stray byte at 600 ms after the reset started
 * the application at 1625 ms, not ~620 ms). So every write of WDTCSR is followed by what WDR
 * does — the timer restarts with the period just written; on hardware a prescaler change
 * takes effect at once, so this differs by at most the part of one period already run. */
#define WDTCSR_ADDRESS 0x60

static void wdtcsr_written(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  /* Only for the write that sets the new configuration (not the WDCE unlock before it) and
   * only while that leaves it enabled (WDE 0x08 or WDIE 0x40): a WDR otherwise arms simavr's
   * timer for a watchdog that is off, and its expiry then stops the simulation. */
  if ((value & 0x48) && !(value & 0x10)) avr_ioctl((avr_t *)param, AVR_IOCTL_WATCHDOG_RESET, 0);
}

/* Opens an output file (`what` names it in the message); NULL with a message on failure. */
static FILE *open_output(const char *path, const char *what) {
  FILE *file = fopen(path, "w");
  if (!file) fprintf(stderr, "hapticctl-emu-uno: cannot write %s %s: %s\n", what, path, strerror(errno));
  return file;
}

int main(int argc, char **argv) {
  emu_options_t options;
  int usage_status = emu_options_parse(&options, argc, argv);
  if (usage_status != 0) return usage_status;
  const char *firmware_path = options.firmware, *bootloader_path = options.bootloader;
  bool blank = options.blank;
  /* stdout carries one line, the pty path: everything simavr prints goes to stderr. */
  fflush(stdout);
  int path_out = dup(STDOUT_FILENO);
  dup2(STDERR_FILENO, STDOUT_FILENO);

  elf_firmware_t firmware;
  memset(&firmware, 0, sizeof firmware);
  if (firmware_path && !emu_image_read_elf(firmware_path, &firmware)) return 1;
  snprintf(firmware.mmcu, sizeof firmware.mmcu, "%s", MCU);
  firmware.frequency = FREQUENCY;

  FILE *trace = NULL, *events = NULL;
  if ((options.trace && !(trace = open_output(options.trace, "trace"))) ||
      (options.events && !(events = open_output(options.events, "events")))) {
    return 1;
  }

  static emulator_t e;
  e.avr = avr_make_mcu_by_name(MCU);
  if (!e.avr) {
    fprintf(stderr, "hapticctl-emu-uno: simavr does not know %s\n", MCU);
    return 1;
  }
  avr_init(e.avr);
  e.avr->frequency = FREQUENCY;
  e.avr->sleep = no_sleep;
  /* HAPTICCTL_EMU_LOG=N: simavr's own messages at level N (1 errors … 4 trace), for diagnosis. */
  if (getenv("HAPTICCTL_EMU_LOG")) e.avr->log = (uint8_t)atoi(getenv("HAPTICCTL_EMU_LOG"));
  if (firmware_path && !blank) avr_load_firmware(e.avr, &firmware);
  e.avr->frequency = FREQUENCY;
  if (bootloader_path) {
    long start = emu_image_load_hex(e.avr, bootloader_path);
    if (start < 0) return 1;
    /* BOOTRST programmed (the Uno's high fuse 0xDE): every reset starts the bootloader; it
     * runs above the application, so all of flash is code. */
    e.avr->reset_pc = (avr_flashaddr_t)start;
    e.avr->pc = (avr_flashaddr_t)start;
    e.avr->codeend = e.avr->flashend;
    e.avr->data[MCUSR_ADDRESS] = MCUSR_PORF;
  }

  avr_irq_register_notify(avr_iomem_getirq(e.avr, WDTCSR_ADDRESS, NULL, AVR_IOMEM_IRQ_ALL), wdtcsr_written, e.avr);
  emu_extint_attach(&e.extint, e.avr);

  if (!pty_bridge_open(&e.pty, options.link)) return 1;
  if (options.auto_reset) pty_bridge_track_host(&e.pty);
  pty_bridge_attach(&e.pty, e.avr);
#ifdef EMU_BOARD_HBRIDGE
  hbridge_model_init(&e.hbridge, e.avr, trace);
#else
  drv2605_model_init(&e.drv, e.avr, options.no_chip, options.lra_f0, trace);
  drv2605_model_attach(&e.drv);
#endif
  if (!emu_events_init(&e.events, e.avr, &firmware, events)) return 1;
  emu_board_power_up_ram(&e); /* the board starts powered up */

  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_signal;
  sigaction(SIGINT, &action, NULL);
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGUSR1, &action, NULL);
  /* A parent may have started us with these blocked (threads that block signals pass their
   * mask on to children): unblock them, or SIGTERM would never end the emulator. */
  sigset_t wanted;
  sigemptyset(&wanted);
  sigaddset(&wanted, SIGINT);
  sigaddset(&wanted, SIGTERM);
  sigaddset(&wanted, SIGUSR1);
  sigprocmask(SIG_UNBLOCK, &wanted, NULL);
  signal(SIGPIPE, SIG_IGN);

  /* The pty path alone on the first line of the real stdout. */
  dprintf(path_out, "%s\n", e.pty.path);
  close(path_out);

  emu_clock_init(&e.clock, FREQUENCY, &e.events, options.anchors ? trace : NULL, e.avr->cycle);
  avr_cycle_timer_register_usec(e.avr, SERVICE_USEC, service, &e);

  int state = cpu_Running;
  for (unsigned long steps = 1; !stop_requested; steps++) {
    emu_board_take_reset_requests(&e, &power_cycle_requested);
    if (emu_board_held_in_reset(&e, service)) continue;
    state = avr_run(e.avr);
    if (state == cpu_Done || state == cpu_Crashed) break;
    /* Erased application flash (0xFFFF words), where Optiboot jumps when there is no
     * application: a real AVR slides through it into the bootloader, which jumps back, a
     * return address more on the stack each round (rcall appStart never returns), until the
     * stack runs over the registers and whatever then runs is undefined. The emulated board
     * parks instead: it runs nothing until the next reset (a host opening the port, a power
     * cycle), which is what "runs nothing until flashed" means to a user. */
    if (e.avr->reset_pc != 0 && e.avr->pc < e.avr->reset_pc && e.avr->flash[e.avr->pc] == 0xFF &&
        e.avr->flash[e.avr->pc + 1] == 0xFF) {
      e.held_until_ns = UINT64_MAX;
    }
    /* A reset of the AVR (its watchdog) clears every cycle timer: re-arm the pacing. */
    if ((steps & 0xFFFF) == 0 && avr_cycle_timer_status(e.avr, service, &e) == 0) {
      emu_clock_anchor(&e.clock, e.avr->cycle);
      avr_cycle_timer_register_usec(e.avr, SERVICE_USEC, service, &e);
    }
  }

  int status = 0;
  if (state == cpu_Crashed || (state == cpu_Done && !stop_requested)) {
    fprintf(stderr, "hapticctl-emu-uno: the firmware %s at pc 0x%04x\n",
            state == cpu_Crashed ? "crashed" : "stopped (sleep with interrupts off?)", e.avr->pc);
    status = 2;
  }
  emu_board_report(&e);
  emu_events_finish(&e.events);
  if (trace) fclose(trace);
  if (events) fclose(events);
  pty_bridge_close(&e.pty);
  return status;
}
