/*
 * emu_events.c — events of the emulated board read from the firmware's RAM (emu_events.h).
 */
#include "emu_events.h"

#include <string.h>

#include "board_offsets.h"

/* ResetCause names as the simulator's events file writes them (HapticWire.ResetCause). */
static const char *const cause_names[] = {"unknown", "powerOn", "external", "brownOut", "watchdog", "software"};


/* The ELF gives data addresses in the AVR's data space offset by 0x800000. */
#define DATA_SEGMENT 0x800000u

static uint16_t read16(const emu_events_t *e, unsigned offset) {
  return (uint16_t)(e->avr->data[e->board + offset] | (e->avr->data[e->board + offset + 1] << 8));
}

static uint8_t read8(const emu_events_t *e, unsigned offset) { return e->avr->data[e->board + offset]; }

bool emu_events_init(emu_events_t *e, avr_t *avr, const elf_firmware_t *firmware, FILE *out) {
  memset(e, 0, sizeof *e);
  e->avr = avr;
  e->out = out;
  for (uint32_t i = 0; i < firmware->symbolcount; i++) {
    const avr_symbol_t *symbol = firmware->symbol[i];
    if (symbol->addr < DATA_SEGMENT || symbol->addr - DATA_SEGMENT > avr->ramend) continue;
    if (strcmp(symbol->symbol, "rx_head") == 0) e->rx_head = symbol->addr - DATA_SEGMENT;
    if (strcmp(symbol->symbol, "rx_tail") == 0) e->rx_tail = symbol->addr - DATA_SEGMENT;
  }
  if (!out) return true;
  uint32_t board = 0, next = UINT32_MAX;
  for (uint32_t i = 0; i < firmware->symbolcount; i++) {
    const avr_symbol_t *symbol = firmware->symbol[i];
    if (strcmp(symbol->symbol, "board") == 0) board = symbol->addr;
  }
  if (board < DATA_SEGMENT) {
    fprintf(stderr, "hapticctl-emu-uno: --events: the firmware has no `board` symbol (stripped ELF?)\n");
    return false;
  }
  /* The next data symbol after `board` bounds its size: a firmware whose board_t grew beyond
   * what board_offsets.h was generated for must not be read at stale offsets. */
  for (uint32_t i = 0; i < firmware->symbolcount; i++) {
    uint32_t a = firmware->symbol[i]->addr;
    if (a > board && a < next && a >= DATA_SEGMENT) next = a;
  }
  if (next != UINT32_MAX && next - board < BOARD_SIZE) {
    fprintf(stderr, "hapticctl-emu-uno: --events: `board` is %u bytes, this emulator was built for %u: rebuild it\n",
            next - board, (unsigned)BOARD_SIZE);
    return false;
  }
  e->board = board - DATA_SEGMENT;
  if (e->board + BOARD_SIZE > avr->ramend + 1u) {
    fprintf(stderr, "hapticctl-emu-uno: --events: `board` lies outside RAM\n");
    return false;
  }
  fprintf(out, "time_s,event,channel,detail\n");
  fflush(out);
  return true;
}

static void row(emu_events_t *e, const char *event, const char *channel, const char *detail) {
  double t = (double)e->avr->cycle / (double)e->avr->frequency;
  fprintf(e->out, "%.7f,%s,%s,%s\n", t, event, channel, detail);
  e->rows++;
}

/* Whether a 16-bit counter seems to have gone back since `before`: read half-written. */
static bool went_back(uint16_t now, uint16_t before) { return (uint16_t)(now - before) >= 0x8000; }

void emu_events_power_up(emu_events_t *e) { e->ring_noise = e->board_noise = true; }

/* Whether noise can still be read where the firmware's .bss variables lie, after a power-up.
 * The C runtime clears .bss before main: until then the bytes are noise. Once the bytes read
 * here are 0 they are cleared, or noise that happened to be 0 — which stays as it is until
 * the C runtime writes 0 there — so from then on every read is the firmware's. */
static bool still_noise(bool *noise, bool zero) {
  if (*noise && zero) *noise = false;
  return *noise;
}

