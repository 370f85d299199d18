/*
 * test_link.c — the reliable link as the host sees it through the board (fake HAL, virtual
 * clock): reset notice with SYN, acknowledgements, duplicates, order, CRC, versions, unknown
 * types, retransmission, sessions and the window.
 */
#include <string.h>

#include "board.h"
#include "fake_hal.h"
#include "host.h"
#include "test.h"
#include "wire.h"

static void reset_notice_first_with_syn(void) {
  host_t host;
  fake_reset(1000);
  fake.eeprom_boot = 41;
  fake.reset_cause = 4;
  init_and_listen(&host, 0x77);
  CHECK_EQ(host.count, 1);
  const frame_t *f = &host.frames[0].frame;
  CHECK_EQ(f->type, MSG_RESET_NOTICE);
  CHECK_EQ(f->flags, FLAG_RELIABLE | FLAG_SYN); /* no session followed yet: no ACK_VALID */
  CHECK_EQ(f->seq, 0);
  CHECK_EQ(f->session, 42); /* low byte of the boot count */
  CHECK_EQ(f->length, 3);
  CHECK_EQ(le16(f->payload), 42);
  CHECK_EQ(f->payload[2], 4);
  CHECK_EQ(fake.eeprom_boot, 42);
}

static void identify_answers_capabilities(void) {
  host_t host;
  boot_and_identify(&host, 1000);
  const host_frame_t *ack = host_find(&host, MSG_ACK);
  const host_frame_t *caps = host_find(&host, MSG_CAPABILITIES);
  CHECK(ack != NULL && caps != NULL);
  if (!ack || !caps) return;
  CHECK_EQ(ack->frame.flags, FLAG_ACK_VALID);
  CHECK_EQ(ack->frame.ack, 1);
  CHECK_EQ(caps->frame.flags, FLAG_RELIABLE | FLAG_ACK_VALID); /* piggybacked ack */
  CHECK_EQ(caps->frame.ack, 1);
  CHECK_EQ(caps->frame.seq, 1);
  /* Every field as this board's board_config.h has it (§6.3). */
  const uint8_t *p = caps->payload;
  CHECK_EQ(p[0], PROTOCOL_VERSION);
  p++;
  const char *const strings[] = {FIRMWARE_NAME, FIRMWARE_VERSION, BOARD_ID};
  for (int s = 0; s < 3; s++) {
    CHECK(p[0] == strlen(strings[s]) && memcmp(p + 1, strings[s], p[0]) == 0);
    p += 1 + p[0];
  }
  CHECK_EQ(le16(p), 1);                 /* boot count */
  CHECK_EQ(le32(p + 2), BOARD_CLOCK_HZ);
  CHECK_EQ(le16(p + 6), BOARD_FRAME_PERIOD_US);
  CHECK_EQ(le16(p + 8), BOARD_QUEUE_DEPTH);
  CHECK_EQ(le16(p + 10), BOARD_WATCHDOG_MS_DEFAULT);
  CHECK_EQ(le16(p + 12), BOARD_FEATURES);
  CHECK_EQ(p[14], BOARD_CHANNEL_COUNT);
  const wire_channel_info_t channels[BOARD_CHANNEL_COUNT] = BOARD_CHANNEL_INFO;
  p += 15;
  for (int c = 0; c < BOARD_CHANNEL_COUNT; c++, p += 11) {
    CHECK_EQ(p[0], channels[c].kind);
    CHECK_EQ(le16(p + 1), channels[c].f0_x10);
    CHECK_EQ(le16(p + 3), channels[c].q_x100);
    CHECK_EQ(le16(p + 5), channels[c].freq_min);
    CHECK_EQ(le16(p + 7), channels[c].freq_max);
    CHECK_EQ(p[9], channels[c].amplitude_bits);
    CHECK_EQ(p[10], (BOARD_FEATURES & BOARD_FEATURE_CALIBRATION) ? 1 : 0); /* uncalibrated */
  }
  CHECK_EQ(caps->frame.length, p - caps->payload);
}

