/*
 * test_identity.c — the board's identity (docs/protocol.md §6.11, v1.1) on this board's
 * configuration: feature bit 6 announced; `identity request` answered with the serial kept in
 * EEPROM bytes 1020-1023 (0 without one); an assign kept by a board without a serial only;
 * other payloads refused with badPayload; the serial across reboots.
 */
#include <string.h>

#include "board.h"
#include "expect.h"
#include "fake_hal.h"
#include "host.h"
#include "test.h"
#include "wire.h"

/* The serial of the §9 vectors `identityRequest` and `identity`. */
#define VECTOR_SERIAL 0x1A2B3C4DUL

/* The fake EEPROM's bytes 1020-1023, little-endian. */
static uint32_t eeprom_serial(void) { return le32(fake.eeprom + HAL_EEPROM_SERIAL); }

/* An identity request: none (assign 0 and `length` 0) or `length` bytes, assign's little-endian
 * bytes first. */
static void request_identity(host_t *host, uint32_t assign, uint8_t length) {
  uint8_t payload[8] = {(uint8_t)assign, (uint8_t)(assign >> 8), (uint8_t)(assign >> 16), (uint8_t)(assign >> 24)};
  host_request(host, MSG_IDENTITY_REQUEST, payload, length);
}

/* The serial the last host_read got in an `identity` (checked: one came, reliable, 4 bytes, no
 * error); -1 when none came. */
static long long answered_serial(const host_t *host) {
  const host_frame_t *identity = host_find(host, MSG_IDENTITY);
  CHECK(identity != NULL);
  CHECK(host_find(host, MSG_ERROR) == NULL);
  if (!identity) return -1;
  CHECK(identity->frame.flags & FLAG_RELIABLE);
  CHECK_EQ(identity->frame.length, 4);
  return le32(identity->payload);
}

/* A power cycle: everything but the EEPROM starts over (the fakes, the board's RAM); the board
 * boots and a new host (session `session`) hears its reset notice. */
static void power_cycle(host_t *host, uint8_t session) {
  uint8_t image[HAL_EEPROM_SIZE];
  memcpy(image, fake.eeprom, sizeof image);
  uint16_t boots = fake.eeprom_boot;
  fake_reset(fake.now + MS_TICKS(500));
  memcpy(fake.eeprom, image, sizeof image);
  fake.eeprom_boot = boots;
  memset(&board, 0, sizeof board); /* .bss after a reset */
  init_and_listen(host, session);
  CHECK(host->count > 0 && host->frames[0].frame.type == MSG_RESET_NOTICE);
}

static void the_feature_is_announced(void) {
  CHECK(BOARD_FEATURES & BOARD_FEATURE_IDENTITY);
  host_t host;
  boot_and_identify(&host, 1000);
  const host_frame_t *caps = host_find(&host, MSG_CAPABILITIES);
  CHECK(caps != NULL);
  if (!caps) return;
  const uint8_t *p = caps->payload + 1;
  for (int s = 0; s < 3; s++) p += 1 + p[0];
  CHECK(le16(p + 12) & 0x40); /* features, after boot count, clock, frame, queue, watchdog */
}

static void a_blank_board_answers_0(void) {
  host_t host;
  boot_and_connect(&host, 1000000);
  request_identity(&host, 0, 0);
  CHECK_EQ(answered_serial(&host), 0);
  /* A query writes nothing. */
  CHECK_EQ(fake.serial_writes, 0);
  CHECK_EQ(eeprom_serial(), 0xFFFFFFFFUL);
  /* Bytes 1020-1023 at 0 are no serial either. */
  memset(fake.eeprom + HAL_EEPROM_SERIAL, 0, 4);
  request_identity(&host, 0, 0);
  CHECK_EQ(answered_serial(&host), 0);
}

