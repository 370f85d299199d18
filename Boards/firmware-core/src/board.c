/*
 * board.c — the board application: boot (reset notice), message dispatch, playback of each
 * channel's queue at frame boundaries, the host watchdog, calibration, ROM effects and the
 * board's identity (its serial).
 *
 * Channels: BOARD_CHANNEL_COUNT of them (board_config.h), each with its own queue and level;
 * the board's driver back end (driver.h) gets channel c's drive through driver_output()
 * (playback.c). Requests are checked against one table of rules (`rules`) before they are
 * handled.
 */
#include "board.h"

#include "board_config.h"
#include "driver.h"
#include "hal.h"
#include "playback.h"
#include "wire.h"

#include <string.h>

board_t board;

/* ---- Outgoing messages ---- */

/* Capabilities are generated when sent (they are the largest message; see link.h). A
 * calibrated channel announces the f0 its driver measured, else the board file's (§6.3). */
static uint8_t dynamic_payload(uint8_t type, uint8_t *out) {
  if (type != MSG_CAPABILITIES) return 0;
  wire_writer_t writer;
  wire_writer_init(&writer, out, WIRE_MAX_BOARD_PAYLOAD);
  wire_capabilities_t capabilities = {
      .protocol_version = PROTOCOL_VERSION,
      .firmware_name = FIRMWARE_NAME,
      .firmware_version = FIRMWARE_VERSION,
      .board_id = BOARD_ID,
      .boot_count = board.boot_count,
      .clock_hz = BOARD_CLOCK_HZ,
      .frame_period_us = BOARD_FRAME_PERIOD_US,
      .queue_depth = BOARD_QUEUE_DEPTH,
      .watchdog_ms = board.watchdog_ms,
      .features = BOARD_FEATURES,
      .channel_count = BOARD_CHANNEL_COUNT,
      .channels = BOARD_CHANNEL_INFO,
  };
  for (uint8_t c = 0; c < BOARD_CHANNEL_COUNT; c++) {
    wire_channel_info_t *channel = &capabilities.channels[c];
    channel->calibration = driver_calibration_state(c);
    uint16_t measured = channel->calibration == CALIBRATION_CALIBRATED ? driver_calibrated_f0_x10(c) : 0;
    if (measured != 0) channel->f0_x10 = measured;
  }
  wire_capabilities(&writer, &capabilities);
  return writer.length;
}

static void send_error(uint8_t code, uint8_t message_type, uint16_t detail) {
  uint8_t payload[4];
  wire_writer_t writer;
  wire_writer_init(&writer, payload, sizeof payload);
  wire_error(&writer, code, message_type, detail);
  (void)link_send(&board.link, MSG_ERROR, payload, writer.length);
}

/* Drive queued or playing on any channel: what the watchdog guards (§6.7: `armed`). */
static bool driving(void) {
  for (uint8_t c = 0; c < BOARD_CHANNEL_COUNT; c++) {
    if (board.channels[c].queue.count > 0 || board.channels[c].level != 0) return true;
  }
  return driver_effect_active();
}

static uint8_t watchdog_state(void) {
  if (board.watchdog_fired) return WATCHDOG_FIRED;
  return driving() ? WATCHDOG_ARMED : WATCHDOG_IDLE;
}

/* Not inlined into board_poll (GCC would): its payload and status (~70 bytes) would stay on the
 * stack under everything else the loop calls (the H-bridge board's RAM is tight). */
#ifdef __GNUC__
__attribute__((noinline))
#endif
static void send_status(uint32_t now) {
  uint8_t payload[LINK_SLOT_PAYLOAD];
  wire_writer_t writer;
  wire_writer_init(&writer, payload, sizeof payload);
  wire_status_t status = {
      .board_time = now,
      .watchdog = watchdog_state(),
      .faults = board.faults,
      .bad_frames = board.receiver.bad_frames,
      .channel_count = BOARD_CHANNEL_COUNT,
  };
  for (uint8_t c = 0; c < BOARD_CHANNEL_COUNT; c++) {
    const channel_t *channel = &board.channels[c];
    status.channels[c] = (wire_channel_status_t){
        .queue_fill = channel->queue.count,
        .underruns = channel->underruns,
        .late_segments = channel->late_segments,
        /* While an effect or a calibration has the actuator, the queue's level does not play. */
        .level = driver_follows_level(c) ? channel->level : 0,
    };
  }
  wire_status(&writer, &status);
  /* `fired` is latched until a status reports it (§6.7). */
  if (link_send(&board.link, MSG_STATUS, payload, writer.length)) board.watchdog_fired = false;
}