static void clock_query_echoes_id(void) {
  host_t host;
  boot_and_connect(&host, 5000000);
  const uint8_t query[] = {0x34, 0x12};
  host_send(&host, MSG_CLOCK_QUERY, query, 2);
  fake.now += 7;
  uint64_t expected = fake.now;
  board_poll();
  host_read(&host);
  const host_frame_t *clock = host_find(&host, MSG_CLOCK);
  CHECK(clock != NULL);
  if (!clock) return;
  CHECK_EQ(clock->frame.length, 10);
  CHECK_EQ(le16(clock->payload), 0x1234);
  CHECK_EQ(le32(clock->payload + 2), (uint32_t)expected);
  CHECK_EQ(le32(clock->payload + 6), (uint32_t)(expected >> 32));
}

static void duplicates_and_out_of_order_are_dropped(void) {
  host_t host;
  boot_and_connect(&host, 1000);
  /* Send a clock query twice with the same sequence number. */
  const uint8_t query[] = {1, 0};
  uint8_t seq = host_request(&host, MSG_CLOCK_QUERY, query, 2);
  CHECK(host_find(&host, MSG_CLOCK) != NULL);
  frame_t again = {1, FLAG_RELIABLE | FLAG_ACK_VALID, host.session, seq, host.expected, MSG_CLOCK_QUERY, 2, query};
  host_send_frame(&again);
  run_for(MS_TICKS(1));
  host_read(&host);
  CHECK(host_find(&host, MSG_CLOCK) == NULL);         /* not delivered twice */
  const host_frame_t *ack = host_find(&host, MSG_ACK); /* but acknowledged */
  CHECK(ack != NULL && ack->frame.ack == (uint8_t)(seq + 1));
  /* A frame ahead of the expected one is dropped; the ack repeats the expected number. */
  frame_t ahead = {1, FLAG_RELIABLE | FLAG_ACK_VALID, host.session, (uint8_t)(seq + 2), host.expected, MSG_CLOCK_QUERY, 2, query};
  host_send_frame(&ahead);
  run_for(MS_TICKS(1));
  host_read(&host);
  CHECK(host_find(&host, MSG_CLOCK) == NULL);
  ack = host_find(&host, MSG_ACK);
  CHECK(ack != NULL && ack->frame.ack == (uint8_t)(seq + 1));
  CHECK_EQ(board.link.duplicates, 1);
  CHECK_EQ(board.link.out_of_order, 1);
}

static void bad_crc_is_ignored_and_counted(void) {
  host_t host;
  boot_and_connect(&host, 1000);
  uint8_t wire[FRAME_MAX_ENCODED + 1];
  const uint8_t query[] = {9, 9};
  frame_t frame = {1, FLAG_RELIABLE | FLAG_ACK_VALID, host.session, host.seq, host.expected, MSG_CLOCK_QUERY, 2, query};
  uint16_t length = frame_encode(&frame, wire);
  wire[4] ^= 0x40; /* corrupt a header byte (the ack field) */
  fake_rx(wire, length);
  const uint8_t garbage[] = {0x55, 0x13, 0x00};
  fake_rx(garbage, sizeof garbage);
  run_for(MS_TICKS(1));
  CHECK_EQ(host_read(&host), 0); /* silence: nothing delivered, nothing acknowledged */
  host_request(&host, MSG_STATUS_REQUEST, 0, 0);
  const host_frame_t *status = host_find(&host, MSG_STATUS);
  CHECK(status != NULL);
  if (status) CHECK_EQ(le16(status->payload + 6), 2); /* badFrames */
}

static void unknown_type_is_acked_and_answered(void) {
  host_t host;
  boot_and_connect(&host, 1000);
  uint8_t seq = host_request(&host, 0x42, (const uint8_t *)"xy", 2);
  const host_frame_t *ack = host_find(&host, MSG_ACK);
  const host_frame_t *error = host_find(&host, MSG_ERROR);
  CHECK(ack != NULL && ack->frame.ack == (uint8_t)(seq + 1));
  CHECK(error != NULL);
  if (!error) return;
  CHECK(error->frame.flags & FLAG_RELIABLE);
  CHECK_EQ(error->frame.length, 4);
  CHECK_EQ(error->payload[0], 2);    /* unknownMessage */
  CHECK_EQ(error->payload[1], 0x42); /* messageType */
  CHECK_EQ(le16(error->payload + 2), 0);
}