void emu_events_poll(emu_events_t *e) {
  if (e->rx_head && e->rx_tail &&
      !still_noise(&e->ring_noise, e->avr->data[e->rx_head] == 0 && e->avr->data[e->rx_tail] == 0)) {
    uint8_t tail = e->avr->data[e->rx_tail];
    unsigned fill = (unsigned)(uint8_t)(e->avr->data[e->rx_head] - tail) % UART_RX_SIZE;
    if (fill > e->rx_high_water) e->rx_high_water = fill;
    if (fill == 0 || tail != e->last_tail || e->avr->cycle < e->tail_moved) {
      e->tail_moved = e->avr->cycle; /* taken (or nothing waits; or the AVR was reset) */
    } else if (e->avr->cycle - e->tail_moved > e->longest_wait) {
      e->longest_wait = e->avr->cycle - e->tail_moved;
    }
    e->last_tail = tail;
  }
  if (!e->out) return;
  uint16_t boot_count = read16(e, BOARD_OFFSET_BOOT_COUNT);
  /* Before board_init the state is noise (after a power-up) or zeroed: nothing to compare yet. */
  if (still_noise(&e->board_noise, boot_count == 0) || boot_count == 0) return;
  bool watchdog_fired = read8(e, BOARD_OFFSET_WATCHDOG_FIRED) != 0;
  uint16_t underruns[BOARD_CHANNEL_COUNT], late[BOARD_CHANNEL_COUNT];
  for (unsigned c = 0; c < BOARD_CHANNEL_COUNT; c++) {
    underruns[c] = read16(e, BOARD_OFFSET_UNDERRUNS + c * BOARD_CHANNEL_STRIDE);
    late[c] = read16(e, BOARD_OFFSET_LATE_SEGMENTS + c * BOARD_CHANNEL_STRIDE);
  }
  uint16_t bad = read16(e, BOARD_OFFSET_BAD_FRAMES);
  bool lost = read8(e, BOARD_OFFSET_LINK_LOST) != 0;
  /* The poll runs between two instructions, maybe between the two byte stores of a counter:
   * a counter that seems to go back was read half-written; look again next tick. */
  if (e->seen && boot_count == e->boot_count) {
    bool torn = went_back(bad, e->bad_frames);
    for (unsigned c = 0; c < BOARD_CHANNEL_COUNT; c++) {
      torn = torn || went_back(underruns[c], e->underruns[c]) || went_back(late[c], e->late_segments[c]);
    }
    if (torn) return;
  }
  char detail[48], channel[8];
  size_t before = e->rows;
  if (!e->seen) {
    e->seen = true;
  } else if (boot_count != e->boot_count) {
    /* A restart: the counters start over with it. */
    uint8_t cause = read8(e, BOARD_OFFSET_RESET_CAUSE);
    snprintf(detail, sizeof detail, "cause=%s", cause < 6 ? cause_names[cause] : "unknown");
    row(e, "reset", "", detail);
  } else {
    if (watchdog_fired && !e->watchdog_fired) row(e, "watchdog_stop", "", "");
    for (unsigned c = 0; c < BOARD_CHANNEL_COUNT; c++) {
      snprintf(channel, sizeof channel, "%u", c);
      for (uint16_t n = e->underruns[c]; n != underruns[c]; n++) row(e, "underrun", channel, "");
      for (uint16_t n = e->late_segments[c]; n != late[c]; n++) row(e, "late_batch", channel, "");
    }
    if (bad != e->bad_frames) {
      snprintf(detail, sizeof detail, "count=%u", (unsigned)(uint16_t)(bad - e->bad_frames));
      row(e, "bad_frames", "", detail);
    }
    if (lost && !e->link_lost) row(e, "link_lost", "", "");
  }
  e->boot_count = boot_count;
  e->watchdog_fired = watchdog_fired;
  memcpy(e->underruns, underruns, sizeof underruns);
  memcpy(e->late_segments, late, sizeof late);
  e->bad_frames = bad;
  e->link_lost = lost;
  if (e->rows != before) fflush(e->out);
}

void emu_events_note(emu_events_t *e, const char *event, const char *detail) {
  if (!e->out) return;
  row(e, event, "", detail);
  fflush(e->out);
}

void emu_events_finish(emu_events_t *e) {
  if (!e->out) return;
  emu_events_poll(e);
  row(e, "stopped", "", "");
  fflush(e->out);
}