/* The calibration outcome: a `calibration result` when the chip finished the run (passed or
 * not), an `error calibrationFailed` (detail: STATUS, 0xFF without an answer) when it did
 * not finish. False when the window is full (try again later). */
static bool send_calibration_outcome(uint8_t event) {
  if (!link_has_room(&board.link)) return false;
  const driver_calibration_t *result = driver_calibration_result();
  if (event == DRIVER_EVENT_CALIBRATION_FAILED) {
    send_error(ERR_CALIBRATION_FAILED, MSG_CALIBRATE, result->status);
    return true;
  }
  uint8_t payload[6];
  wire_writer_t writer;
  wire_writer_init(&writer, payload, sizeof payload);
  wire_calibration_result(&writer, 0, result->succeeded, result->f0_x10, result->compensation, result->back_emf);
  return link_send(&board.link, MSG_CALIBRATION_RESULT, payload, writer.length);
}

/* ---- Requests ---- */

/* What a request must satisfy before it is handled, per message type: one row of `rules`,
 * checked by request_accepted() in this order, the first failure answered with its error:
 *
 *   1. the payload's length within [min_length, max_length] (or, with OR_EMPTY, 0), and
 *      each field that `ranges` names (field_ranges) within
 *      its bounds (not checked in an empty payload)          badPayload (detail 0)
 *   2. the board has `feature` (a BOARD_FEATURE_* bit)       notSupported (detail 0)
 *   3. with NAMES_CHANNEL, payload byte 0 is a channel of
 *      this board                                            badChannel (detail: the channel)
 *   4. with NOT_WHILE_CALIBRATING, no calibration runs       busy (detail 0)
 *
 * A type without a row is unknown (unknownMessage when it came reliably: board-to-host types
 * too). What a handler checks itself is about more than the payload's length and bounded
 * fields: a batch's segments and room (queue_insert_batch), an effect's start in the past,
 * an identity request's assign of 0 (badPayload, handle_identity). */

/* Rule flags. */
#define NAMES_CHANNEL 0x01         /* payload byte 0 is a channel */
#define NOT_WHILE_CALIBRATING 0x02 /* refused (busy) while a calibration runs */
#define IGNORED 0x04               /* taken as it is, nothing to do */
#define OR_EMPTY 0x08              /* an empty payload passes too */

#define ANY_LENGTH FRAME_MAX_PAYLOAD

/* A field's bounds: the u8 (or, with RANGE_WIDE, the little-endian u16) at `offset` within
 * [min, max]. */
#define RANGE_WIDE 0x80 /* or'ed into `offset` */
typedef struct {
  uint8_t offset;
  uint16_t min;
  uint16_t max;
} field_range_t;

/* The fields rules bound: a bit each in a rule's `ranges`, an entry each in field_ranges. */
#define LEVEL_BYTES 0x01 /* a batch's levelBytes: 1 or 2 */
#define LIBRARY 0x02     /* an effect's library: 1-7 */
#define EFFECT 0x04      /* and its number: 1-123 */
#define WATCHDOG_MS 0x08 /* set watchdog: 10-5000 ms */

static const field_range_t field_ranges[] HAL_FLASH = {
    {5, 1, 2},                  /* LEVEL_BYTES */
    {1, 1, 7},                  /* LIBRARY */
    {2, 1, 123},                /* EFFECT */
    {0 | RANGE_WIDE, 10, 5000}, /* WATCHDOG_MS */
};

typedef struct {
  uint8_t type;
  uint8_t min_length;
  uint8_t max_length;
  uint8_t flags;
  uint8_t feature;
  uint8_t ranges;
} request_rule_t;

