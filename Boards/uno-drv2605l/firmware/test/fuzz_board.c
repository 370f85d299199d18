/*
 * fuzz_board.c — libFuzzer harness for the portable firmware core (frame, link, queue, driver
 * and board code) with the DRV2605L back end, on the host's fake HAL and the fake chip
 * (fake_drv2605.c): `make fuzz`, then build/fuzz-board CORPUS_DIRS.
 *
 * Each input boots a fresh board and runs a sequence of operations on it (raw UART bytes,
 * well-formed frames with fuzzed headers, reliable messages from a host session, segment
 * batches and ROM effects relative to the board clock, time, reads and acks: the format is in
 * fuzz_board.h). The board loop runs on the virtual clock from deadline to deadline, as
 * host.c's run_for does (or, if the input asks, somewhat late, as a loop that overran), with
 * the UART transmit side either ample or as on the Uno (127 bytes free, draining at 500000
 * baud, the loop woken by every byte as by the UDRE interrupt).
 *
 * After every board_poll the harness checks invariants and abort()s when one breaks:
 *  - storage: queue and link ring bounds, sequence numbers contiguous, RTO within its clamp,
 *    queued segments non-empty, ending after now, in time order (times as offsets from now,
 *    §6.2), ramps no longer than their denominator;
 *  - playback (§6.5): the level driven is round(l0 + (l1 - l0) j / (frames - 1)), half away
 *    from zero, clamped to 0..255, recomputed here in 64 bits; a finished segment never heads
 *    the queue; in real-time playback the DRV2605L's MODE is RTP and RTP_INPUT holds that
 *    level, and (polls on time) no other non-zero level is written on the way to it;
 *  - §6.10: nothing is queued or driven while calibrating;
 *  - §6.11: the serial in EEPROM, once kept, never changes;
 *  - §6.7: no drive (queue, level, ROM effect) once the host was silent for the watchdog time;
 *    no valid frame is counted later than the last byte the host sent;
 *  - §6.6: once a stop with bit 0 is delivered nothing is queued or driven (RTP_INPUT 0, no ROM
 *    effect pending or playing), and still nothing one frame period later;
 *  - the loop: the deadline after a poll is in the future (at most 2^30 ticks away) unless the
 *    UART is still sending; the board never writes more than hal_uart_tx_free allowed;
 *  - the output: every run the board writes decodes (COBS, CRC, length) into a frame of
 *    version 1, its own session and known flags; reliable frames are board-to-host messages of
 *    their exact sizes (§6), the first is the reset notice with SYN (§6.9); error codes,
 *    status, capabilities (f0: the board file's, or the measured one when calibrated), clock,
 *    calibration result and reset notice fields are in range; an identity carries the serial
 *    the EEPROM holds.
 *
 * Runs are bounded (at most 128 operations, 8 s of board time and 20000 polls per input) and
 * independent: every input starts from fake_reset() and a zeroed board, as after a reset.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "board_config.h"
#include "cobs.h"
#include "drv2605.h"
#include "fake_drv2605.h"
#include "fake_hal.h"
#include "frame.h"
#include "fuzz_board.h"
#include "host.h"
#include "link.h"
#include "queue.h"

/* The checks are not instrumented for coverage: comparisons of the board's state and output
 * steer nothing (the input does not reach them), and their tracing was most of the run time. */
#if defined(__clang__)
#define CHECKER __attribute__((noinline, no_sanitize("coverage")))
#else
#define CHECKER
#endif

#define MAX_OPS 128
#define MAX_BOARD_TICKS (8ULL * BOARD_CLOCK_HZ)
#define MAX_POLLS 20000u
#define UNO_TX_FREE (HAL_UART_TX_SIZE - 1u) /* what the Uno's transmit ring holds at most */
#define UNO_BYTE_TICKS 40u   /* 10 bits at 500000 baud (UBRR0 3, U2X): 20 us */
#define AMPLE_TX_FREE 512u
#define TX_READ_AT 8192u     /* the host reads when this much output piled up */
#define RX_ROOM 4096u        /* pending input is processed before more is fed */
#define MEASURED_F0_X10 1751u /* the fake chip's calibration: LRA_PERIOD 0x3A (175.1 Hz) */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* FUZZ_BOARD_TRACE=1 in the environment: one line per input on stderr (what it reached). */
static bool trace;

static struct {
  const uint8_t *data;
  size_t size, pos;

  host_t host;
  uint64_t boot;           /* board clock at boot */
  uint8_t reset_cause;
  uint64_t ticks_used;     /* board time spent by this input */
  unsigned polls;
  bool exhausted;          /* the poll budget ran out: the input ends */
  bool i2c_trouble;        /* the chip stopped answering at some point */

  bool live_host;          /* the host reads after every poll */
  uint32_t late_max;       /* polls up to this many ticks after their deadline */
  uint32_t random;         /* xorshift32 state for the lateness */

