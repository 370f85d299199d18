/*
 * emu_clock.c — keeping the emulated board on the wall clock (see emu_clock.h).
 */
#define _GNU_SOURCE
#include "emu_clock.h"

#include <inttypes.h>
#include <time.h>

#define BEHIND_SLIP_USEC 500000 /* re-anchor when it lags by more than this (else catch up) */
#define BEHIND_REPORT_USEC 1000 /* a lag past this is reported (a `behind` event): a frame */

uint64_t emu_clock_wall_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void emu_clock_init(emu_clock_t *clock, uint32_t frequency, emu_events_t *events, FILE *anchors, avr_cycle_count_t cycle) {
  *clock = (emu_clock_t){.frequency = frequency, .events = events, .anchors = anchors};
  emu_clock_anchor(clock, cycle);
}

/* Nanoseconds of `cycles` at `frequency`, without overflowing for days of cycles. */
static uint64_t cycles_ns(avr_cycle_count_t cycles, uint32_t frequency) {
  return (uint64_t)(cycles / frequency) * 1000000000ull + (uint64_t)(cycles % frequency) * 1000000000ull / frequency;
}

void emu_clock_anchor(emu_clock_t *clock, avr_cycle_count_t cycle) {
  clock->anchor_wall_ns = emu_clock_wall_ns();
  clock->anchor_cycle = cycle;
  if (clock->anchors) {
    uint64_t ns = cycles_ns(cycle, clock->frequency);
    fprintf(clock->anchors, "%" PRIu64 ".%03u,anchor,%" PRIu64 "\n", ns / 1000, (unsigned)(ns % 1000), clock->anchor_wall_ns - ns);
    fflush(clock->anchors);
  }
}

avr_cycle_count_t emu_clock_wall_cycle(const emu_clock_t *clock) {
  return clock->anchor_cycle + (emu_clock_wall_ns() - clock->anchor_wall_ns) * (clock->frequency / 1000000u) / 1000u;
}

/* Every lag past a frame is told: while the simulation lags, the board's clock is behind the
 * host's, and while it catches up it runs fast. */
static void follow_lag(emu_clock_t *clock, uint64_t lag) {
  if (lag > clock->max_lag_ns) clock->max_lag_ns = lag;
  char detail[48];
  if (!clock->behind && lag > BEHIND_REPORT_USEC * 1000ull) {
    clock->behind = true;
    clock->episode_lag_ns = lag;
    clock->behind_episodes++;
    snprintf(detail, sizeof detail, "lag_ms=%.1f", lag / 1e6);
    emu_events_note(clock->events, "behind", detail);
  } else if (clock->behind) {
    if (lag > clock->episode_lag_ns) clock->episode_lag_ns = lag;
    if (lag < BEHIND_REPORT_USEC * 500ull) {
      clock->behind = false;
      snprintf(detail, sizeof detail, "max_lag_ms=%.1f", clock->episode_lag_ns / 1e6);
      emu_events_note(clock->events, "caught_up", detail);
    }
  }
}

uint64_t emu_clock_check(emu_clock_t *clock, avr_cycle_count_t cycle) {
  uint64_t simulated = (cycle - clock->anchor_cycle) * 1000000000ull / clock->frequency;
  uint64_t elapsed = emu_clock_wall_ns() - clock->anchor_wall_ns;
  follow_lag(clock, elapsed > simulated ? elapsed - simulated : 0);
  if (simulated > elapsed) return simulated - elapsed;
  if (elapsed > simulated + BEHIND_SLIP_USEC * 1000ull) {
    clock->slips++;
    clock->slipped_usec += (elapsed - simulated) / 1000;
    if (clock->slips <= 10) {
      fprintf(stderr, "hapticctl-emu-uno: fell behind real time by %.1f ms at %.3f s simulated (host busy)\n",
              (elapsed - simulated) / 1e6, (double)cycle / clock->frequency);
    }
    emu_clock_anchor(clock, cycle);
  }
  return 0;
}

void emu_clock_report(const emu_clock_t *clock, FILE *out) {
  fprintf(out,
          "hapticctl-emu-uno: real time: at most %.1f ms behind the wall clock, %lu times more than %.1f ms, "
          "%lu slips (%llu us)\n",
          clock->max_lag_ns / 1e6, clock->behind_episodes, BEHIND_REPORT_USEC / 1000.0, clock->slips,
          (unsigned long long)clock->slipped_usec);
}