static const request_rule_t rules[] HAL_FLASH = {
    /* type                 length          flags                                  feature                    ranges */
    /* an ack is the link's; an error the host reports needs nothing either */
    {MSG_ACK,               0, ANY_LENGTH,  IGNORED,                               0,                         0},
    {MSG_ERROR,             0, ANY_LENGTH,  IGNORED,                               0,                         0},
    {MSG_IDENTIFY,          0, 0,           0,                                     0,                         0},
    {MSG_CLOCK_QUERY,       2, 2,           0,                                     0,                         0},
    /* batches: channel, start time, levelBytes, count (7 bytes), then the segments, which
     * queue_insert_batch checks */
    {MSG_QUEUE_SEGMENTS,    7, ANY_LENGTH,  NAMES_CHANNEL | NOT_WHILE_CALIBRATING, 0,                         LEVEL_BYTES},
    {MSG_REPLACE_SEGMENTS,  7, ANY_LENGTH,  NAMES_CHANNEL | NOT_WHILE_CALIBRATING, 0,                         LEVEL_BYTES},
    {MSG_STOP,              1, 1,           0,                                     0,                         0},
    {MSG_STATUS_REQUEST,    0, 0,           0,                                     0,                         0},
    {MSG_HEARTBEAT,         0, 0,           0,                                     0,                         0},
    {MSG_CALIBRATE,         1, 1,           NAMES_CHANNEL | NOT_WHILE_CALIBRATING, BOARD_FEATURE_CALIBRATION, 0},
    /* channel, library, effect, start time */
    {MSG_PLAY_ROM_EFFECT,   7, 7,           NAMES_CHANNEL | NOT_WHILE_CALIBRATING, BOARD_FEATURE_ROM_EFFECTS, LIBRARY | EFFECT},
    {MSG_SET_WATCHDOG,      2, 2,           0,                                     0,                         WATCHDOG_MS},
    /* none (a query), or assign: u32 (§6.11) */
    {MSG_IDENTITY_REQUEST,  4, 4,           OR_EMPTY,                              BOARD_FEATURE_IDENTITY,    0},
};

static bool calibrating(void) { return driver_calibrating(); }

/* Whether the fields `ranges` names are within their bounds (the payload is long enough). */
static bool ranges_hold(uint8_t ranges, const uint8_t *payload) {
  for (uint8_t i = 0; i < sizeof field_ranges / sizeof field_ranges[0]; i++) {
    if (!(ranges & (1u << i))) continue;
    field_range_t range;
    hal_flash_read(&range, &field_ranges[i], sizeof range);
    const uint8_t *field = payload + (range.offset & (uint8_t)~RANGE_WIDE);
    uint16_t value = field[0];
    if (range.offset & RANGE_WIDE) value |= (uint16_t)(field[1] << 8);
    if (value < range.min || value > range.max) return false;
  }
  return true;
}

/* The rule for `type`, copied out of flash into *rule; false when the type has none. */
static bool find_rule(uint8_t type, request_rule_t *rule) {
  for (uint8_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
    hal_flash_read(rule, &rules[i], sizeof *rule);
    if (rule->type == type) return true;
  }
  return false;
}

/* Whether `frame` is a request to handle; answers the ones that are not (see `rules`). */
static bool request_accepted(const frame_t *frame) {
  request_rule_t rule;
  if (!find_rule(frame->type, &rule)) {
    /* Unknown, or a board-to-host type: acknowledged by the link, answered here. */
    if (frame->flags & FLAG_RELIABLE) send_error(ERR_UNKNOWN_MESSAGE, frame->type, 0);
    return false;
  }
  const uint8_t *payload = frame->payload;
  bool empty_allowed = (rule.flags & OR_EMPTY) && frame->length == 0;
  if (!empty_allowed &&
      (frame->length < rule.min_length || frame->length > rule.max_length || !ranges_hold(rule.ranges, payload))) {
    send_error(ERR_BAD_PAYLOAD, frame->type, 0);
  } else if ((rule.feature & BOARD_FEATURES) != rule.feature) {
    send_error(ERR_NOT_SUPPORTED, frame->type, 0);
  } else if ((rule.flags & NAMES_CHANNEL) && payload[0] >= BOARD_CHANNEL_COUNT) {
    send_error(ERR_BAD_CHANNEL, frame->type, payload[0]);
  } else if ((rule.flags & NOT_WHILE_CALIBRATING) && calibrating()) {
    send_error(ERR_BUSY, frame->type, 0);
  } else {
    return !(rule.flags & IGNORED);
  }
  return false;
}

/* The little-endian u16 or u32 at `bytes` (a field of a payload its rule checked). */
static uint16_t field_u16(const uint8_t *bytes) {
  wire_reader_t reader;
  wire_reader_init(&reader, bytes, 2);
  return wire_get_u16(&reader);
}

static uint32_t field_u32(const uint8_t *bytes) {
  wire_reader_t reader;
  wire_reader_init(&reader, bytes, 4);
  return wire_get_u32(&reader);
}