static void other_version_gets_unreliable_error(void) {
  host_t host;
  boot_and_connect(&host, 1000);
  uint8_t expected_before = board.link.expected;
  frame_t v2 = {2, FLAG_RELIABLE | FLAG_ACK_VALID, host.session, host.seq, host.expected, MSG_IDENTIFY, 0, 0};
  host_send_frame(&v2);
  run_for(MS_TICKS(1));
  CHECK_EQ(host_read(&host), 1);
  const frame_t *f = &host.frames[0].frame;
  CHECK_EQ(f->version, 1);
  CHECK_EQ(f->type, MSG_ERROR);
  CHECK(!(f->flags & FLAG_RELIABLE)); /* unreliable: never retransmitted */
  CHECK_EQ(host.frames[0].payload[0], 1); /* unsupportedVersion */
  CHECK_EQ(host.frames[0].payload[1], MSG_IDENTIFY);
  CHECK_EQ(le16(host.frames[0].payload + 2), 1); /* the board's own version */
  CHECK_EQ(board.link.expected, expected_before); /* neither delivered nor acknowledged */
  CHECK(host_find(&host, MSG_ACK) == NULL);
}

static void unacknowledged_frames_are_retransmitted(void) {
  host_t host;
  boot_and_connect(&host, 1000);
  host.auto_ack = false;
  const uint8_t query[] = {5, 0};
  host_request(&host, MSG_CLOCK_QUERY, query, 2);
  const host_frame_t *first = host_find(&host, MSG_CLOCK);
  CHECK(first != NULL);
  if (!first) return;
  uint8_t seq = first->frame.seq;
  uint64_t sent = fake.now - MS_TICKS(1);
  /* Initial RTO (no sample yet... the capabilities gave one: the RTO is at its 25 ms floor). */
  CHECK_EQ(board.link.rto, MS_TICKS(25));
  /* Unacknowledged: polls after 5, 10 and 15 ms (max(2 SRTT, 5 ms); 3 in a row), each an ack
   * with POLL and the board's next sequence number (§4.5). */
  run_for(MS_TICKS(23));
  CHECK_EQ(host_read(&host), 3);
  for (int i = 0; i < 3 && i < host.count; i++) {
    CHECK_EQ(host.frames[i].frame.type, MSG_ACK);
    CHECK_EQ(host.frames[i].frame.flags, FLAG_ACK_VALID | FLAG_POLL);
    CHECK_EQ(host.frames[i].frame.seq, (uint8_t)(seq + 1));
  }
  run_for(MS_TICKS(3));
  CHECK(fake.tx_length > 0 && fake.tx[0] == 0x00); /* a delimiter before the burst */
  host_read(&host);
  const host_frame_t *again = host_find(&host, MSG_CLOCK);
  CHECK(again != NULL && again->frame.seq == seq && memcmp(again->payload, first->payload, 10) == 0);
  (void)sent;
  /* Exponential backoff: the next retransmission comes 50 ms later (three polls before it). */
  CHECK_EQ(board.link.rto, MS_TICKS(50));
  run_for(MS_TICKS(47));
  CHECK_EQ(host_read(&host), 3);
  CHECK(host_find(&host, MSG_CLOCK) == NULL);
  run_for(MS_TICKS(2));
  host_read(&host);
  CHECK(host_find(&host, MSG_CLOCK) != NULL);
  /* Acknowledged: quiet from then on. An ack of a resent frame gives no sample (Karn), so the
   * backed-off RTO stays (RFC 6298 §5.7) ... */
  host_send_ack(&host);
  run_for(MS_TICKS(300));
  CHECK_EQ(host_read(&host), 0);
  CHECK_EQ(board.link.sent, 0);
  CHECK_EQ(board.link.rto, MS_TICKS(100));
  /* ... until a frame sent once is acknowledged: back to the estimate. */
  host.auto_ack = true;
  host_request(&host, MSG_STATUS_REQUEST, 0, 0);
  board_poll();
  CHECK_EQ(board.link.rto, MS_TICKS(25));
}

/* A poll (`flags`, seq 1) from a host in `session` whose SYN the board never got: the board's
 * answer, read by `stranger` (a new host in that session). */
static const host_frame_t *stranger_poll(host_t *stranger, uint8_t session, uint8_t flags) {
  frame_t poll = {1, flags, session, 1, 0, MSG_ACK, 0, 0};
  host_send_frame(&poll);
  run_for(MS_TICKS(1));
  host_init(stranger, session);
  host_read(stranger);
  return host_find(stranger, MSG_ACK);
}

