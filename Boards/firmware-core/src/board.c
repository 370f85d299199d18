/*
 * board.c — the board application: boot (reset notice), message dispatch, playback of each
 * channel's queue at frame boundaries, the host watchdog, calibration and ROM effects.
 *
 * Channels: BOARD_CHANNEL_COUNT of them (board_config.h), each with its own queue and level;
 * the driver back end gets channel c's level through drive_output(). This board's back end is
 * the DRV2605L (one channel: the chip's real-time playback input).
 */
#include "board.h"

#include "board_config.h"
#include "driver.h"
#include "hal.h"
#include "playback.h"
#include "wire.h"

board_t board;

/* ---- Outgoing messages ---- */

/* Capabilities are generated when sent (they are the largest message; see link.h). */
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
  for (uint8_t c = 0; c < BOARD_CHANNEL_COUNT; c++) capabilities.channels[c].calibration = driver_calibration_state(c);
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

static bool calibrating(void) { return driver_calibrating(); }

static void handle_batch(uint8_t type, const uint8_t *payload, uint8_t length, uint32_t now) {
  wire_batch_t header;
  if (!wire_batch_begin(&header, payload, length)) {
    send_error(ERR_BAD_PAYLOAD, type, 0);
    return;
  }
  if (header.channel >= BOARD_CHANNEL_COUNT) {
    send_error(ERR_BAD_CHANNEL, type, header.channel);
    return;
  }
  if (calibrating()) {
    send_error(ERR_BUSY, type, 0);
    return;
  }
  /* `queue` and `replace` share the cut: see queue_insert_batch. */
  channel_t *channel = &board.channels[header.channel];
  queue_result_t result = queue_insert_batch(&channel->queue, payload, length, now);
  if (result.error != 0) {
    send_error(result.error, type, result.detail);
    return;
  }
  if (result.late && channel->late_segments != 0xFFFF) channel->late_segments++;
  channel->reevaluate = true;
  /* A batch that starts within the staged frames cuts them; one after them (streaming: the
   * host queues ~30 ms ahead, frames are staged 4 ms ahead) leaves them as they are. */
  if (channel->staging && time_diff(header.start_time, channel->stage_from) < 0) channel->restage = true;
}

static void handle_rom_effect(const uint8_t *payload, uint8_t length, uint32_t now) {
  wire_reader_t reader;
  wire_reader_init(&reader, payload, length);
  uint8_t channel = wire_get_u8(&reader);
  uint8_t library = wire_get_u8(&reader);
  uint8_t effect = wire_get_u8(&reader);
  uint32_t start = wire_get_u32(&reader);
  if (!wire_reader_done(&reader) || library < 1 || library > 7 || effect < 1 || effect > 123) {
    send_error(ERR_BAD_PAYLOAD, MSG_PLAY_ROM_EFFECT, 0);
  } else if (!(BOARD_FEATURES & BOARD_FEATURE_ROM_EFFECTS)) {
    send_error(ERR_NOT_SUPPORTED, MSG_PLAY_ROM_EFFECT, 0);
  } else if (channel >= BOARD_CHANNEL_COUNT) {
    send_error(ERR_BAD_CHANNEL, MSG_PLAY_ROM_EFFECT, channel);
  } else if (calibrating()) {
    send_error(ERR_BUSY, MSG_PLAY_ROM_EFFECT, 0);
  } else if (time_diff(start, now) < 0) {
    send_error(ERR_TIME_IN_PAST, MSG_PLAY_ROM_EFFECT, 0);
  } else {
    driver_play_effect(channel, library, effect, start);
  }
}