/* `queue` and `replace` (their rule checked the header and the channel). */
static void handle_batch(uint8_t type, const uint8_t *payload, uint8_t length, uint32_t now) {
  /* `queue` and `replace` share the cut: see queue_insert_batch. */
  channel_t *channel = &board.channels[payload[0]];
  queue_result_t result = queue_insert_batch(&channel->queue, payload, length, now);
  if (result.error != 0) {
    send_error(result.error, type, result.detail);
    return;
  }
  if (result.late && channel->late_segments != 0xFFFF) channel->late_segments++;
  /* A batch that starts within the staged frames cuts them; one after them (streaming: the
   * host queues ~30 ms ahead, frames are staged 4 ms ahead) leaves them as they are. */
  uint32_t start = field_u32(payload + 1);
  bool restage = channel->staging && time_diff(start, channel->stage_from) < 0;
  if (restage) channel->restage = true;
  /* The frame playing changes only when the batch starts before it ends (next_eval); one that
   * starts later is played when the channel is evaluated then (no evaluation now: ~0.1 ms on
   * the AVR per batch). */
  if (restage || time_diff(start, channel->next_eval) < 0) channel->reevaluate = true;
}

#if BOARD_FEATURES & BOARD_FEATURE_IDENTITY
/* `identity request` (§6.11; its rule let through no payload or 4 bytes): a query, or an
 * assign (not 0) that a board without a serial keeps. Answered with the serial the board keeps
 * (read back after storing: a host compares it with what it assigned). */
static void handle_identity(const uint8_t *payload, uint8_t length) {
  uint32_t serial = hal_board_serial();
  if (length != 0) {
    uint32_t assign = field_u32(payload);
    if (assign == 0) {
      send_error(ERR_BAD_PAYLOAD, MSG_IDENTITY_REQUEST, 0);
      return;
    }
    if (serial == 0) {
      hal_set_board_serial(assign);
      serial = hal_board_serial();
    }
  }
  uint8_t reply[4];
  wire_writer_t writer;
  wire_writer_init(&writer, reply, sizeof reply);
  wire_identity(&writer, serial);
  (void)link_send(&board.link, MSG_IDENTITY, reply, writer.length);
}
#endif

/* Handles a request that passed its rule: its payload has the length and values the rule asks
 * for (payload[0] is a channel where the rule says so). */
static void dispatch(const frame_t *frame, uint32_t now) {
  if (!request_accepted(frame)) return;
  const uint8_t *payload = frame->payload;
  switch (frame->type) {
    case MSG_IDENTIFY:
      (void)link_send_dynamic(&board.link, MSG_CAPABILITIES);
      break;
    case MSG_CLOCK_QUERY: {
      uint8_t reply[10];
      wire_writer_t writer;
      wire_writer_init(&writer, reply, sizeof reply);
      wire_clock(&writer, field_u16(payload), hal_ticks64());
      (void)link_send(&board.link, MSG_CLOCK, reply, writer.length);
      break;
    }
    case MSG_QUEUE_SEGMENTS:
    case MSG_REPLACE_SEGMENTS:
      handle_batch(frame->type, payload, frame->length, now);
      break;
    case MSG_STOP:
      stop_channels(payload[0]);
      break;
    case MSG_STATUS_REQUEST:
      send_status(now);
      break;
    /* Boards without the feature have no code for these: their rules refuse them. */
#if BOARD_FEATURES & BOARD_FEATURE_CALIBRATION
    case MSG_CALIBRATE:
      stop_channel(payload[0]); /* the channel plays nothing while calibrating */
      driver_calibrate(payload[0], now);
      break;
#endif
#if BOARD_FEATURES & BOARD_FEATURE_ROM_EFFECTS
    case MSG_PLAY_ROM_EFFECT: {
      uint32_t start = field_u32(payload + 3); /* after channel, library, effect */
      if (time_diff(start, now) < 0) send_error(ERR_TIME_IN_PAST, MSG_PLAY_ROM_EFFECT, 0);
      else driver_play_effect(payload[0], payload[1], payload[2], start);
      break;
    }
#endif
#if BOARD_FEATURES & BOARD_FEATURE_IDENTITY
    case MSG_IDENTITY_REQUEST:
      handle_identity(payload, frame->length);
      break;
#endif
    case MSG_SET_WATCHDOG:
      board.watchdog_ms = field_u16(payload);
      break;
    default: /* MSG_HEARTBEAT: the frame fed the host watchdog (handle_frame) */
      break;
  }
}

/* Received bytes waiting from which acknowledgements wait until the frames before them are
 * handled (receive). */
