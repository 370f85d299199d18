/*
 * link.c — reliable link, board side. Mirrors Sources/HapticWire/ReliableLink.swift; where the
 * board differs it says so:
 *
 *  - the window is LINK_WINDOW (4) and doubles as the queue of waiting replies;
 *  - no congestion window: a go-back-N resends as fast as the UART buffer takes the frames
 *    (the board sends few reliable frames: replies);
 *  - when the host starts its first session and our own frames are still unacknowledged (the
 *    reset notice sent at boot before anyone listened), they are resent at once with a fresh
 *    timer instead of waiting out a backed-off RTO — whatever their age (§4.1 asks for frames
 *    first sent an RTO ago; the board's only frame before first contact is that notice).
 */
#include "link.h"

#include "hal.h"
#include "wire.h"

/* The frame being sent: header + largest payload + CRC. */
static uint8_t tx_frame[1 + FRAME_HEADER_SIZE + WIRE_MAX_BOARD_PAYLOAD + 2];
#define tx_raw (tx_frame + 1) /* the raw frame, COBS-encoded in place (tx_frame[0]: its first code) */

void link_init(link_t *link, uint8_t session, link_payload_fn dynamic_payload) {
  uint8_t *bytes = (uint8_t *)link;
  for (uint16_t i = 0; i < sizeof(*link); i++) bytes[i] = 0;
  link->session = session;
  link->syn_next = true;
  link->rto = LINK_RTO_INITIAL;
  link->dynamic_payload = dynamic_payload;
}

static link_slot_t *slot_at(link_t *link, uint8_t offset) {
  uint8_t index = (uint8_t)(link->head + offset);
  if (index >= LINK_WINDOW) index = (uint8_t)(index - LINK_WINDOW);
  return &link->slots[index];
}

bool link_has_room(const link_t *link) { return link->count < LINK_WINDOW; }

static link_slot_t *new_slot(link_t *link, uint8_t type) {
  if (!link_has_room(link)) return 0;
  link_slot_t *slot = slot_at(link, link->count);
  link->count++;
  slot->type = type;
  slot->length = 0;
  slot->seq = link->next_seq++;
  slot->flags = 0;
  if (link->syn_next) {
    slot->flags |= SLOT_SYN;
    link->syn_next = false;
  }
  return slot;
}

bool link_send(link_t *link, uint8_t type, const uint8_t *payload, uint8_t length) {
  if (length > LINK_SLOT_PAYLOAD) return false;
  link_slot_t *slot = new_slot(link, type);
  if (!slot) return false;
  for (uint8_t i = 0; i < length; i++) slot->payload[i] = payload[i];
  slot->length = length;
  return true;
}

bool link_send_dynamic(link_t *link, uint8_t type) {
  link_slot_t *slot = new_slot(link, type);
  if (!slot) return false;
  slot->flags |= SLOT_DYNAMIC;
  return true;
}

/* Header fields every frame of ours carries: our session and the piggybacked ack. */
static void fill_header(const link_t *link, frame_t *frame, uint8_t flags) {
  frame->version = PROTOCOL_VERSION;
  frame->flags = flags;
  frame->session = link->session;
  frame->seq = 0;
  frame->ack = 0;
  if (link->following) {
    frame->flags |= FLAG_ACK_VALID;
    frame->ack = link->expected;
  }
}

/* Builds a frame into tx_raw and writes it if the UART buffer has room: encoded in place, then
 * queued in one write (a call per byte cost ~60 cycles a byte on the AVR). */
static bool transmit(const frame_t *frame) {
  uint16_t raw_length = frame_build(tx_raw, frame);
  if (hal_uart_tx_free() < FRAME_WIRE_SIZE(raw_length)) return false;
  hal_uart_write(tx_frame, (uint8_t)cobs_encode_in_place(tx_frame, raw_length));
  hal_uart_putc(0);
  return true;
}

void link_send_unreliable(link_t *link, uint8_t version, uint8_t type, const uint8_t *payload, uint8_t length) {
  frame_t frame;
  fill_header(link, &frame, 0);
  frame.version = version;
  frame.type = type;
  frame.length = length;
  frame.payload = payload;
  (void)transmit(&frame);
}