static void an_assign_is_kept_and_answered(void) {
  host_t host;
  boot_and_connect(&host, 1000000);
  request_identity(&host, VECTOR_SERIAL, 4);
  CHECK_EQ(answered_serial(&host), VECTOR_SERIAL);
  CHECK_EQ(fake.serial_writes, 1);
  static const uint8_t stored[4] = {0x4D, 0x3C, 0x2B, 0x1A}; /* little-endian, as the vector */
  CHECK(memcmp(fake.eeprom + HAL_EEPROM_SERIAL, stored, 4) == 0);
  /* The bytes around it are not touched. */
  CHECK_EQ(fake.eeprom[HAL_EEPROM_SERIAL - 1], 0xFF);
  /* A query answers it. */
  request_identity(&host, 0, 0);
  CHECK_EQ(answered_serial(&host), VECTOR_SERIAL);
  /* A second assign, another value: the board keeps its own, answers with it, writes nothing. */
  request_identity(&host, 0xCAFEF00DUL, 4);
  CHECK_EQ(answered_serial(&host), VECTOR_SERIAL);
  CHECK_EQ(fake.serial_writes, 1);
  CHECK_EQ(eeprom_serial(), VECTOR_SERIAL);
  /* A board whose bytes read 0 has none: an assign is kept. */
  memset(fake.eeprom + HAL_EEPROM_SERIAL, 0, 4);
  request_identity(&host, 0xFFFFFFFEUL, 4);
  CHECK_EQ(answered_serial(&host), 0xFFFFFFFEUL);
  CHECK_EQ(eeprom_serial(), 0xFFFFFFFEUL);
}

static void other_payloads_are_bad(void) {
  host_t host;
  boot_and_connect(&host, 1000000);
  static const uint8_t lengths[] = {1, 2, 3, 5, 8};
  for (size_t l = 0; l < sizeof lengths; l++) {
    request_identity(&host, VECTOR_SERIAL, lengths[l]);
    expect_error(&host, ERR_BAD_PAYLOAD, MSG_IDENTITY_REQUEST, 0);
    CHECK(host_find(&host, MSG_IDENTITY) == NULL);
  }
  /* assign 0, on a board without a serial and on one with it. */
  request_identity(&host, 0, 4);
  expect_error(&host, ERR_BAD_PAYLOAD, MSG_IDENTITY_REQUEST, 0);
  CHECK(host_find(&host, MSG_IDENTITY) == NULL);
  CHECK_EQ(fake.serial_writes, 0);
  CHECK_EQ(eeprom_serial(), 0xFFFFFFFFUL);
  request_identity(&host, 77, 4);
  CHECK_EQ(answered_serial(&host), 77);
  request_identity(&host, 0, 4);
  expect_error(&host, ERR_BAD_PAYLOAD, MSG_IDENTITY_REQUEST, 0);
  CHECK_EQ(eeprom_serial(), 77);
  /* An unreliable request is checked alike (its error is reliable, as every answer). */
  const uint8_t three[] = {1, 2, 3};
  frame_t unreliable = {PROTOCOL_VERSION, 0, host.session, 0, 0, MSG_IDENTITY_REQUEST, 3, three};
  host_send_frame(&unreliable);
  run_for(MS_TICKS(1));
  host_read(&host);
  expect_error(&host, ERR_BAD_PAYLOAD, MSG_IDENTITY_REQUEST, 0);
}

static void the_serial_survives_reboots(void) {
  host_t host;
  boot_and_connect(&host, 1000000);
  request_identity(&host, VECTOR_SERIAL, 4);
  CHECK_EQ(answered_serial(&host), VECTOR_SERIAL);
  uint16_t boots = board.boot_count;
  /* The next boot: the same serial, asked for before any identify. */
  power_cycle(&host, 0x78);
  CHECK_EQ(board.boot_count, boots + 1); /* the boot counter's bytes are not the serial's */
  request_identity(&host, 0, 0);
  CHECK_EQ(answered_serial(&host), VECTOR_SERIAL);
  /* And an assign after it does not replace it. */
  request_identity(&host, 1, 4);
  CHECK_EQ(answered_serial(&host), VECTOR_SERIAL);
  CHECK_EQ(fake.serial_writes, 0); /* since the power cycle (fake_reset) */
  power_cycle(&host, 0x79);
  request_identity(&host, 0, 0);
  CHECK_EQ(answered_serial(&host), VECTOR_SERIAL);
}

const test_case_t identity_tests[] = {
    {"capabilities announce feature bit 6 (identity)", the_feature_is_announced},
    {"a query on a blank EEPROM (or bytes 1020-1023 at 0) answers 0 and writes nothing", a_blank_board_answers_0},
    {"an assign is stored at 1020-1023 (LE) and answered; a second one keeps the first", an_assign_is_kept_and_answered},
    {"1, 2, 3, 5 or 8 bytes, or assign 0: badPayload, nothing stored", other_payloads_are_bad},
    {"the serial survives reboots", the_serial_survives_reboots},
    TEST_LIST_END,
};