#define ACK_BACKLOG 32

/* A frame's delimiter waits in the UART's ring, left for the next pass (receive): the loop does
 * not sleep (board_deadline). */
static bool frame_waiting;

static void handle_frame(const frame_t *frame, uint32_t now) {
  board.last_valid = now; /* any frame that passes the CRC feeds the watchdog */
  if (frame->version != PROTOCOL_VERSION) {
    /* Not delivered, not acknowledged: an unreliable error in our version (§5). */
    uint8_t payload[4];
    wire_writer_t writer;
    wire_writer_init(&writer, payload, sizeof payload);
    wire_error(&writer, ERR_UNSUPPORTED_VERSION, frame->type, PROTOCOL_VERSION);
    link_send_unreliable(&board.link, PROTOCOL_VERSION, MSG_ERROR, payload, writer.length);
  } else if (link_receive(&board.link, frame, now) == LINK_DELIVER) {
    dispatch(frame, now);
  }
}

/* ---- Main loop ---- */

void board_init(void) {
  frame_receiver_init(&board.receiver);
  board.boot_count = hal_boot_count_increment();
  board.reset_cause = hal_reset_cause();
  link_init(&board.link, (uint8_t)board.boot_count, dynamic_payload);
  board.faults = driver_init() ? 0 : FAULT_DRIVER_NOT_RESPONDING;
  board.watchdog_ms = BOARD_WATCHDOG_MS_DEFAULT;
  board.watchdog_fired = false;
  board.calibration_result_pending = false;
  uint32_t now = hal_ticks();
  board.last_valid = now;
  for (uint8_t c = 0; c < BOARD_CHANNEL_COUNT; c++) {
    channel_t *channel = &board.channels[c];
    queue_init(&channel->queue);
    channel->level = 0;
    channel->underruns = 0;
    channel->late_segments = 0;
    channel->reevaluate = true;
    channel->next_eval = now;
  }
  /* The first frame after boot: the reset notice, with SYN (§6.9). */
  uint8_t payload[3];
  wire_writer_t writer;
  wire_writer_init(&writer, payload, sizeof payload);
  wire_reset_notice(&writer, board.boot_count, board.reset_cause);
  (void)link_send(&board.link, MSG_RESET_NOTICE, payload, writer.length);
  link_poll(&board.link, now);
}

static uint32_t earliest(uint32_t now, uint32_t a, uint32_t b) {
  (void)now;
  return time_diff(a, b) < 0 ? a : b;
}

uint32_t board_deadline(uint32_t now) {
  if (frame_waiting) return now;
  uint32_t deadline = playback_deadline(now, link_deadline(&board.link, now));
  deadline = earliest(now, deadline, driver_deadline(now));
  if (driving()) {
    deadline = earliest(now, deadline, board.last_valid + (uint32_t)board.watchdog_ms * BOARD_TICKS_PER_MS);
  }
  return deadline;
}

/* Bytes worth a drain() (0.32 ms of them at 500000 baud), or how long fewer may wait (0.25
 * ms, in ticks: the loop's longest stall is what bounds the ring's fill). */
#define DRAIN_LEAST 16
#define DRAIN_WAIT_TICKS (BOARD_TICKS_PER_MS / 4u)

/* When bytes were last taken from the UART's ring (low 16 bits of the board time). */
static uint16_t last_taken;

/* Feeds the bytes received so far to the frame receiver where they wait (hal_uart_peek), up
 * to the next delimiter (left in the ring): the frame it completes is handled by receive().
 * Between pieces of work, so that bytes do not wait in the UART's ring while the pass goes on.
 * What arrives while it runs waits for the next call or pass (not chased a byte at a time). */
static void drain(void) {
  /* A few bytes wait for more (a call costs ~20 byte times of decoding), not long. */
  if (frame_waiting) return;
  uint8_t waiting = hal_uart_waiting();
  if (waiting == 0) return;
  uint16_t now = (uint16_t)hal_ticks();
  if (waiting < DRAIN_LEAST && (uint16_t)(now - last_taken) < DRAIN_WAIT_TICKS) return;
  last_taken = now;
  for (uint8_t looks = 0; looks < 2; looks++) { /* the second: bytes past the ring's end */
    const uint8_t *bytes;
    const frame_t *frame;
    uint8_t count = hal_uart_peek(&bytes);
    if (count == 0) return;
    uint8_t taken = (uint8_t)frame_receiver_feed_bytes(&board.receiver, bytes, count, true, &frame);
    hal_uart_consume(taken);
    if (taken < count) {
      frame_waiting = true;
      return;
    }
  }
}