/* A gap gets a NAK at once; a poll gets the ack at once, NAK when frames went missing; a NAK
 * from the host resends at once (§4.5). */
static void fast_recovery_with_nak_and_poll(void) {
  host_t host;
  boot_and_connect(&host, 1000);
  const uint8_t query[] = {1, 0};
  /* The host's frame seq+1 arrives, seq is lost: the ack names seq, with NAK. */
  uint8_t seq = host.seq;
  host.seq++;
  frame_t ahead = {1, FLAG_RELIABLE | FLAG_ACK_VALID, host.session, (uint8_t)(seq + 1), host.expected, MSG_CLOCK_QUERY, 2, query};
  host_send_frame(&ahead);
  run_for(MS_TICKS(1));
  host_read(&host);
  const host_frame_t *nak = host_find(&host, MSG_ACK);
  CHECK(nak != NULL && nak->frame.ack == seq && nak->frame.flags == (FLAG_ACK_VALID | FLAG_NAK));
  CHECK_EQ(board.link.naks_sent, 1);
  /* A poll saying the host sent up to seq+1: NAK again. */
  frame_t poll = {1, FLAG_ACK_VALID | FLAG_POLL, host.session, (uint8_t)(seq + 2), host.expected, MSG_ACK, 0, 0};
  host_send_frame(&poll);
  run_for(MS_TICKS(1));
  host_read(&host);
  nak = host_find(&host, MSG_ACK);
  CHECK(nak != NULL && nak->frame.ack == seq && (nak->frame.flags & FLAG_NAK));
  /* The host resends from seq: delivered in order, the ack is plain. */
  frame_t missing = {1, FLAG_RELIABLE | FLAG_ACK_VALID, host.session, seq, host.expected, MSG_CLOCK_QUERY, 2, query};
  host_send_frame(&missing);
  host_send_frame(&ahead);
  run_for(MS_TICKS(1));
  host_read(&host);
  /* Acks go out as the frames are taken (one per frame here): none with NAK, the last names
   * seq+2. */
  const host_frame_t *ack = NULL;
  for (int i = 0; i < host.count; i++) {
    if (host.frames[i].frame.type != MSG_ACK) continue;
    ack = &host.frames[i];
    CHECK_EQ(ack->frame.flags, FLAG_ACK_VALID);
  }
  CHECK(ack != NULL && ack->frame.ack == (uint8_t)(seq + 2));
  /* A poll with nothing missing: a plain ack at once. */
  poll.seq = (uint8_t)(seq + 2);
  poll.ack = host.expected;
  host_send_frame(&poll);
  run_for(MS_TICKS(1));
  host_read(&host);
  ack = host_find(&host, MSG_ACK);
  CHECK(ack != NULL && ack->frame.ack == (uint8_t)(seq + 2) && ack->frame.flags == FLAG_ACK_VALID);
  /* The board's own frame is lost: the host's NAK resends it at once, long before the RTO. */
  host.seq = (uint8_t)(seq + 2);
  host.auto_ack = false;
  host_request(&host, MSG_STATUS_REQUEST, 0, 0);
  const host_frame_t *status = host_find(&host, MSG_STATUS);
  CHECK(status != NULL);
  if (!status) return;
  frame_t host_nak = {1, FLAG_ACK_VALID | FLAG_NAK, host.session, 0, status->frame.seq, MSG_ACK, 0, 0};
  host_send_frame(&host_nak);
  run_for(20);
  host_read(&host);
  CHECK(host_find(&host, MSG_STATUS) != NULL);
  CHECK_EQ(board.link.fast_recoveries, 1);
  /* A poll from a host whose SYN never arrived (a session the board does not follow, before
   * any): the answer is a NAK without ACK_VALID, "I follow none of your sessions". */
  fake_reset(1000);
  board_init();
  run_for(MS_TICKS(1));
  host_t other;
  const host_frame_t *none = stranger_poll(&other, 0x55, FLAG_POLL);
  CHECK(none != NULL && none->frame.flags == FLAG_NAK);
  /* A board following one host (a probe) polled by another whose SYN was lost: NAK alone too,
   * not an ack of the first host's numbers. */
  host_t first;
  boot_and_connect(&first, 1000);
  host_t second;
  const host_frame_t *answer = stranger_poll(&second, 0x56, FLAG_ACK_VALID | FLAG_POLL);
  CHECK(answer != NULL && answer->frame.flags == FLAG_NAK && answer->frame.ack == 0);
}