/* RFC 6298 estimate in ticks: RTO = SRTT + max(4 RTTVAR, G), clamped. */
static void update_rto(link_t *link) {
  uint32_t variance = 4 * link->rttvar;
  if (variance < LINK_RTO_GRANULARITY) variance = LINK_RTO_GRANULARITY;
  uint32_t rto = link->srtt + variance;
  if (rto < LINK_RTO_MIN) rto = LINK_RTO_MIN;
  if (rto > LINK_RTO_MAX) rto = LINK_RTO_MAX;
  link->rto = rto;
}

static void sample_rtt(link_t *link, uint32_t rtt) {
  if (rtt > 2 * LINK_RTO_MAX) rtt = 2 * LINK_RTO_MAX;
  if (!link->have_sample) {
    link->srtt = rtt;
    link->rttvar = rtt / 2;
    link->have_sample = true;
  } else {
    uint32_t difference = link->srtt > rtt ? link->srtt - rtt : rtt - link->srtt;
    link->rttvar = (3 * link->rttvar + difference) / 4;
    link->srtt = (7 * link->srtt + rtt) / 8;
  }
  update_rto(link);
}

/* Back to the estimate (or to the initial value before any sample): only on first contact and
 * a session restart; progress alone keeps a backed-off RTO until a valid sample (§4.3). */
static void reset_backoff(link_t *link) {
  if (link->have_sample) {
    update_rto(link);
  } else {
    link->rto = LINK_RTO_INITIAL;
  }
}

/* Go-back-N: every frame in flight goes out again, after a delimiter; polls start over. */
static void retransmit_all(link_t *link) {
  for (uint8_t i = 0; i < link->sent; i++) slot_at(link, i)->flags |= SLOT_RETX;
  link->resend = 0;
  link->delimiter_pending = true;
  link->polls = 0;
  link->last_poll = 0;
}

/* A NAK or duplicate acks: resend now, unless the oldest frame was resent less than one SRTT
 * ago (the NAK then answers something sent before the copy could arrive). */
static void fast_retransmit(link_t *link, uint32_t now) {
  link_slot_t *first = slot_at(link, 0);
  if ((first->flags & SLOT_RETX) && link->resend > 0 && (uint32_t)(now - first->sent) < link->srtt) return;
  /* A few in a row without progress, then only the RTO, which backs off (§4.3). */
  if (link->fast_in_a_row >= LINK_MAX_FAST_RECOVERIES) return;
  link->fast_in_a_row++;
  link->fast_recoveries++;
  retransmit_all(link);
}

