/*
 * host.h — a minimal host for the board tests: sends reliable frames in its own session
 * (SYN first), reads the board's frames from the fake UART, tracks the board's sequence to
 * acknowledge it, and runs the board loop on the virtual clock.
 */
#ifndef HOST_H
#define HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "frame.h"

typedef struct {
  frame_t frame;
  uint8_t payload[FRAME_MAX_PAYLOAD];
  uint64_t time; /* board ticks when the test took it */
} host_frame_t;

typedef struct {
  uint8_t session;
  uint8_t seq;        /* next sequence number */
  bool started;       /* our SYN went out */
  bool following;     /* we saw the board's SYN */
  uint8_t board_session;
  uint8_t board_first;   /* the first number of the board session it follows */
  uint8_t expected;   /* next board sequence number */
  bool auto_ack;      /* acknowledge the board's reliable frames as they are read */
  cobs_decoder_t decoder;
  uint8_t raw[FRAME_MAX_RAW];
  host_frame_t frames[64]; /* frames read by the last host_read */
  int count;
} host_t;

void host_init(host_t *host, uint8_t session);

/* Sends a reliable message (SYN on the first, the ack field once following). Returns the
 * sequence number used. */
uint8_t host_send(host_t *host, uint8_t type, const uint8_t *payload, uint8_t length);

/* host_send, then the board run 1 ms and its answers read (host_read). Returns the sequence
 * number used. */
uint8_t host_request(host_t *host, uint8_t type, const uint8_t *payload, uint8_t length);

/* Sends a frame exactly as given (tests of odd frames). */
void host_send_frame(const frame_t *frame);

/* Sends a pure ack for what the board sent so far. */
void host_send_ack(host_t *host);

/* Decodes what the board wrote since the last call into host->frames. Reliable in-order
 * frames advance `expected` (and are acknowledged when auto_ack is set). Returns the count. */
int host_read(host_t *host);

/* The first frame of `type` read by the last host_read, or NULL. */
const host_frame_t *host_find(const host_t *host, uint8_t type);

/* Runs the board loop until `ticks` have passed on the virtual clock, jumping from deadline
 * to deadline (the board gets polled at every time it asked for). */
void run_for(uint64_t ticks);

/* Starts the board on the fakes as they are (after fake_reset, and whatever the test changed
 * since: a driver made absent, a boot count): board_init, a host in `session`, 1 ms run and
 * the reset notice read (host->frames). */
void init_and_listen(host_t *host, uint8_t session);

/* Boots the board (fake_reset + init_and_listen, session 0x77) with the clock at `start`, then
 * sends an identify, runs 1 ms and reads its answers (the ack and capabilities in host->frames). */
void boot_and_identify(host_t *host, uint64_t start);

/* boot_and_identify, then 1 ms more and what came meanwhile read: a connected host. */
void boot_and_connect(host_t *host, uint64_t start);

/* boot_and_connect, then the host watchdog lifted to 5 s so long playbacks need no heartbeats. */
void boot_for_playback(host_t *host, uint64_t start);

/* Milliseconds in ticks. */
#define MS_TICKS(ms) ((uint64_t)(ms) * 2000u)

#endif