/* A status request whose answer the host acknowledges 4 ms after sending it (before the board
 * polls, at max(2 SRTT, 5 ms): a frame sent once and not polled for gives a sample). */
static void round_trip_of_4_ms(host_t *host) {
  host_request(host, MSG_STATUS_REQUEST, 0, 0);
  run_for(MS_TICKS(3));
  host_send_ack(host);
  board_poll();
}

static void rto_follows_round_trips(void) {
  host_t host;
  boot_and_connect(&host, 1000);
  /* Two samples of 1 ms so far (reset notice, capabilities): SRTT 1 ms, RTTVAR 0.375 ms. */
  CHECK_EQ(board.link.srtt, MS_TICKS(1));
  CHECK_EQ(board.link.rttvar, 750);
  CHECK_EQ(board.link.rto, MS_TICKS(25)); /* the floor */
  host.auto_ack = false;
  round_trip_of_4_ms(&host);
  /* RTTVAR = (3 * 750 + |2000 - 8000|) / 4 = 2062, SRTT = (7 * 2000 + 8000) / 8 = 2750;
   * SRTT + 4 RTTVAR = 5.5 ms: clamped to the 25 ms floor. */
  CHECK_EQ(board.link.rttvar, 2062);
  CHECK_EQ(board.link.srtt, 2750);
  CHECK_EQ(board.link.rto, MS_TICKS(25));
  /* A second 4 ms sample: RTTVAR = (3 * 2062 + 5250) / 4 = 2859, SRTT = (7 * 2750 + 8000) / 8
   * = 3406; RTO 3406 + 4 * 2859 = 14842 ticks, still the floor. */
  round_trip_of_4_ms(&host);
  CHECK_EQ(board.link.rttvar, 2859);
  CHECK_EQ(board.link.srtt, 3406);
  CHECK_EQ(board.link.rto, MS_TICKS(25));
}

/* A connected host that asks for a status and does not acknowledge the answer. */
static void status_left_unacknowledged(host_t *host) {
  boot_and_connect(host, 1000);
  host->auto_ack = false;
  host_request(host, MSG_STATUS_REQUEST, 0, 0);
  CHECK(host_find(host, MSG_STATUS) != NULL);
}

static void fast_retransmit_on_two_duplicate_acks(void) {
  host_t host;
  status_left_unacknowledged(&host);
  uint8_t old_expected = (uint8_t)(host.expected - 1); /* pretend the status was lost */
  frame_t dup = {1, FLAG_ACK_VALID, host.session, 0, old_expected, MSG_ACK, 0, 0};
  host_send_frame(&dup);
  run_for(10);
  CHECK_EQ(host_read(&host), 0);
  host_send_frame(&dup);
  run_for(10);
  host_read(&host);
  CHECK(host_find(&host, MSG_STATUS) != NULL); /* resent long before the RTO */
}

/* Runs the board 1 ms at a time, reading what it sends, until it has polled `wanted` times (at
 * most 40 ms); returns the polls seen. */
static int run_until_polls(host_t *host, int wanted) {
  int polls = 0;
  for (int i = 0; i < 40 && polls < wanted; i++) {
    run_for(MS_TICKS(1));
    host_read(host);
    for (int k = 0; k < host->count; k++) polls += (host->frames[k].frame.flags & FLAG_POLL) != 0;
  }
  return polls;
}

/* A host that follows none of the board's sessions answers its poll with a NAK alone: the
 * board starts its session again (128 on) and resends. A second NAK alone, before the board
 * polled in its new session, answers the old session's poll: ignored (§4.5 v1.1). */
static void nak_alone_restarts_once(void) {
  host_t host;
  status_left_unacknowledged(&host);
  CHECK_EQ(run_until_polls(&host, 1), 1);
  frame_t none = {1, FLAG_NAK, host.session, 0, 0, MSG_ACK, 0, 0};
  host_send_frame(&none);
  run_for(MS_TICKS(1));
  host_read(&host);
  const host_frame_t *again = host_find(&host, MSG_STATUS);
  CHECK(again != NULL && (again->frame.flags & FLAG_SYN) && again->frame.seq == 128);
  CHECK_EQ(board.link.first_seq, 128);
  host_send_frame(&none); /* the answer to a poll of the session before */
  run_for(MS_TICKS(1));
  CHECK_EQ(board.link.first_seq, 128);
  CHECK_EQ(board.link.fast_recoveries, 1);
}