static void process_ack(link_t *link, const frame_t *frame, uint32_t now) {
  if (link->sent == 0) return;
  uint8_t ack = frame->ack;
  bool nak = (frame->flags & FLAG_NAK) != 0;
  bool is_ack = !(frame->flags & FLAG_RELIABLE) && frame->type == MSG_ACK;
  bool holds = is_ack && (frame->flags & FLAG_HOLD);
  /* Duplicate acks count from pure acks only (not piggybacked ones, not polls), as TCP does. */
  bool pure_ack = is_ack && !(frame->flags & FLAG_POLL);
  uint8_t first = slot_at(link, 0)->seq;
  uint8_t acknowledged = (uint8_t)(ack - first);
  if (acknowledged > 0 && acknowledged <= link->sent) {
    link_slot_t *newest = slot_at(link, (uint8_t)(acknowledged - 1));
    /* Karn's rule: not from a frame resent. v1.1 (§4.3): after a poll, timed from the poll
     * (answered at once), not from the frame: a lost ack's wait for the poll is no round trip. */
    if (!(newest->flags & SLOT_RETX)) {
      uint32_t from = newest->sent;
      if ((newest->flags & SLOT_POLLED) && link->last_poll != 0 && (int32_t)(link->last_poll - from) > 0)
        from = link->last_poll;
      /* last_poll is `now | 1`: one tick ahead of an even `now` in the same tick. */
      sample_rtt(link, (int32_t)(now - from) > 0 ? now - from : 0);
    }
    link->head = (uint8_t)((link->head + acknowledged) % LINK_WINDOW);
    link->count = (uint8_t)(link->count - acknowledged);
    link->sent = (uint8_t)(link->sent - acknowledged);
    link->resend = link->resend > acknowledged ? (uint8_t)(link->resend - acknowledged) : 0;
    link->duplicate_acks = 0;
    link->fast_in_a_row = 0;
    link->timeouts = 0;
    link->lost = false;
    link->last_poll = 0;
    link->polls = 0; /* polls count from the last progress, not from the last frame heard (§4.5) */
    if (link->holding) {
      /* Room again: take the held frame when it comes, and say so now ("taking frames again"). */
      link->holding = false;
      link->ack_pending = true;
    }
    if (holds) {
      link->peer_holding = link->sent > 0;
    } else if (link->peer_holding) {
      link->peer_holding = false;
      if (link->sent > 0) retransmit_all(link);
    } else if (nak && link->sent > 0) {
      fast_retransmit(link, now);
    }
  } else if (ack == first) {
    bool poll_answer = pure_ack && link->poll_answers_pending > 0;
    /* The answer to a poll of ours repeats the acknowledgement: not a duplicate (§4.5). */
    if (poll_answer) link->poll_answers_pending--;
    if (holds) {
      link->peer_holding = true; /* no loss: the host takes it once it can answer */
    } else if (link->peer_holding) {
      /* "Taking frames again" is an ack message without HOLD; other frames repeat the ack. */
      if (pure_ack) {
        link->peer_holding = false;
        retransmit_all(link);
      }
    } else if (nak) {
      fast_retransmit(link, now);
    } else if (pure_ack && !poll_answer && ++link->duplicate_acks == 2) {
      fast_retransmit(link, now);
    }
  }
}

/* The host (re)started while we followed it: start a new session of our own, renumbering
 * and resending every message it has not acknowledged (§4.1). v1.1: it starts 128 after the
 * previous session's first number (0 at boot, then 128, 0, ...), so a host that followed the
 * previous one never takes its SYN for a retransmission of the old SYN. */
static void restart_session(link_t *link) {
  link->first_seq = (uint8_t)(link->first_seq + 128);
  link->polls_this_session = 0;
  for (uint8_t i = 0; i < link->count; i++) {
    link_slot_t *slot = slot_at(link, i);
    slot->seq = (uint8_t)(link->first_seq + i);
    slot->flags = (uint8_t)(slot->flags & SLOT_DYNAMIC);
    if (i == 0) slot->flags |= SLOT_SYN;
  }
  link->next_seq = (uint8_t)(link->first_seq + link->count);
  link->syn_next = link->count == 0;
  link->sent = 0;
  link->resend = 0;
  link->duplicate_acks = 0;
  link->fast_in_a_row = 0;
  link->poll_answers_pending = 0;
  link->timeouts = 0;
  link->holding = false;
  link->peer_holding = false;
  reset_backoff(link);
}

/* When a poll is due (§4.5): a host session followed (no one else would answer), frames in
 * flight, all transmitted, fewer than LINK_MAX_POLLS unanswered; max(2 SRTT, 5 ms) after the newest left (or after the last poll). */
static bool poll_due(const link_t *link, uint32_t *at) {
  if (!link->following || link->peer_holding || link->sent == 0 || link->resend < link->sent ||
      link->polls >= LINK_MAX_POLLS)
    return false;
  const link_slot_t *newest = slot_at((link_t *)link, (uint8_t)(link->sent - 1));
  uint32_t base = newest->sent;
  if (link->last_poll != 0 && (int32_t)(link->last_poll - base) > 0) base = link->last_poll;
  uint32_t timeout = 2 * link->srtt;
  if (timeout < LINK_POLL_MIN) timeout = LINK_POLL_MIN;
  *at = base + timeout;
  return true;
}