/* Feeds the bytes received so far to the frame receiver and handles each frame they complete,
 * and what came meanwhile: at most a window's worth (LINK_PROTOCOL_WINDOW) per pass, back to
 * back (a frame waiting in the ring while the board stages frames after the one before it would
 * hold the ring's tail). The pieces of work around a frame are kept apart by taking bytes in
 * between — the loop's longest stall, not their sum, is what bounds the ring's fill: a frame's
 * bytes up to its delimiter, then the frames due (playback_output: before the frame is
 * handled, which may take a while), then the delimiter and the frame (handle_frame), then the
 * bytes that came meanwhile, then its acknowledgement (and a reply) — unless the ring backs up
 * (the host sends faster than the board handles short frames): those acknowledgements then go
 * out after the frames (board_poll), and the host's window (docs/protocol.md §4.3: 322 bytes),
 * not the 127-byte ring, holds what the board has not taken yet. */
static void receive(void) {
  uint8_t handled = 0;
  bool answer = false; /* a frame handled: its acknowledgement or reply to send */
  frame_waiting = false;
  if (hal_uart_waiting() == 0) return;
  uint16_t now = (uint16_t)hal_ticks();
  for (uint8_t looks = 0; looks < 2; looks++) { /* the second: bytes past the ring's end */
    const uint8_t *bytes;
    const frame_t *frame;
    uint8_t count = hal_uart_peek(&bytes);
    if (count == 0) break;
    /* A few bytes of a frame coming in wait for more, not long (as in drain()); its end does
     * not. */
    if (looks == 0 && handled == 0 && count == hal_uart_waiting() && count < DRAIN_LEAST &&
        (uint16_t)(now - last_taken) < DRAIN_WAIT_TICKS && !memchr(bytes, 0, count))
      return;
    last_taken = now;
    uint8_t taken = (uint8_t)frame_receiver_feed_bytes(&board.receiver, bytes, count, true, &frame);
    hal_uart_consume(taken);
    if (answer && hal_uart_waiting() < ACK_BACKLOG) {
      link_poll(&board.link, hal_ticks());
      answer = false;
    }
    if (taken == count) continue;
    /* A delimiter: the frame it ends, if any. */
    if (handled >= LINK_PROTOCOL_WINDOW) {
      frame_waiting = true; /* left for the next pass */
      break;
    }
    playback_output();
    (void)frame_receiver_feed_bytes(&board.receiver, bytes + taken, 1, false, &frame);
    hal_uart_consume(1);
    if (frame) {
      handle_frame(frame, hal_ticks());
      handled++;
      answer = true;
    }
    looks = (uint8_t)-1; /* then what came meanwhile */
  }
}

void board_poll(void) {
  hal_watchdog_kick();
  receive();
  uint32_t now = hal_ticks();

  driver_event_t event = driver_poll(now);
  if (event == DRIVER_EVENT_CALIBRATED || event == DRIVER_EVENT_CALIBRATION_FAILED) {
    board.calibration_event = (uint8_t)event;
    board.calibration_result_pending = true;
  } else if (event == DRIVER_EVENT_EFFECT_FINISHED) {
    for (uint8_t c = 0; c < BOARD_CHANNEL_COUNT; c++) {
      board.channels[c].reevaluate = true; /* drive the queues' levels again */
      board.channels[c].restage = true;
    }
  }
  if (board.calibration_result_pending && send_calibration_outcome(board.calibration_event)) {
    board.calibration_result_pending = false;
  }

  /* Host watchdog: silence for watchdog_ms stops the drive, if there is any to stop. */
  if (driving() && (uint32_t)(now - board.last_valid) >= (uint32_t)board.watchdog_ms * BOARD_TICKS_PER_MS) {
    stop_channels(0xFF);
    board.watchdog_fired = true;
  }

  /* At the time now, after the frames handled: a batch takes a few hundred microseconds to
   * decode on the AVR, and playing the frame due before it (a frame boundary passed meanwhile)
   * would put a stale drive out until the next pass (seen on the emulated H-bridge: a carrier
   * switched back to the previous frame's level for 0.2-0.7 ms, and its brakes missed). The
   * received bytes are taken between its pieces of work (drain). */
  playback_update(drain);
  drain();
  link_poll(&board.link, now);
  hal_idle_until(board_deadline(hal_ticks()));
}