  /* UART transmit model. */
  bool uno_uart;
  uint16_t backlog;        /* bytes in the Uno's TX buffer not yet on the wire */
  uint64_t next_drain;     /* when the next of them has left */
  uint16_t space_before;
  size_t length_before;
  size_t writes_before;

  /* What the host sent. */
  size_t rx_seen;
  uint64_t last_rx;        /* board time of the last byte fed */

  /* What the board sent. */
  cobs_decoder_t out_decoder;
  uint8_t out_raw[FRAME_MAX_RAW];
  unsigned out_frames;
  bool board_ack_known;
  uint8_t board_ack;       /* the ack field of its last frame with ACK_VALID */

  /* The host's last reliable messages by seq, for its go-back-N (RESYNC). */
  struct {
    uint8_t type, length;
    bool syn;
    uint8_t payload[FRAME_MAX_PAYLOAD];
  } sent[16];

  uint32_t serial;         /* the board's serial (hal_board_serial) at the last check */
  unsigned identities;     /* identity answers */

  /* For the trace. */
  int ops;
  uint8_t max_level;
  unsigned stops_checked, errors, calibration_results, watchdog_fires;
} st;

/* ---- Failing ---- */

static void fail(const char *what, const char *condition, int line) {
  fprintf(stderr, "fuzz_board.c:%d: invariant broken: %s (%s) at board time %llu, %u polls\n", line, what,
          condition, (unsigned long long)fake.now, st.polls);
  fprintf(stderr, "  queue %u (head %u), level %u, drv state %d rtp %d, RTP_INPUT %u MODE 0x%02X, link count %u sent %u "
                  "resend %u, watchdog %u ms, last valid %u\n",
          board.channels[0].queue.count, board.channels[0].queue.head, board.channels[0].level, (int)drv2605.state, drv2605.rtp, fake_drv.regs[DRV_REG_RTP_INPUT],
          fake_drv.regs[DRV_REG_MODE], board.link.count, board.link.sent, board.link.resend, board.watchdog_ms,
          (unsigned)board.last_valid);
  abort();
}