/* The host's answer to the board's poll repeats its last ack: not a duplicate (§4.5). */
static void poll_answers_are_not_duplicate_acks(void) {
  host_t host;
  status_left_unacknowledged(&host);
  /* Unacknowledged for the poll timeout: the board polls, twice. */
  CHECK_EQ(run_until_polls(&host, 2), 2);
  uint8_t old_expected = (uint8_t)(host.expected - 1); /* the host never got the status */
  frame_t answer = {1, FLAG_ACK_VALID, host.session, 0, old_expected, MSG_ACK, 0, 0};
  host_send_frame(&answer);
  host_send_frame(&answer);
  run_for(10);
  CHECK(host_read(&host) == 0 || host_find(&host, MSG_STATUS) == NULL); /* no resend */
  CHECK_EQ(board.link.fast_recoveries, 0);
  /* Two more are duplicates: resent at once. */
  host_send_frame(&answer);
  host_send_frame(&answer);
  run_for(10);
  host_read(&host);
  CHECK(host_find(&host, MSG_STATUS) != NULL);
}

static void host_restart_restarts_our_session(void) {
  host_t host;
  boot_and_connect(&host, 1000);
  host.auto_ack = false;
  host_request(&host, MSG_STATUS_REQUEST, 0, 0); /* the status stays unacknowledged */
  /* A new host process: another session, SYN, seq 0. */
  host_t second;
  host_init(&second, 0x99);
  host_request(&second, MSG_IDENTIFY, 0, 0);
  /* The unacknowledged status comes again first, renumbered with SYN from 128: a session of
   * the board's that differs from the one before (0), §4.1 v1.1. */
  CHECK(second.count >= 3);
  const host_frame_t *status = host_find(&second, MSG_STATUS);
  const host_frame_t *caps = host_find(&second, MSG_CAPABILITIES);
  CHECK(status != NULL && caps != NULL);
  if (!status || !caps) return;
  CHECK(status->frame.flags & FLAG_SYN);
  CHECK_EQ(status->frame.seq, 128);
  CHECK(!(caps->frame.flags & FLAG_SYN));
  CHECK_EQ(caps->frame.seq, 129);
  CHECK_EQ(caps->frame.ack, 1); /* follows the new host session */
  /* Another host session: the board's next session starts 128 further on again, at 0. */
  host_t third;
  host_init(&third, 0x77);
  host_request(&third, MSG_IDENTIFY, 0, 0);
  const host_frame_t *again = host_find(&third, MSG_CAPABILITIES);
  CHECK(again != NULL && (again->frame.flags & FLAG_SYN) && again->frame.seq == 0);
  /* Frames of the old session are stale now: ignored, acknowledgements included. */
  const uint8_t query[] = {1, 2};
  host_request(&host, MSG_CLOCK_QUERY, query, 2);
  CHECK(host_find(&host, MSG_CLOCK) == NULL);
}

/* A new host process that drew the previous one's session id (1 in 255): told apart by its
 * SYN's number, or by how far the old session went (§4.1). */
static void reused_session_id_starts_a_new_session(void) {
  for (int variant = 0; variant < 2; variant++) {
    host_t old;
    boot_and_connect(&old, 1000);
    /* Variant 0: the old session went 12 frames past its SYN, the new one starts at the same
     * number. Variant 1: the old session is 2 frames old, the new one starts elsewhere. */
    int frames = variant == 0 ? 12 : 1;
    uint8_t query[2] = {0, 0};
    for (int i = 0; i < frames; i++) {
      query[0] = (uint8_t)i;
      host_request(&old, MSG_CLOCK_QUERY, query, 2);
    }
    host_t second;
    host_init(&second, old.session);
    if (variant == 1) second.seq = 77;
    host_request(&second, MSG_IDENTIFY, 0, 0);
    const host_frame_t *caps = host_find(&second, MSG_CAPABILITIES);
    CHECK(caps != NULL);
    if (!caps) continue;
    CHECK(caps->frame.flags & FLAG_SYN); /* the board restarted its session for the new host */
    CHECK_EQ(caps->frame.ack, (uint8_t)(second.seq)); /* and follows it */
    CHECK_EQ(board.link.peer_first_seq, variant == 0 ? 0 : 77);
  }
}