link_verdict_t link_receive(link_t *link, const frame_t *frame, uint32_t now) {
  bool reliable = (frame->flags & FLAG_RELIABLE) != 0;
  bool starts_session = reliable && (frame->flags & FLAG_SYN);
  /* Stale: another session without SYN (acks included) — but a poll gets "I follow none of your
   * sessions" (NAK without ACK_VALID), so its sender resends its SYN at once (§4.5). */
  if (!starts_session && link->following && frame->session != link->peer_session) {
    if (!reliable && frame->type == MSG_ACK && (frame->flags & FLAG_POLL)) link->stranger_nak_pending = true;
    return LINK_IGNORE;
  }
  if (frame->flags & FLAG_ACK_VALID) {
    process_ack(link, frame, now);
  } else if ((frame->flags & FLAG_NAK) && frame->type == MSG_ACK && link->polls_this_session > 0) {
    /* The host follows none of our sessions (our SYN was lost, or the host is new): start ours
     * again, renumbered from a SYN. Only a NAK alone that can answer a poll of this session:
     * those before its first poll answer the previous session's (the line keeps order, §4.5). */
    link->fast_recoveries++;
    restart_session(link);
    link->delimiter_pending = true;
  }
  if (!reliable) {
    if (frame->type != MSG_ACK) return LINK_DELIVER;
    if (frame->flags & FLAG_POLL) {
      /* A poll: answer at once; behind the host's next number means frames went missing, and
       * following none of its sessions (its SYN was lost) means all of them did. */
      link->ack_pending = true;
      /* Holding, the frame the host polls about is here, not missing: the answer says HOLD. */
      if (!link->following || (!link->holding && (int8_t)(uint8_t)(frame->seq - link->expected) > 0))
        link->nak_pending = true;
    }
    return LINK_IGNORE;
  }

  if (starts_session) {
    /* The same session only if it is the SYN that started it, at most a window behind: a new
     * host process may draw the previous one's session id (1 in 255), not also its first
     * number within reach of where the old session stood (§4.1). */
    if (link->following && frame->session == link->peer_session && frame->seq == link->peer_first_seq &&
        (uint8_t)(link->expected - frame->seq) <= LINK_PROTOCOL_WINDOW) {
      if ((int8_t)(uint8_t)(frame->seq - link->expected) < 0) {
        /* A retransmitted SYN of the session we follow. */
        link->duplicates++;
        link->ack_pending = true;
        return LINK_IGNORE;
      }
    } else {
      if (link->following) {
        restart_session(link);
      } else if (link->sent > 0) {
        /* First contact: what we sent before anyone listened goes out again now. */
        retransmit_all(link);
        link->timeouts = 0;
        reset_backoff(link);
      }
      link->following = true;
      link->peer_session = frame->session;
      link->peer_first_seq = frame->seq;
      link->expected = frame->seq;
    }
  }
  if (!link->following) return LINK_IGNORE; /* no session yet: wait for a SYN */
  link->ack_pending = true;
  if (frame->seq == link->expected) {
    /* No room for a reply: hold it (§4.5) — the host resends it when our "taking frames again"
     * comes, after its acknowledgement has freed a slot. Not a gap: no NAK. */
    if (!link_has_room(link)) {
      if (!link->holding) link->holds++;
      link->holding = true;
      link->nak_pending = false;
      return LINK_IGNORE;
    }
    link->holding = false;
    link->expected++;
    link->nak_pending = false; /* the gap, if any, is filled */
    return LINK_DELIVER;
  }
  if ((int8_t)(uint8_t)(frame->seq - link->expected) < 0) {
    link->duplicates++;
  } else {
    link->out_of_order++;
    /* A gap: ask for it at once (§4.5); but while holding, what follows the held frame was
     * sent behind it and comes again after it. */
    if (!link->holding) link->nak_pending = true;
  }
  return LINK_IGNORE;
}

