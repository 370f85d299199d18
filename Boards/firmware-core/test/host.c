/*
 * host.c — the tests' host side.
 */
#include "host.h"

#include <string.h>

#include "board.h"
#include "fake_hal.h"

void host_init(host_t *host, uint8_t session) {
  memset(host, 0, sizeof *host);
  host->session = session;
  host->auto_ack = true;
  cobs_decoder_init(&host->decoder, host->raw, FRAME_MAX_RAW, FRAME_MAX_ENCODED);
}

void host_send_frame(const frame_t *frame) {
  uint8_t wire[FRAME_MAX_ENCODED + 1];
  uint16_t length = frame_encode(frame, wire);
  fake_rx(wire, length);
}

uint8_t host_send(host_t *host, uint8_t type, const uint8_t *payload, uint8_t length) {
  frame_t frame = {PROTOCOL_VERSION, FLAG_RELIABLE, host->session, host->seq, 0, type, length, payload};
  if (!host->started) {
    frame.flags |= FLAG_SYN;
    host->started = true;
  }
  if (host->following) {
    frame.flags |= FLAG_ACK_VALID;
    frame.ack = host->expected;
  }
  host_send_frame(&frame);
  return host->seq++;
}

uint8_t host_request(host_t *host, uint8_t type, const uint8_t *payload, uint8_t length) {
  uint8_t seq = host_send(host, type, payload, length);
  run_for(MS_TICKS(1));
  host_read(host);
  return seq;
}

void host_send_ack(host_t *host) {
  frame_t frame = {PROTOCOL_VERSION, FLAG_ACK_VALID, host->session, 0, host->expected, MSG_ACK, 0, 0};
  host_send_frame(&frame);
}

int host_read(host_t *host) {
  host->count = 0;
  bool acknowledge = false;
  for (size_t i = 0; i < fake.tx_length; i++) {
    cobs_result_t result = cobs_decoder_feed(&host->decoder, fake.tx[i]);
    if (result != COBS_FRAME) continue;
    frame_t frame;
    if (!frame_parse(host->raw, host->decoder.length, &frame) || host->count >= 64) continue;
    host_frame_t *out = &host->frames[host->count++];
    out->frame = frame;
    memcpy(out->payload, frame.payload, frame.length);
    out->frame.payload = out->payload;
    out->time = fake.now;
    if (frame.flags & FLAG_RELIABLE) {
      if (frame.flags & FLAG_SYN) {
        /* A new session: another id, or (v1.1, a board restarting within one boot) another
         * first number (§4.1). */
        if (!host->following || frame.session != host->board_session || frame.seq != host->board_first) {
          host->following = true;
          host->board_session = frame.session;
          host->board_first = frame.seq;
          host->expected = frame.seq;
        }
      }
      if (host->following && frame.session == host->board_session && frame.seq == host->expected) {
        host->expected++;
      }
      acknowledge = true;
    }
  }
  fake.tx_length = 0;
  if (acknowledge && host->auto_ack) host_send_ack(host);
  return host->count;
}

const host_frame_t *host_find(const host_t *host, uint8_t type) {
  for (int i = 0; i < host->count; i++) {
    if (host->frames[i].frame.type == type) return &host->frames[i];
  }
  return 0;
}

void run_for(uint64_t ticks) {
  uint64_t end = fake.now + ticks;
  for (;;) {
    fake.idled = false;
    board_poll();
    if (fake_rx_pending() > 0) continue; /* more bytes: poll again at the same time */
    int32_t wait = (int32_t)(fake.idle_deadline - (uint32_t)fake.now);
    uint64_t next = fake.now + (uint64_t)(wait > 0 ? wait : 1);
    if (next > end) {
      if (fake.now >= end) break;
      next = end;
    }
    fake.now = next;
  }
}

void init_and_listen(host_t *host, uint8_t session) {
  board_init();
  host_init(host, session);
  run_for(MS_TICKS(1));
  host_read(host); /* the reset notice */
}

void boot_and_identify(host_t *host, uint64_t start) {
  fake_reset(start);
  init_and_listen(host, 0x77);
  host_request(host, MSG_IDENTIFY, 0, 0); /* ack, capabilities */
}

void boot_and_connect(host_t *host, uint64_t start) {
  boot_and_identify(host, start);
  run_for(MS_TICKS(1));
  host_read(host);
}

void boot_for_playback(host_t *host, uint64_t start) {
  boot_and_connect(host, start);
  const uint8_t five_seconds[] = {0x88, 0x13};
  host_send(host, MSG_SET_WATCHDOG, five_seconds, 2);
  run_for(10);
  host_read(host);
}