/* The board's `ack` messages among the frames the host read: how many, and flags seen. */
static int acks_with(const host_t *host, uint8_t flag) {
  int n = 0;
  for (int i = 0; i < host->count; i++) {
    const frame_t *f = &host->frames[i].frame;
    if (f->type == MSG_ACK && !(f->flags & FLAG_RELIABLE) && !(f->flags & FLAG_POLL) && (f->flags & flag) == flag) n++;
  }
  return n;
}

/* v1.1 (§4.5, issue 31 point 2): a request that arrives in order while the window is full is
 * held, not dropped into an exchange of NAKs: the answers say HOLD, frames behind it and polls
 * get no NAK, and once the host's acknowledgement frees a slot a plain ack says "taking frames
 * again"; the resend is then answered. */
static void full_window_holds_requests_back(void) {
  host_t host;
  boot_and_connect(&host, 1000);
  host.auto_ack = false;
  uint8_t query[2] = {0, 0};
  for (int i = 0; i < LINK_WINDOW + 3; i++) {
    query[0] = (uint8_t)i;
    host_send(&host, MSG_CLOCK_QUERY, query, 2);
  }
  /* A poll from the host, ahead of what the board took. */
  frame_t poll = {1, FLAG_ACK_VALID | FLAG_POLL, host.session, host.seq, (uint8_t)(host.expected), MSG_ACK, 0, 0};
  host_send_frame(&poll);
  run_for(MS_TICKS(1));
  host_read(&host);
  int clocks = 0;
  for (int i = 0; i < host.count; i++) clocks += host.frames[i].frame.type == MSG_CLOCK;
  CHECK_EQ(clocks, LINK_WINDOW); /* the later requests wait */
  uint8_t held = (uint8_t)(host.seq - 3);
  CHECK_EQ(board.link.expected, held);
  CHECK_EQ(acks_with(&host, FLAG_NAK), 0);
  CHECK(acks_with(&host, FLAG_HOLD) >= 1);
  for (int i = 0; i < host.count; i++) {
    const frame_t *f = &host.frames[i].frame;
    if (f->type == MSG_ACK && (f->flags & FLAG_HOLD)) CHECK_EQ(f->ack, held);
  }
  CHECK_EQ(board.link.holds, 1);
  /* Acknowledge the board's answers: it says "taking frames again" at once. */
  host.count = 0;
  host_send_ack(&host);
  run_for(MS_TICKS(1));
  host_read(&host);
  int plain = 0;
  for (int i = 0; i < host.count; i++) {
    const frame_t *f = &host.frames[i].frame;
    if (f->type == MSG_ACK && !(f->flags & (FLAG_HOLD | FLAG_NAK | FLAG_POLL | FLAG_RELIABLE)) && f->ack == held) plain++;
  }
  CHECK_EQ(plain, 1);
  /* The host resends from the held request: all three are answered. */
  for (int i = 0; i < 3; i++) {
    query[0] = (uint8_t)(LINK_WINDOW + i);
    frame_t resend = {1, FLAG_RELIABLE | FLAG_ACK_VALID, host.session, (uint8_t)(held + i), host.expected, MSG_CLOCK_QUERY, 2, query};
    host_send_frame(&resend);
    run_for(MS_TICKS(1));
    host_read(&host);
    host_send_ack(&host);
  }
  CHECK_EQ(board.link.expected, (uint8_t)(held + 3));
  CHECK_EQ(board.link.fast_recoveries, 0);
}

/* v1.1 (§4.3, issue 31 points 3 and 10): an acknowledgement after the board's poll is timed from
 * the poll, not from the frame (its wait for the poll is no round trip); NAKs that bring no
 * progress get at most 3 fast recoveries. */
