/*
 * link.h — the board side of the reliable link (docs/protocol.md §4): sessions and SYN,
 * sequence numbers, cumulative and piggybacked acknowledgements, duplicate and out-of-order
 * suppression, a send window with go-back-N retransmission (RFC 6298 timer, Karn's rule, the
 * backed-off RTO kept until a valid sample), fast recovery (NAKs for gaps, answers to polls,
 * polls of its own: docs/protocol.md §4.5) and duplicate-ack fast retransmit.
 *
 * Memory: the window holds LINK_WINDOW reliable messages (type + payload, 26 bytes each).
 * Frames are built when they are (re)sent, straight into the UART buffer, so no encoded copy
 * is kept. A reliable frame from the host is only accepted while a window slot is free for
 * its possible reply; otherwise the board **holds** (v1.1, docs/protocol.md §4.5): it answers
 * with HOLD instead of taking the frame or NAKing what follows it, and says "taking frames
 * again" (a plain ack) as soon as the host's acknowledgement frees a slot — so a full window
 * never drops a reply and never starts an exchange of NAKs and resends.
 */
#ifndef LINK_H
#define LINK_H

#include <stdbool.h>
#include <stdint.h>

#include "board_config.h"
#include "frame.h"
#include "wire.h"

/* Reliable frames a sender may leave unacknowledged (§4.3): a peer's retransmitted SYN arrives
 * before we have taken more than this many frames of its session. */
#define LINK_PROTOCOL_WINDOW 8
/* Reliable frames in flight at most (the protocol allows up to 8; 4 saves RAM). */
#define LINK_WINDOW 4
/* Largest stored payload: status, 9 bytes and 8 per channel (17 with one channel, 25 with
 * two; the clock reply is 10). Capabilities are regenerated at each send. */
#define LINK_SLOT_PAYLOAD WIRE_STATUS_SIZE(BOARD_CHANNEL_COUNT)

/* Retransmission timer (§4.3), in board ticks. */
#define LINK_RTO_INITIAL (25UL * BOARD_TICKS_PER_MS)
#define LINK_RTO_MIN (25UL * BOARD_TICKS_PER_MS)
#define LINK_RTO_MAX (2000UL * BOARD_TICKS_PER_MS)
#define LINK_RTO_GRANULARITY (1UL * BOARD_TICKS_PER_MS)
/* Polls (§4.5): after max(2 SRTT, 5 ms) without an ack, at most 3 in a row unanswered (within
 * the spec's at least 2 ms and at most 6: the board sends only short replies). */
#define LINK_POLL_MIN (5UL * BOARD_TICKS_PER_MS)
#define LINK_MAX_POLLS 3
/* Consecutive timeouts without progress after which the link counts as lost. */
#define LINK_MAX_TIMEOUTS 8
/* Fast recoveries (NAK, duplicate acks) in a row without progress; then only the RTO (§4.3). */
#define LINK_MAX_FAST_RECOVERIES 3

/* Slot flags. */
#define SLOT_SYN 0x01     /* first frame of this side's session */
#define SLOT_DYNAMIC 0x02 /* payload generated at send time (capabilities) */
#define SLOT_RETX 0x04    /* sent more than once: no RTT sample (Karn) */
#define SLOT_POLLED 0x08  /* a poll went out while it was in flight: its sample runs from the poll */

typedef struct {
  uint8_t type;
  uint8_t length;
  uint8_t seq;
  uint8_t flags;
  uint32_t sent; /* ticks of the last transmission */
  uint8_t payload[LINK_SLOT_PAYLOAD];
} link_slot_t;

/* Writes a dynamic payload for `type` into `out` (WIRE_MAX_BOARD_PAYLOAD bytes); returns
 * its length. */
typedef uint8_t (*link_payload_fn)(uint8_t type, uint8_t *out);

typedef struct {
  uint8_t session;      /* ours: low byte of the boot count */
  uint8_t peer_session; /* the host's, once it sent a SYN */
  uint8_t peer_first_seq;
  bool following;       /* we follow a host session */
  uint8_t expected;     /* next sequence number expected from the host */
  uint8_t next_seq;     /* our next sequence number */
  uint8_t first_seq;    /* the first number of our current session: 0 at boot, +128 a restart */
  bool syn_next;        /* the next new reliable frame starts our session */
  bool ack_pending;     /* an ack message must go out */
  bool nak_pending;     /* ... with NAK: a gap was seen (§4.5) */
  bool stranger_nak_pending; /* a poll from a session we do not follow: NAK alone (§4.5) */
  uint8_t polls_this_session; /* polls since our session started: a NAK alone before the first
                                 answers the previous session's poll (§4.5) */
  uint8_t polls;        /* polls sent since the last progress or go-back-N */
  uint8_t poll_answers_pending; /* polls whose answers have not come back (not duplicates) */
  uint32_t last_poll;   /* ticks of the last poll (0: none since the last transmission) */
  bool delimiter_pending; /* a 0x00 goes before a retransmission burst */
  bool holding;      /* the expected frame arrived without room to answer it: acks say HOLD */
  bool peer_holding; /* the host holds our frame: no polls, no resends until its plain ack */

  link_slot_t slots[LINK_WINDOW]; /* ring */
  uint8_t head;   /* oldest unacknowledged */
  uint8_t count;  /* messages in the ring */
  uint8_t sent;   /* of those, transmitted at least once (in flight) */
  uint8_t resend; /* next slot (offset from head) to transmit */

  uint8_t duplicate_acks;
  uint8_t fast_in_a_row; /* fast recoveries since the last progress */
  uint8_t timeouts; /* consecutive, without progress */
  bool have_sample;
  uint32_t srtt, rttvar, rto;

  link_payload_fn dynamic_payload;

  /* Counters (tests and diagnostics). */
  uint16_t retransmissions;
  uint16_t duplicates;
  uint16_t out_of_order;
  uint16_t timeouts_total;
  uint16_t fast_recoveries;
  uint16_t naks_sent;
  uint16_t polls_sent;
  uint16_t holds; /* in-order frames held for lack of room */
  bool lost; /* LINK_MAX_TIMEOUTS timeouts in a row */
} link_t;

void link_init(link_t *link, uint8_t session, link_payload_fn dynamic_payload);

/* True when a reliable message can be queued. */
bool link_has_room(const link_t *link);

/* Queues a reliable message (copied); false when the window is full or it is too long. */
bool link_send(link_t *link, uint8_t type, const uint8_t *payload, uint8_t length);

/* Queues a reliable message whose payload is generated when it is sent. */
bool link_send_dynamic(link_t *link, uint8_t type);

/* Sends an unreliable frame now (e.g. the unsupportedVersion error), in `version`.
 * Dropped when the UART buffer has no room. */
void link_send_unreliable(link_t *link, uint8_t version, uint8_t type, const uint8_t *payload, uint8_t length);

typedef enum {
  LINK_IGNORE = 0,  /* nothing for the application */
  LINK_DELIVER = 1  /* deliver this frame's message */
} link_verdict_t;

/* Handles a frame of this protocol version that passed the CRC. */
link_verdict_t link_receive(link_t *link, const frame_t *frame, uint32_t now);

/* Retransmits on timeout and writes whatever is pending (acks, new frames) as the UART buffer
 * allows. Call often. */
void link_poll(link_t *link, uint32_t now);

/* When link_poll() next has timed work (a retransmission), or now + 2^30 when nothing. */
uint32_t link_deadline(const link_t *link, uint32_t now);

#endif