static void dispatch(const frame_t *frame, uint32_t now) {
  const uint8_t *payload = frame->payload;
  uint8_t length = frame->length;
  wire_reader_t reader;
  wire_reader_init(&reader, payload, length);
  switch (frame->type) {
    case MSG_ACK:
    case MSG_ERROR: /* an error the host reports: nothing to do */
      break;
    case MSG_IDENTIFY:
      if (length != 0) send_error(ERR_BAD_PAYLOAD, frame->type, 0);
      else (void)link_send_dynamic(&board.link, MSG_CAPABILITIES);
      break;
    case MSG_CLOCK_QUERY: {
      uint16_t id = wire_get_u16(&reader);
      if (!wire_reader_done(&reader)) {
        send_error(ERR_BAD_PAYLOAD, frame->type, 0);
        break;
      }
      uint8_t reply[10];
      wire_writer_t writer;
      wire_writer_init(&writer, reply, sizeof reply);
      wire_clock(&writer, id, hal_ticks64());
      (void)link_send(&board.link, MSG_CLOCK, reply, writer.length);
      break;
    }
    case MSG_QUEUE_SEGMENTS:
    case MSG_REPLACE_SEGMENTS:
      handle_batch(frame->type, payload, length, now);
      break;
    case MSG_STOP: {
      uint8_t mask = wire_get_u8(&reader);
      if (!wire_reader_done(&reader)) send_error(ERR_BAD_PAYLOAD, frame->type, 0);
      else stop_channels(mask);
      break;
    }
    case MSG_STATUS_REQUEST:
      if (length != 0) send_error(ERR_BAD_PAYLOAD, frame->type, 0);
      else send_status(now);
      break;
    case MSG_HEARTBEAT:
      if (length != 0) send_error(ERR_BAD_PAYLOAD, frame->type, 0);
      break;
    case MSG_CALIBRATE: {
      uint8_t channel = wire_get_u8(&reader);
      if (!wire_reader_done(&reader)) {
        send_error(ERR_BAD_PAYLOAD, frame->type, 0);
      } else if (!(BOARD_FEATURES & BOARD_FEATURE_CALIBRATION)) {
        send_error(ERR_NOT_SUPPORTED, frame->type, 0);
      } else if (channel >= BOARD_CHANNEL_COUNT) {
        send_error(ERR_BAD_CHANNEL, frame->type, channel);
      } else if (calibrating()) {
        send_error(ERR_BUSY, frame->type, 0);
      } else {
        stop_channel(channel); /* the channel plays nothing while calibrating */
        driver_calibrate(channel, now);
      }
      break;
    }
    case MSG_PLAY_ROM_EFFECT:
      handle_rom_effect(payload, length, now);
      break;
    case MSG_SET_WATCHDOG: {
      uint16_t milliseconds = wire_get_u16(&reader);
      if (!wire_reader_done(&reader) || milliseconds < 10 || milliseconds > 5000) {
        send_error(ERR_BAD_PAYLOAD, frame->type, 0);
      } else {
        board.watchdog_ms = milliseconds;
      }
      break;
    }
    default:
      /* Unknown, or a board-to-host type: acknowledged by the link, answered here. */
      if (frame->flags & FLAG_RELIABLE) send_error(ERR_UNKNOWN_MESSAGE, frame->type, 0);
      break;
  }
}

static void handle_frame(const frame_t *frame, uint32_t now) {
  board.last_valid = now; /* any frame that passes the CRC feeds the watchdog */
  playback_update();
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
  /* At the time now, not `now`: a batch takes a few hundred microseconds to decode on the
   * AVR, and playing the frame due before it (a frame boundary passed meanwhile) would put a
   * stale drive out until the next pass (seen on the emulated H-bridge: a carrier switched
   * back to the previous frame's level for 0.2-0.7 ms, and its brakes missed). */
  playback_update();
  link_poll(&board.link, now);
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
  uint32_t deadline = link_deadline(&board.link, now);
  for (uint8_t c = 0; c < BOARD_CHANNEL_COUNT; c++) {
    if (board.channels[c].reevaluate) return now;
    deadline = earliest(now, deadline, board.channels[c].next_eval);
  }
  deadline = earliest(now, deadline, driver_deadline(now));
  if (driving()) {
    deadline = earliest(now, deadline, board.last_valid + (uint32_t)board.watchdog_ms * BOARD_TICKS_PER_MS);
  }
  return deadline;
}

void board_poll(void) {
  hal_watchdog_kick();
  /* At most one frame per pass, so playback never waits behind a burst of frames. */
  int byte;
  while ((byte = hal_uart_getc()) >= 0) {
    const frame_t *frame = frame_receiver_feed(&board.receiver, (uint8_t)byte);
    if (frame) {
      handle_frame(frame, hal_ticks());
      break;
    }
  }
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

  playback_update();
  link_poll(&board.link, now);
  hal_idle_until(board_deadline(hal_ticks()));
}