static void polls_and_naks_without_progress(void) {
  host_t host;
  status_left_unacknowledged(&host);
  uint32_t srtt = board.link.srtt;
  CHECK_EQ(run_until_polls(&host, 1), 1);
  host_send_ack(&host); /* within 1 ms of the poll; 5 ms and more after the status left */
  board_poll();
  CHECK(board.link.srtt <= srtt); /* a sample of at most 1 ms, not 5-6 */
  /* Another status left unacknowledged, then a NAK for it every 3 ms for 300 ms. */
  host_request(&host, MSG_STATUS_REQUEST, 0, 0);
  uint8_t missing = (uint8_t)(host.expected - 1);
  frame_t nak = {1, FLAG_ACK_VALID | FLAG_NAK, host.session, 0, missing, MSG_ACK, 0, 0};
  for (int i = 0; i < 100; i++) {
    host_send_frame(&nak);
    run_for(MS_TICKS(3));
    host_read(&host);
  }
  CHECK_EQ(board.link.fast_recoveries, LINK_MAX_FAST_RECOVERIES);
}

static void unanswered_reset_notice_keeps_coming(void) {
  host_t host;
  fake_reset(1000);
  board_init();
  host_init(&host, 0x77);
  host.auto_ack = false;
  run_for(MS_TICKS(1));
  CHECK_EQ(host_read(&host), 1);
  /* Nobody listens: resent with backoff 25, 50, 100 ms ... */
  run_for(MS_TICKS(25));
  CHECK_EQ(host_read(&host), 1);
  CHECK_EQ(host.frames[0].frame.type, MSG_RESET_NOTICE);
  run_for(MS_TICKS(200));
  CHECK_EQ(host_read(&host), 2);
  /* A host connects that saw none of it (its first frame carries no ACK_VALID): the reset
   * notice goes out again at once, before the capabilities, instead of after a 200 ms RTO. */
  host_t late;
  host_init(&late, 0x66);
  late.auto_ack = false;
  host_send(&late, MSG_IDENTIFY, 0, 0);
  run_for(50);
  host_read(&late);
  CHECK_EQ(late.count, 3);
  CHECK_EQ(late.frames[0].frame.type, MSG_ACK);
  CHECK_EQ(late.frames[1].frame.type, MSG_RESET_NOTICE);
  CHECK(late.frames[1].frame.flags & FLAG_SYN);
  CHECK_EQ(late.frames[1].frame.seq, 0);
  CHECK_EQ(late.frames[2].frame.type, MSG_CAPABILITIES);
  CHECK_EQ(late.frames[2].frame.seq, 1);
  CHECK_EQ(board.link.rto, MS_TICKS(25)); /* the backoff is forgotten */
}

const test_case_t link_tests[] = {
    {"reset notice is the first frame after boot, with SYN and the boot count", reset_notice_first_with_syn},
    {"identify -> ack + capabilities (every field, from board_config.h)", identify_answers_capabilities},
    {"clock query echoes its id with the board time", clock_query_echoes_id},
    {"duplicates and out-of-order frames are dropped but acknowledged", duplicates_and_out_of_order_are_dropped},
    {"bad CRC and garbage are ignored and counted in badFrames", bad_crc_is_ignored_and_counted},
    {"unknown type: acknowledged and answered with unknownMessage", unknown_type_is_acked_and_answered},
    {"other version: unreliable unsupportedVersion, not acknowledged", other_version_gets_unreliable_error},
    {"unacknowledged frames are polled for, then retransmitted after the RTO, with backoff kept until a sample", unacknowledged_frames_are_retransmitted},
    {"the RTO follows RFC 6298 samples", rto_follows_round_trips},
    {"two duplicate acks trigger a fast retransmit", fast_retransmit_on_two_duplicate_acks},
    {"answers to the board's polls are not duplicate acks", poll_answers_are_not_duplicate_acks},
    {"a NAK alone restarts the board's session once; one before its next poll is stale", nak_alone_restarts_once},
    {"fast recovery: NAK on a gap, answers to polls, a host NAK resends at once", fast_recovery_with_nak_and_poll},
    {"a host restart restarts the board's session (first number +128 each time) and resends", host_restart_restarts_our_session},
    {"a new host with the previous host's session id gets a session of its own", reused_session_id_starts_a_new_session},
    {"a full window holds a request: HOLD, no NAK, 'taking frames again' once acknowledged", full_window_holds_requests_back},
    {"a polled ack gives no RTT sample; NAKs without progress get 3 fast recoveries", polls_and_naks_without_progress},
    {"an unanswered reset notice is resent, and at once on first contact", unanswered_reset_notice_keeps_coming},
    TEST_LIST_END,
};