#define REQUIRE(condition, what)                          \
  do {                                                    \
    if (!(condition)) fail(what, #condition, __LINE__);   \
  } while (0)

/* ---- Input ---- */

static bool more(void) { return st.pos < st.size; }

static uint8_t next_byte(void) { return st.pos < st.size ? st.data[st.pos++] : 0; }

/* Up to `want` bytes of the input (fewer at its end). */
static const uint8_t *take(size_t want, size_t *got) {
  size_t left = st.size - st.pos;
  *got = want < left ? want : left;
  const uint8_t *bytes = st.data + st.pos;
  st.pos += *got;
  return bytes;
}

/* ---- Reference values ---- */

CHECKER static int32_t clamp_level(int64_t level) { return level < 0 ? 0 : level > 255 ? 255 : (int32_t)level; }

/* round(n / d), half away from zero, d > 0: by quotient and remainder, not as queue.c does. */
CHECKER static int64_t divide_rounded(int64_t n, int64_t d) {
  int64_t q = n / d, r = n % d;
  if (2 * (r < 0 ? -r : r) >= d) q += n < 0 ? -1 : 1;
  return q;
}

CHECKER static const segment_t *segment(uint8_t offset) {
  return &board.channels[0].queue.segments[(board.channels[0].queue.head + offset) % BOARD_QUEUE_DEPTH];
}

/* The level §6.5 says is driven now, from the queued segments. */
CHECKER static int32_t reference_level(uint32_t now) {
  if (board.channels[0].queue.count == 0) return 0;
  const segment_t *s = segment(0);
  REQUIRE(time_diff(now, s->end) < 0, "a finished segment heads the queue");
  if (time_diff(now, s->start) < 0) return 0;
  uint32_t j = (now - s->start) / BOARD_TICKS_PER_FRAME;
  if (s->start_level == s->end_level || s->span == 0) return clamp_level(s->start_level);
  REQUIRE(j <= s->span, "a ramp plays past its last frame");
  int64_t n = (int64_t)s->start_level * s->span + ((int64_t)s->end_level - s->start_level) * (int64_t)j;
  return clamp_level(divide_rounded(n, s->span));
}

CHECKER static bool driving(void) {
  return board.channels[0].queue.count > 0 || board.channels[0].level != 0 || drv2605.rom_pending || drv2605.state == DRV_STATE_ROM_PLAYING;
}

CHECKER static bool chip_checkable(void) { return drv2605.present && !st.i2c_trouble; }

/* ---- Invariants of the board's state ---- */

CHECKER static void check_queue(uint32_t now) {
  const segment_queue_t *q = &board.channels[0].queue;
  REQUIRE(q->count <= BOARD_QUEUE_DEPTH, "queue count beyond its depth");
  REQUIRE(q->head < BOARD_QUEUE_DEPTH, "queue head outside the ring");
  for (uint8_t i = 0; i < q->count; i++) {
    const segment_t *s = segment(i);
    uint32_t length = s->end - s->start;
    REQUIRE(time_diff(s->end, s->start) > 0 && length <= QUEUE_MAX_BATCH_TICKS, "a queued segment is empty or too long");
    if (s->start_level != s->end_level) {
      REQUIRE(length <= ((uint32_t)s->span + 1u) * BOARD_TICKS_PER_FRAME, "a ramp is longer than its denominator");
    }
    REQUIRE(time_diff(s->end, now) > 0, "a queued segment ends more than 2^31 ticks from now");
    if (i > 0) {
      /* In time order as the host means the times: each within 2^31 ticks of now (§6.2). */
      const segment_t *p = segment((uint8_t)(i - 1));
      REQUIRE(time_diff(s->start, now) >= time_diff(p->end, now), "queued segments overlap or are out of order");
    }
  }
}

CHECKER static void check_link(void) {
  const link_t *l = &board.link;
  REQUIRE(l->count <= LINK_WINDOW && l->head < LINK_WINDOW, "link ring out of bounds");
  REQUIRE(l->sent <= l->count && l->resend <= l->count, "link in-flight counts beyond the ring");
  REQUIRE(l->polls <= LINK_MAX_POLLS, "more polls in a row than allowed");
  REQUIRE(l->rto >= LINK_RTO_MIN && l->rto <= LINK_RTO_MAX, "RTO outside [25 ms, 2 s]");
  if (l->count > 0) {
    uint8_t first = l->slots[l->head].seq;
    for (uint8_t i = 1; i < l->count; i++) {
      REQUIRE(l->slots[(l->head + i) % LINK_WINDOW].seq == (uint8_t)(first + i), "window sequence numbers not contiguous");
    }
    REQUIRE(l->next_seq == (uint8_t)(first + l->count), "next sequence number does not follow the window");
  }
}

CHECKER static void check_board(void) {
  uint32_t now = (uint32_t)fake.now;
  check_queue(now);
  check_link();

  /* §6.5: the level driven. */
  REQUIRE(board.channels[0].level == reference_level(now), "the level driven is not the segment's frame level");

  /* The driver. */
  if (drv2605.state == DRV_STATE_CALIBRATING) {
    REQUIRE(board.channels[0].queue.count == 0 && board.channels[0].level == 0, "drive queued or playing while calibrating (§6.10)");
  }
  if (chip_checkable()) {
    switch (drv2605.state) {
      case DRV_STATE_RTP:
        REQUIRE(fake_drv.regs[DRV_REG_MODE] == DRV_MODE_RTP, "real-time playback but MODE is not RTP");
        REQUIRE(drv2605.rtp == board.channels[0].level && fake_drv.regs[DRV_REG_RTP_INPUT] == board.channels[0].level,
                "RTP_INPUT does not hold the level driven");
        break;
      case DRV_STATE_ROM_PLAYING:
        REQUIRE(fake_drv.regs[DRV_REG_MODE] == DRV_MODE_INTERNAL_TRIGGER, "ROM effect but MODE is not internal trigger");
        break;
      case DRV_STATE_CALIBRATING:
        REQUIRE(fake_drv.regs[DRV_REG_MODE] == DRV_MODE_AUTO_CALIBRATION, "calibrating but MODE is not auto-calibration");
        break;
    }
  }

  /* §6.11: kept for life. */
  uint32_t serial = hal_board_serial();
  REQUIRE(st.serial == 0 || serial == st.serial, "the board's serial changed once kept (§6.11)");
  st.serial = serial;

  /* §6.7. */
  REQUIRE(board.watchdog_ms >= 10 && board.watchdog_ms <= 5000, "watchdog time outside 10..5000 ms");
  REQUIRE(time_diff((uint32_t)st.last_rx, board.last_valid) >= 0, "a valid frame counted after the host's last byte");
  if (driving()) {
    REQUIRE((uint32_t)(now - board.last_valid) < (uint32_t)board.watchdog_ms * BOARD_TICKS_PER_MS,
            "drive continues after the watchdog time without a valid frame (§6.7)");
  }
}

/* No transient level on the way to the one driven: within one poll that handled no frame,
 * every non-zero RTP_INPUT write is the final level (zeros are the stops and mode changes). */
CHECKER static void check_writes(void) {
  /* A late poll writes the level due at the boundary it missed, then the one due now. */
  if (st.late_max > 0) return;
  if (!chip_checkable() || board.last_valid == (uint32_t)fake.now || fake_drv.write_count >= FAKE_MAX_WRITES) return;
  for (size_t i = st.writes_before; i < fake_drv.write_count; i++) {
    if (fake_drv.writes[i].reg != DRV_REG_RTP_INPUT || fake_drv.writes[i].value == 0) continue;
    REQUIRE(fake_drv.writes[i].value == board.channels[0].level, "a level other than the frame's was written to RTP_INPUT");
  }
}

CHECKER static void check_stopped(const char *when) {
  bool stopped = board.channels[0].queue.count == 0 && board.channels[0].level == 0 && !drv2605.rom_pending &&
                 drv2605.state != DRV_STATE_ROM_PLAYING;
  if (stopped && chip_checkable() && drv2605.state == DRV_STATE_RTP) stopped = fake_drv.regs[DRV_REG_RTP_INPUT] == 0;
  if (!stopped) fprintf(stderr, "fuzz_board: %s\n", when);
  REQUIRE(stopped, "drive queued or playing after stop (§6.6)");
}

/* ---- The board's output ---- */

CHECKER static bool known_request(uint8_t type) {
  switch (type) {
    case MSG_IDENTIFY:
    case MSG_CLOCK_QUERY:
    case MSG_QUEUE_SEGMENTS:
    case MSG_REPLACE_SEGMENTS:
    case MSG_STOP:
    case MSG_STATUS_REQUEST:
    case MSG_HEARTBEAT:
    case MSG_CALIBRATE:
    case MSG_PLAY_ROM_EFFECT:
    case MSG_SET_WATCHDOG:
    case MSG_IDENTITY_REQUEST:
      return true;
    default:
      return false;
  }
}

CHECKER static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

CHECKER static void check_error_payload(const frame_t *f) {
  const uint8_t *p = f->payload;
  uint8_t code = p[0], type = p[1];
  uint16_t detail = le16(p + 2);
  switch (code) {
    case ERR_UNKNOWN_MESSAGE:
      REQUIRE(!known_request(type) && type != MSG_ACK && type != MSG_ERROR && detail == 0, "unknownMessage for a known type");
      break;
    case ERR_BAD_PAYLOAD:
      REQUIRE(known_request(type) && detail == 0, "badPayload for a type without payload rules");
      break;
    case ERR_BAD_CHANNEL:
      REQUIRE(detail >= BOARD_CHANNEL_COUNT && detail <= 255, "badChannel for a channel the board has");
      break;
    case ERR_QUEUE_FULL:
      REQUIRE((type == MSG_QUEUE_SEGMENTS || type == MSG_REPLACE_SEGMENTS) && detail <= BOARD_QUEUE_DEPTH,
              "queueFull with more free slots than the queue has");
      break;
    case ERR_CALIBRATION_FAILED:
      REQUIRE(type == MSG_CALIBRATE, "calibrationFailed for another message");
      break;
    case ERR_BUSY:
      REQUIRE(type == MSG_QUEUE_SEGMENTS || type == MSG_REPLACE_SEGMENTS || type == MSG_CALIBRATE ||
                  type == MSG_PLAY_ROM_EFFECT,
              "busy for a message that does not wait for calibration");
      break;
    case ERR_TIME_IN_PAST:
      REQUIRE(type == MSG_PLAY_ROM_EFFECT, "timeInPast for another message");
      break;
    default:
      REQUIRE(false, "an error code the board does not send reliably (§7)");
  }
}

CHECKER static void check_board_frame(const frame_t *f) {
  bool reliable = f->flags & FLAG_RELIABLE;
  REQUIRE(f->version == PROTOCOL_VERSION, "the board sent another protocol version");
  REQUIRE(f->session == board.link.session, "the board sent a frame outside its session");
  REQUIRE((f->flags & ~0x3Fu) == 0, "the board sent unknown flag bits");
  /* HOLD (v1.1, §4.5): only on an ack message that acknowledges (the held frame is `ack`), never
   * with NAK: a holding board does not NAK. */
  REQUIRE(!(f->flags & FLAG_HOLD) || (!reliable && f->type == MSG_ACK && (f->flags & FLAG_ACK_VALID) &&
                                       !(f->flags & FLAG_NAK)),
          "HOLD on a frame that is not an ack, without ACK_VALID, or with NAK");
  REQUIRE(!(f->flags & FLAG_ACK_VALID) || board.link.following, "ACK_VALID before following a host session");
  REQUIRE(!(f->flags & FLAG_SYN) || (reliable && (f->seq == 0 || f->seq == 128)),
          "SYN on an unreliable frame, or not at seq 0 or 128 (§4.1)");
  if (f->flags & FLAG_ACK_VALID) {
    st.board_ack_known = true;
    st.board_ack = f->ack;
  }
  if (st.out_frames++ == 0) {
    REQUIRE(reliable && (f->flags & FLAG_SYN) && f->seq == 0 && f->type == MSG_RESET_NOTICE,
            "the first frame after boot is not the reset notice with SYN (§6.9)");
  }
  const uint8_t *p = f->payload;
  if (!reliable) {
    if (f->type == MSG_ACK) {
      REQUIRE(f->length == 0, "an ack with a payload");
      REQUIRE(!(f->flags & FLAG_POLL) || ((f->flags & FLAG_ACK_VALID) && !(f->flags & FLAG_NAK)),
              "a poll without ACK_VALID, or with NAK (§4.5)");
      REQUIRE((f->flags & FLAG_POLL) || f->seq == 0, "an ack (not a poll) with a seq (§4.2)");
      REQUIRE(f->flags & (FLAG_ACK_VALID | FLAG_NAK), "an ack that is neither ACK_VALID nor a NAK");
      return;
    }
    REQUIRE(f->type == MSG_ERROR && f->length == 4, "an unreliable frame other than an ack or an error");
    REQUIRE(p[0] == ERR_UNSUPPORTED_VERSION && le16(p + 2) == PROTOCOL_VERSION, "an unreliable error other than unsupportedVersion (§5)");
    return;
  }
  switch (f->type) {
    case MSG_RESET_NOTICE:
      REQUIRE(f->length == 3 && le16(p) == board.boot_count && p[2] == st.reset_cause, "reset notice fields");
      break;
    case MSG_CAPABILITIES: {
      REQUIRE(f->length == 60, "capabilities size");
      const uint8_t *q = p + 34;
      REQUIRE(p[0] == PROTOCOL_VERSION && le16(q) == board.boot_count && le16(q + 8) == BOARD_QUEUE_DEPTH,
              "capabilities version, boot count or queue depth");
      REQUIRE(le16(q + 10) >= 10 && le16(q + 10) <= 5000, "capabilities watchdog outside 10..5000 ms");
      REQUIRE(q[25] >= 1 && q[25] <= 3, "capabilities calibration state");
      REQUIRE(le16(q + 12) == BOARD_FEATURES && (le16(q + 12) & BOARD_FEATURE_IDENTITY), "capabilities features");
      /* Calibrated: what the chip measured (0, a period that read 0, leaves the board file's). */
      REQUIRE(le16(q + 16) == BOARD_CH0_F0_X10 || (q[25] == 2 && le16(q + 16) == MEASURED_F0_X10),
              "capabilities f0 neither the board file's nor, calibrated, the measured one (§6.3)");
      break;
    }
    case MSG_IDENTITY: {
      REQUIRE(f->length == 4, "identity size");
      uint32_t serial = (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16;
      /* Answered when handled; the serial never changes once kept, so it is the one kept now
       * (or it was 0 then). */
      REQUIRE(serial == hal_board_serial() || serial == 0, "identity: not the serial the board keeps (§6.11)");
      st.identities++;
      break;
    }
    case MSG_CLOCK: {
      REQUIRE(f->length == 10, "clock size");
      uint64_t t = (uint64_t)le16(p + 2) | (uint64_t)le16(p + 4) << 16 | (uint64_t)le16(p + 6) << 32 | (uint64_t)le16(p + 8) << 48;
      REQUIRE(t >= st.boot && t <= fake.now, "clock time outside the board's time since boot");
      break;
    }
    case MSG_STATUS: {
      REQUIRE(f->length == 17, "status size");
      uint32_t t = (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16;
      REQUIRE(time_diff((uint32_t)fake.now, t) >= 0 && time_diff(t, (uint32_t)st.boot) >= 0, "status time outside the board's time");
      REQUIRE(p[4] <= WATCHDOG_FIRED && (p[5] & ~0x0Fu) == 0 && p[8] == BOARD_CHANNEL_COUNT, "status watchdog, faults or channels");
      REQUIRE(le16(p + 9) <= BOARD_QUEUE_DEPTH, "status queue fill beyond the depth");
      int16_t level = (int16_t)le16(p + 15);
      REQUIRE(level >= 0 && level <= 255, "status level not clamped to 0..255 (§6.5)");
      break;
    }
    case MSG_CALIBRATION_RESULT:
      REQUIRE(f->length == 6 && p[0] == 0 && p[1] <= 1, "calibration result fields");
      st.calibration_results++;
      break;
    case MSG_ERROR:
      REQUIRE(f->length == 4, "error size");
      check_error_payload(f);
      st.errors++;
      break;
    default:
      REQUIRE(false, "the board sent a reliable message that is not board-to-host");
  }
}

/* Checks everything the board wrote since the last read, then lets the host read it (acking
 * it when auto_ack is on). */
static void drain(void) {
  for (size_t i = 0; i < fake.tx_length; i++) {
    cobs_result_t result = cobs_decoder_feed(&st.out_decoder, fake.tx[i]);
    REQUIRE(result != COBS_BAD, "the board wrote a run that is not valid COBS");
    if (result != COBS_FRAME) continue;
    frame_t frame;
    REQUIRE(frame_parse(st.out_raw, st.out_decoder.length, &frame), "the board wrote a frame that fails CRC or length");
    check_board_frame(&frame);
  }
  host_read(&st.host);
}

/* ---- The board loop on the virtual clock ---- */

CHECKER static void note_rx(void) {
  if (fake.rx_head != st.rx_seen) {
    st.rx_seen = fake.rx_head;
    st.last_rx = fake.now;
  }
}

CHECKER static void uart_before(void) {
  if (st.uno_uart) {
    while (st.backlog > 0 && st.next_drain <= fake.now) {
      st.backlog--;
      st.next_drain += UNO_BYTE_TICKS;
    }
    fake.tx_space = (uint16_t)(UNO_TX_FREE - st.backlog);
  } else {
    size_t room = sizeof fake.tx - fake.tx_length;
    fake.tx_space = (uint16_t)(room < AMPLE_TX_FREE ? room : AMPLE_TX_FREE);
  }
  st.space_before = fake.tx_space;
  st.length_before = fake.tx_length;
  st.writes_before = fake_drv.write_count;
}

CHECKER static void uart_after(void) {
  size_t written = fake.tx_length - st.length_before;
  REQUIRE(written <= st.space_before, "the board wrote more than hal_uart_tx_free allowed");
  if (st.uno_uart && written > 0) {
    if (st.backlog == 0) st.next_drain = fake.now + UNO_BYTE_TICKS;
    st.backlog = (uint16_t)(st.backlog + written);
  }
}

/* Runs the board loop for `ticks` (within the input's budget): polls at every deadline the
 * board asks for, at once again while input is pending, and at every byte the UART sends. */
static void advance(uint64_t ticks) {
  uint64_t left = MAX_BOARD_TICKS - st.ticks_used;
  if (ticks > left) ticks = left;
  st.ticks_used += ticks;
  uint64_t end = fake.now + ticks;
  for (;;) {
    if (st.polls >= MAX_POLLS) {
      st.exhausted = true;
      return;
    }
    st.polls++;
    uart_before();
    fake.idled = false;
    board_poll();
    uart_after();
    check_board();
    check_writes();
    if (board.channels[0].level > st.max_level) st.max_level = board.channels[0].level;
    if (board.watchdog_fired && st.watchdog_fires == 0) st.watchdog_fires = 1;
    if (fake.tx_length > (st.live_host ? 0u : TX_READ_AT)) drain();
    note_rx();
    if (fake_rx_pending() > 0) continue;
    REQUIRE(fake.idled, "board_poll did not say how long to idle");
    int32_t wait = time_diff(fake.idle_deadline, (uint32_t)fake.now);
    REQUIRE(wait <= 0x40000000L, "a deadline more than 2^30 ticks ahead");
    bool sending = st.uno_uart && st.backlog > 0;
    REQUIRE(wait > 0 || sending, "a deadline not in the future with nothing to wait for (the loop would spin)");
    uint64_t next = fake.now + (uint64_t)(wait > 0 ? wait : 0);
    if (sending && st.next_drain < next) next = st.next_drain; /* UDRE wakes the loop */
    if (st.late_max > 0) {
      st.random ^= st.random << 13;
      st.random ^= st.random >> 17;
      st.random ^= st.random << 5;
      next += st.random % (st.late_max + 1u);
    }
    if (next > end) {
      if (fake.now >= end) break;
      next = end;
    }
    fake.now = next;
  }
}

/* Input is processed before more is fed, so the fake's receive ring never overruns. */
static bool make_room(size_t count) {
  if (fake_rx_pending() + count > RX_ROOM) advance(0);
  return !st.exhausted && fake_rx_pending() + count <= sizeof fake.rx;
}

static void feed(const uint8_t *bytes, size_t count) {
  if (make_room(count)) fake_rx(bytes, count);
}

/* A reliable message from the host (kept for a go-back-N). Returns its seq. */
static uint8_t send_message(uint8_t type, const uint8_t *payload, uint8_t length) {
  uint8_t seq = st.host.seq;
  if (!make_room(FRAME_MAX_ENCODED)) return seq;
  bool syn = !st.host.started;
  seq = host_send(&st.host, type, payload, length);
  uint8_t i = seq % 16u;
  st.sent[i].type = type;
  st.sent[i].length = length;
  st.sent[i].syn = syn;
  memcpy(st.sent[i].payload, payload, length);
  return seq;
}

/* ---- Boot ---- */

static void boot(void) {
  uint8_t config = next_byte();
  uint8_t eeprom = next_byte();
  uint8_t cause = next_byte();
  static const uint64_t starts[4] = {1000000u, 0u, 0x100000000ULL - 2000000u, 0x100000000ULL - 1000u};
  st.boot = starts[config & FUZZ_CFG_START_MASK];
  fake_reset(st.boot);
  fake_drv.chip_present = !(config & FUZZ_CFG_NO_CHIP);
  if (config & FUZZ_CFG_CALIBRATION_HANGS) fake_drv.calibration_ticks = UINT64_MAX;
  if (config & FUZZ_CFG_CALIBRATION_FAILS) fake_drv.calibration_status = 0x08;
  if (config & FUZZ_CFG_LONG_ROM) fake_drv.rom_ticks = 20u * BOARD_CLOCK_HZ;
  fake.eeprom_boot = (uint16_t)(eeprom * 257u);
  st.reset_cause = (uint8_t)((cause & FUZZ_CFG2_CAUSE_MASK) % 6u);
  st.live_host = cause & FUZZ_CFG2_LIVE_HOST;
  st.late_max = ((cause & FUZZ_CFG2_LATE_MASK) >> FUZZ_CFG2_LATE_SHIFT) * FUZZ_LATE_UNIT_TICKS;
  st.random = 0x9E3779B9u ^ ((uint32_t)config << 16 | (uint32_t)eeprom << 8 | cause);
  fake.reset_cause = st.reset_cause;
  fake.tx_space_drains = true;
  st.uno_uart = config & FUZZ_CFG_UNO_UART;
  st.last_rx = st.boot;
  cobs_decoder_init(&st.out_decoder, st.out_raw, FRAME_MAX_RAW, FRAME_MAX_ENCODED);

  memset(&board, 0, sizeof board); /* .bss after a reset */
  uart_before();
  board_init();
  uart_after();
  check_board();
  host_init(&st.host, 0x77);
  st.host.auto_ack = !(config & FUZZ_CFG_NO_AUTO_ACK);
}

/* ---- Operations ---- */

static void op_frame(void) {
  uint8_t mode = next_byte();
  frame_t f;
  f.version = next_byte();
  f.flags = next_byte();
  f.session = next_byte();
  f.seq = next_byte();
  f.ack = next_byte();
  f.type = next_byte();
  uint8_t want = next_byte();
  size_t n;
  f.payload = take(want > FRAME_MAX_PAYLOAD ? FRAME_MAX_PAYLOAD : want, &n);
  f.length = (uint8_t)n;
  if (mode & FUZZ_FRAME_HOST_SESSION) f.session = st.host.session;
  if (mode & FUZZ_FRAME_RELATIVE_SEQ) f.seq = (uint8_t)(st.host.seq + (int8_t)f.seq);
  if (mode & FUZZ_FRAME_RELATIVE_ACK) f.ack = (uint8_t)(st.host.expected + (int8_t)f.ack);
  if (mode & FUZZ_FRAME_VERSION_1) f.version = PROTOCOL_VERSION;
  if (make_room(FRAME_MAX_ENCODED)) host_send_frame(&f);
}

static void op_send(void) {
  uint8_t type = next_byte();
  uint8_t want = next_byte();
  size_t n;
  const uint8_t *payload = take(want > FRAME_MAX_PAYLOAD ? FRAME_MAX_PAYLOAD : want, &n);
  send_message(type, payload, (uint8_t)n);
}

static void op_batch(void) {
  uint8_t kind = next_byte();
  int16_t offset = (int16_t)(next_byte() | next_byte() << 8);
  uint8_t want = next_byte();
  static const uint32_t scales[4] = {1u, 64u, BOARD_TICKS_PER_FRAME, 65536u};
  uint32_t start = (uint32_t)fake.now + (uint32_t)((int32_t)offset * (int64_t)scales[(kind >> 3) & 3]);
  uint8_t payload[FRAME_MAX_PAYLOAD];
  payload[0] = (kind & FUZZ_BATCH_BAD_CHANNEL) == FUZZ_BATCH_BAD_CHANNEL ? (uint8_t)(1 + (kind >> 5)) : 0;
  payload[1] = (uint8_t)start;
  payload[2] = (uint8_t)(start >> 8);
  payload[3] = (uint8_t)(start >> 16);
  payload[4] = (uint8_t)(start >> 24);
  size_t n;
  const uint8_t *body = take(want > FRAME_MAX_PAYLOAD - 5 ? FRAME_MAX_PAYLOAD - 5 : want, &n);
  memcpy(payload + 5, body, n);
  uint8_t type = (kind & FUZZ_BATCH_REPLACE) ? MSG_REPLACE_SEGMENTS : MSG_QUEUE_SEGMENTS;
  send_message(type, payload, (uint8_t)(5 + n));
}

static void op_rom(void) {
  uint8_t payload[7];
  payload[0] = next_byte();
  payload[1] = next_byte();
  payload[2] = next_byte();
  int16_t offset = (int16_t)(next_byte() | next_byte() << 8);
  uint32_t start = (uint32_t)fake.now + (uint32_t)((int32_t)offset * 64);
  payload[3] = (uint8_t)start;
  payload[4] = (uint8_t)(start >> 8);
  payload[5] = (uint8_t)(start >> 16);
  payload[6] = (uint8_t)(start >> 24);
  send_message(MSG_PLAY_ROM_EFFECT, payload, sizeof payload);
}

static void op_advance(void) {
  uint8_t kind = next_byte();
  uint8_t value = next_byte();
  static const uint64_t units[4] = {1u, 100u, BOARD_TICKS_PER_MS, 20u * BOARD_TICKS_PER_MS};
  advance(value * units[kind >> 6]);
}

static void op_resync(void) {
  uint8_t how = next_byte();
  if (how & 1) {
    bool auto_ack = st.host.auto_ack;
    host_init(&st.host, (uint8_t)(how >> 1));
    st.host.auto_ack = auto_ack;
  } else if (st.board_ack_known) {
    /* Go-back-N from what the board expects (as far as the host kept its messages), else
     * continue from there. */
    uint8_t missing = (uint8_t)(st.host.seq - st.board_ack);
    if (missing > 16u || !st.host.started) {
      st.host.seq = st.board_ack;
      return;
    }
    for (uint8_t k = 0; k < missing; k++) {
      uint8_t seq = (uint8_t)(st.board_ack + k);
      uint8_t i = seq % 16u;
      frame_t f = {PROTOCOL_VERSION, FLAG_RELIABLE, st.host.session, seq, 0, st.sent[i].type, st.sent[i].length,
                   st.sent[i].payload};
      if (st.sent[i].syn) f.flags |= FLAG_SYN;
      if (st.host.following) {
        f.flags |= FLAG_ACK_VALID;
        f.ack = st.host.expected;
      }
      if (!make_room(FRAME_MAX_ENCODED)) return;
      host_send_frame(&f);
    }
  }
}

/* A stop, and what §6.6 asks of it once delivered. */
static void op_stop(void) {
  uint8_t mask = next_byte();
  advance(0); /* what is pending goes first */
  if (st.exhausted || fake_rx_pending() > 0) return;
  bool followed = board.link.following && board.link.peer_session == st.host.session;
  uint8_t expected = board.link.expected;
  uint8_t seq = send_message(MSG_STOP, &mask, 1);
  note_rx();
  advance(0);
  if (st.exhausted || fake_rx_pending() > 0) return;
  bool delivered = board.link.following && board.link.peer_session == st.host.session &&
                   board.link.expected == (uint8_t)(seq + 1) && !(followed && expected == (uint8_t)(seq + 1));
  if (!delivered || !(mask & 1)) return;
  check_stopped("right after the stop");
  st.stops_checked++;
  size_t fed = fake.rx_head;
  advance(BOARD_TICKS_PER_FRAME);
  if (!st.exhausted && fake.rx_head == fed) check_stopped("one frame period after the stop");
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  const char *value = getenv("FUZZ_BOARD_TRACE");
  trace = value && *value && *value != '0';
  return 0;
}

static void print_trace(void) {
  const link_t *l = &board.link;
  fprintf(stderr,
          "fuzz_board: %d ops, %u polls, %.1f ms, %u frames out, %u errors, max level %u, %u stops checked, "
          "watchdog %s, %u calibration results, %u identities (serial 0x%08X), drv state %d, queue %u, "
          "underruns %u, late %u, bad frames %u; link: "
          "following %d, %u timeouts, %u fast recoveries, %u NAKs, %u polls, %u duplicates, "
          "%u out of order%s%s\n",
          st.ops, st.polls, (double)(fake.now - st.boot) / BOARD_TICKS_PER_MS, st.out_frames, st.errors, st.max_level,
          st.stops_checked, st.watchdog_fires ? "fired" : "quiet", st.calibration_results, st.identities,
          (unsigned)st.serial, (int)drv2605.state,
          board.channels[0].queue.count, board.channels[0].underruns, board.channels[0].late_segments, board.receiver.bad_frames, l->following,
          l->timeouts_total, l->fast_recoveries, l->naks_sent, l->polls_sent, l->duplicates,
          l->out_of_order, l->lost ? ", lost" : "", st.exhausted ? ", poll budget exhausted" : "");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  memset(&st, 0, sizeof st);
  st.data = data;
  st.size = size;
  boot();
  for (int ops = 0; ops < MAX_OPS && more() && !st.exhausted; ops++) {
    size_t n;
    const uint8_t *bytes;
    switch (next_byte() % FUZZ_OP_COUNT) {
      case FUZZ_OP_RAW:
        bytes = take(next_byte(), &n);
        feed(bytes, n);
        break;
      case FUZZ_OP_COBS: {
        uint8_t encoded[FRAME_MAX_ENCODED + 2];
        bytes = take(next_byte(), &n);
        uint16_t length = cobs_encode_buffer(bytes, (uint16_t)n, encoded);
        encoded[length] = 0;
        feed(encoded, length + 1u);
        break;
      }
      case FUZZ_OP_FRAME:
        op_frame();
        break;
      case FUZZ_OP_SEND:
        op_send();
        break;
      case FUZZ_OP_BATCH:
        op_batch();
        break;
      case FUZZ_OP_ROM:
        op_rom();
        break;
      case FUZZ_OP_ADVANCE:
        op_advance();
        break;
      case FUZZ_OP_READ:
        drain();
        break;
      case FUZZ_OP_ACK:
        if (make_room(FRAME_MAX_ENCODED)) host_send_ack(&st.host);
        break;
      case FUZZ_OP_AUTO_ACK:
        st.host.auto_ack = !st.host.auto_ack;
        break;
      case FUZZ_OP_RESYNC:
        op_resync();
        break;
      case FUZZ_OP_STOP:
        op_stop();
        break;
      case FUZZ_OP_I2C:
        fake_drv.chip_present = !fake_drv.chip_present;
        st.i2c_trouble = true;
        break;
    }
    note_rx();
    check_board();
    st.ops = ops + 1;
  }
  if (!st.exhausted) drain(); /* the output written last is checked too */
  if (trace) print_trace();
  return 0;
}