void link_poll(link_t *link, uint32_t now) {
  /* Retransmission timeout of the oldest frame in flight. */
  if (link->sent > 0 && link->resend > 0) {
    link_slot_t *oldest = slot_at(link, 0);
    if ((uint32_t)(now - oldest->sent) >= link->rto) {
      link->timeouts_total++;
      if (++link->timeouts >= LINK_MAX_TIMEOUTS) {
        link->lost = true;
        link->timeouts = 0;
      }
      link->rto = link->rto * 2 > LINK_RTO_MAX ? LINK_RTO_MAX : link->rto * 2;
      link->poll_answers_pending = 0; /* a new round */
      retransmit_all(link);
    }
  }
  if (link->delimiter_pending) {
    if (hal_uart_tx_free() < 1) return;
    hal_uart_putc(0);
    link->delimiter_pending = false;
  }
  frame_t frame;
  if (link->ack_pending && (link->following || link->nak_pending)) {
    fill_header(link, &frame, link->nak_pending ? FLAG_NAK : link->holding ? FLAG_HOLD : 0);
    frame.type = MSG_ACK;
    frame.length = 0;
    frame.payload = 0;
    if (!transmit(&frame)) return;
    if (link->nak_pending) link->naks_sent++;
    link->ack_pending = false;
    link->nak_pending = false;
  }
  if (link->stranger_nak_pending) {
    frame.version = PROTOCOL_VERSION;
    frame.flags = FLAG_NAK;
    frame.session = link->session;
    frame.seq = 0;
    frame.ack = 0;
    frame.type = MSG_ACK;
    frame.length = 0;
    frame.payload = 0;
    if (!transmit(&frame)) return;
    link->stranger_nak_pending = false;
    link->naks_sent++;
  }
  uint32_t poll_at;
  if (poll_due(link, &poll_at) && (int32_t)(now - poll_at) >= 0) {
    /* Nothing acknowledged for the poll timeout: ask the host for its ack (§4.5). */
    fill_header(link, &frame, (uint8_t)(FLAG_POLL | (link->holding ? FLAG_HOLD : 0)));
    frame.seq = link->next_seq;
    frame.type = MSG_ACK;
    frame.length = 0;
    frame.payload = 0;
    if (!transmit(&frame)) return;
    /* Its answer acknowledges what is in flight a poll timeout late: their samples run from here. */
    for (uint8_t i = 0; i < link->sent; i++) slot_at(link, i)->flags |= SLOT_POLLED;
    link->polls++;
    if (link->polls_this_session < 255) link->polls_this_session++;
    if (link->poll_answers_pending < LINK_MAX_POLLS) link->poll_answers_pending++;
    link->polls_sent++;
    link->last_poll = now | 1; /* never 0: 0 means "none since the last transmission" */
  }
  /* Messages not yet (re)sent, in order. */
  while (link->resend < link->count) {
    link_slot_t *slot = slot_at(link, link->resend);
    fill_header(link, &frame, FLAG_RELIABLE);
    if (slot->flags & SLOT_SYN) frame.flags |= FLAG_SYN;
    frame.seq = slot->seq;
    frame.type = slot->type;
    if (slot->flags & SLOT_DYNAMIC) {
      frame.length = link->dynamic_payload ? link->dynamic_payload(slot->type, tx_raw + FRAME_HEADER_SIZE) : 0;
      frame.payload = tx_raw + FRAME_HEADER_SIZE;
    } else {
      frame.length = slot->length;
      frame.payload = slot->payload;
    }
    if (!transmit(&frame)) return;
    slot->sent = now;
    /* A first transmission extends what is in flight; a resend was marked SLOT_RETX. */
    if (link->resend >= link->sent) link->sent = (uint8_t)(link->resend + 1);
    link->resend++;
  }
}

uint32_t link_deadline(const link_t *link, uint32_t now) {
  if (link->sent == 0) return now + 0x40000000UL;
  const link_slot_t *oldest = &link->slots[link->head];
  uint32_t deadline = oldest->sent + link->rto;
  uint32_t poll_at;
  if (poll_due(link, &poll_at) && (int32_t)(poll_at - deadline) < 0) deadline = poll_at;
  return deadline;
}
