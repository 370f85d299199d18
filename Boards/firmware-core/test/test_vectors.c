/*
 * test_vectors.c — the test vectors of docs/protocol.md §9, read from the document itself:
 * every vector decodes to the documented header and payload; the board's own messages are
 * re-encoded from the same field values and must give the exact bytes.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "test.h"
#include "wire.h"

typedef struct {
  char name[32];
  uint8_t bytes[300];
  uint16_t length;
} vector_t;

static vector_t vectors[32];
static int vector_count = -1;

/* Reads the lines between the markers (inside the ```text block): `name HEX HEX ...`. */
static int load_vectors(void) {
  if (vector_count >= 0) return vector_count;
  vector_count = 0;
  FILE *file = fopen(protocol_doc_path, "r");
  if (!file) {
    fprintf(stderr, "    cannot open %s\n", protocol_doc_path);
    return 0;
  }
  char line[2048];
  bool inside = false;
  while (fgets(line, sizeof line, file)) {
    if (strstr(line, "<!-- vectors:begin -->")) {
      inside = true;
      continue;
    }
    if (strstr(line, "<!-- vectors:end -->")) break;
    if (!inside || strncmp(line, "```", 3) == 0 || line[0] == '\n') continue;
    if (vector_count >= 32) break;
    vector_t *v = &vectors[vector_count];
    char *cursor = line;
    int consumed = 0;
    if (sscanf(cursor, "%31s%n", v->name, &consumed) != 1) continue;
    cursor += consumed;
    v->length = 0;
    unsigned value;
    while (sscanf(cursor, "%x%n", &value, &consumed) == 1 && v->length < sizeof v->bytes) {
      v->bytes[v->length++] = (uint8_t)value;
      cursor += consumed;
    }
    vector_count++;
  }
  fclose(file);
  return vector_count;
}

static const vector_t *find_vector(const char *name) {
  load_vectors();
  for (int i = 0; i < vector_count; i++) {
    if (strcmp(vectors[i].name, name) == 0) return &vectors[i];
  }
  return NULL;
}

/* Decodes a vector's wire bytes into a frame (payload copied into `raw`). */
static bool decode_vector(const vector_t *v, uint8_t *raw, frame_t *frame) {
  if (v->length < 2 || v->bytes[v->length - 1] != 0) return false;
  int length = cobs_decode_buffer(v->bytes, (uint16_t)(v->length - 1), raw);
  return length > 0 && frame_parse(raw, (uint16_t)length, frame);
}

static const struct {
  const char *name;
  uint8_t type;
} kinds[] = {
    {"ack", MSG_ACK},
    {"identify", MSG_IDENTIFY},
    {"capabilities", MSG_CAPABILITIES},
    {"clockQuery", MSG_CLOCK_QUERY},
    {"clock", MSG_CLOCK},
    {"queueSegments", MSG_QUEUE_SEGMENTS},
    {"replaceSegments", MSG_REPLACE_SEGMENTS},
    {"stop", MSG_STOP},
    {"statusRequest", MSG_STATUS_REQUEST},
    {"status", MSG_STATUS},
    {"statusTwoChannels", MSG_STATUS},
    {"heartbeat", MSG_HEARTBEAT},
    {"resetNotice", MSG_RESET_NOTICE},
    {"calibrate", MSG_CALIBRATE},
    {"calibrationResult", MSG_CALIBRATION_RESULT},
    {"playROMEffect", MSG_PLAY_ROM_EFFECT},
    {"error", MSG_ERROR},
    {"setWatchdog", MSG_SET_WATCHDOG},
    {"identityRequest", MSG_IDENTITY_REQUEST},
    {"identity", MSG_IDENTITY},
};

static void every_vector_decodes(void) {
  CHECK_EQ(load_vectors(), sizeof kinds / sizeof kinds[0]);
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    const vector_t *v = find_vector(kinds[k].name);
    CHECK(v != NULL);
    if (!v) continue;
    uint8_t raw[FRAME_MAX_RAW];
    frame_t frame;
    CHECK(decode_vector(v, raw, &frame));
    CHECK_EQ(frame.version, 1);
    CHECK_EQ(frame.session, 0x5A);
    CHECK_EQ(frame.ack, 3);
    CHECK_EQ(frame.type, kinds[k].type);
    bool is_ack = kinds[k].type == MSG_ACK;
    CHECK_EQ(frame.flags, is_ack ? FLAG_ACK_VALID : FLAG_RELIABLE | FLAG_ACK_VALID);
    CHECK_EQ(frame.seq, is_ack ? 0 : 7);
  }
}

/* Encodes a message the way the board does and compares with the vector. */
static void check_encoding(const char *name, uint8_t type, const uint8_t *payload, uint8_t length) {
  const vector_t *v = find_vector(name);
  CHECK(v != NULL);
  if (!v) return;
  uint8_t flags = type == MSG_ACK ? FLAG_ACK_VALID : FLAG_RELIABLE | FLAG_ACK_VALID;
  frame_t frame = {1, flags, 0x5A, type == MSG_ACK ? 0 : 7, 3, type, length, payload};
  uint8_t wire[FRAME_MAX_ENCODED + 1];
  uint16_t count = frame_encode(&frame, wire);
  CHECK_EQ(count, v->length);
  bool same = count == v->length && memcmp(wire, v->bytes, count) == 0;
  if (!same) fprintf(stderr, "    %s: encoding differs from the vector\n", name);
  CHECK(same);
}

static void board_messages_encode_exactly(void) {
  uint8_t payload[WIRE_MAX_BOARD_PAYLOAD];
  wire_writer_t w;

  check_encoding("ack", MSG_ACK, NULL, 0);

  /* ExampleMessages.capabilities: uno-drv2605l, boot 3, 1 MHz, 1 ms, queue 32, 100 ms,
   * braking + overdrive + calibration + ROM effects, one LRA at 175 Hz, no Q, 8 bits,
   * calibrated. */
  wire_writer_init(&w, payload, sizeof payload);
  wire_capabilities_t caps = {1, "hapticctl-uno", "1.0.0", "uno-drv2605l", 3, 1000000, 1000, 32, 100, 0x1B,
                              1, {{1, 1750, 0, 0, 0, 8, 2}}};
  wire_capabilities(&w, &caps);
  CHECK(!w.overflow);
  check_encoding("capabilities", MSG_CAPABILITIES, payload, w.length);

  wire_writer_init(&w, payload, sizeof payload);
  wire_clock(&w, 258, 0x010203040506ULL);
  check_encoding("clock", MSG_CLOCK, payload, w.length);

  wire_writer_init(&w, payload, sizeof payload);
  wire_status_t status = {123700, 1, 0, 2, 1, {{4, 0, 1, 60}}};
  wire_status(&w, &status);
  check_encoding("status", MSG_STATUS, payload, w.length);

  /* v1.1: a board of two channels (9 + 8 bytes a channel), the second braking. */
  wire_writer_init(&w, payload, sizeof payload);
  wire_status_t two = {123700, 1, 0, 0, 2, {{4, 1, 0, 100}, {2, 0, 3, -60}}};
  wire_status(&w, &two);
  CHECK_EQ(w.length, 25);
  check_encoding("statusTwoChannels", MSG_STATUS, payload, w.length);

  wire_writer_init(&w, payload, sizeof payload);
  wire_reset_notice(&w, 3, 1);
  check_encoding("resetNotice", MSG_RESET_NOTICE, payload, w.length);

  wire_writer_init(&w, payload, sizeof payload);
  wire_calibration_result(&w, 0, true, 1745, 12, 140);
  check_encoding("calibrationResult", MSG_CALIBRATION_RESULT, payload, w.length);

  wire_writer_init(&w, payload, sizeof payload);
  wire_error(&w, ERR_UNKNOWN_MESSAGE, 0x42, 0);
  check_encoding("error", MSG_ERROR, payload, w.length);

  /* v1.1: the board's serial 0x1A2B3C4D. */
  wire_writer_init(&w, payload, sizeof payload);
  wire_identity(&w, 0x1A2B3C4DUL);
  CHECK(!w.overflow);
  check_encoding("identity", MSG_IDENTITY, payload, w.length);
}

/* Decodes a host-to-board vector's payload into a reader. */
static bool vector_payload(const char *name, uint8_t *raw, frame_t *frame, wire_reader_t *reader) {
  const vector_t *v = find_vector(name);
  if (!v || !decode_vector(v, raw, frame)) return false;
  wire_reader_init(reader, frame->payload, frame->length);
  return true;
}

static void host_messages_decode_to_documented_values(void) {
  uint8_t raw[FRAME_MAX_RAW];
  frame_t frame;
  wire_reader_t r;

  CHECK(vector_payload("identify", raw, &frame, &r) && frame.length == 0);
  CHECK(vector_payload("statusRequest", raw, &frame, &r) && frame.length == 0);
  CHECK(vector_payload("heartbeat", raw, &frame, &r) && frame.length == 0);

  CHECK(vector_payload("clockQuery", raw, &frame, &r));
  CHECK_EQ(wire_get_u16(&r), 258);
  CHECK(wire_reader_done(&r));

  CHECK(vector_payload("stop", raw, &frame, &r));
  CHECK_EQ(wire_get_u8(&r), 0xFF);
  CHECK(wire_reader_done(&r));

  CHECK(vector_payload("calibrate", raw, &frame, &r));
  CHECK_EQ(wire_get_u8(&r), 0);
  CHECK(wire_reader_done(&r));

  CHECK(vector_payload("playROMEffect", raw, &frame, &r));
  CHECK_EQ(wire_get_u8(&r), 0);
  CHECK_EQ(wire_get_u8(&r), 6);
  CHECK_EQ(wire_get_u8(&r), 1);
  CHECK_EQ(wire_get_u32(&r), 124000);
  CHECK(wire_reader_done(&r));

  CHECK(vector_payload("setWatchdog", raw, &frame, &r));
  CHECK_EQ(wire_get_u16(&r), 250);
  CHECK(wire_reader_done(&r));

  /* v1.1: an identity request assigning 0x1A2B3C4D. */
  CHECK(vector_payload("identityRequest", raw, &frame, &r));
  CHECK_EQ(wire_get_u32(&r), 0x1A2B3C4DUL);
  CHECK(wire_reader_done(&r));

  /* The queue batch: tick 123456; 9 frames at +127; 5 frames at -127 (brake); 200 frames
   * ramping 20 -> 0 and 166 -> 180 Hz. */
  wire_batch_t batch;
  wire_segment_t s;
  CHECK(vector_payload("queueSegments", raw, &frame, &r));
  CHECK(wire_batch_begin(&batch, frame.payload, frame.length));
  CHECK_EQ(batch.channel, 0);
  CHECK_EQ(batch.start_time, 123456);
  CHECK_EQ(batch.level_bytes, 1);
  CHECK_EQ(batch.count, 3);
  CHECK_EQ(wire_batch_next(&batch, &s), 1);
  CHECK(s.frames == 9 && s.start_level == 127 && s.end_level == 127);
  CHECK(s.start_frequency == 166 && s.end_frequency == 166 && !(s.flags & SEG_BRAKE));
  CHECK_EQ(wire_batch_next(&batch, &s), 1);
  CHECK(s.frames == 5 && s.start_level == -127 && s.end_level == -127 && (s.flags & SEG_BRAKE));
  CHECK(s.start_frequency == 166 && s.end_frequency == 166);
  CHECK_EQ(wire_batch_next(&batch, &s), 1);
  CHECK(s.frames == 200 && s.start_level == 20 && s.end_level == 0);
  CHECK(s.start_frequency == 166 && s.end_frequency == 180);
  CHECK_EQ(wire_batch_next(&batch, &s), 0);

  /* The replace batch: tick 123600, 50 frames at 60, 200 Hz. */
  CHECK(vector_payload("replaceSegments", raw, &frame, &r));
  CHECK(wire_batch_begin(&batch, frame.payload, frame.length));
  CHECK_EQ(batch.start_time, 123600);
  CHECK_EQ(batch.count, 1);
  CHECK_EQ(wire_batch_next(&batch, &s), 1);
  CHECK(s.frames == 50 && s.start_level == 60 && s.end_level == 60 && s.start_frequency == 200);
  CHECK_EQ(wire_batch_next(&batch, &s), 0);
}

const test_case_t vector_tests[] = {
    {"all 20 vectors decode (v1.1's identity pair and 2-channel status too): session 0x5A, seq 7, ack 3, flags, type", every_vector_decodes},
    {"board-to-host messages re-encode to the exact vector bytes", board_messages_encode_exactly},
    {"host-to-board vectors decode to the documented values", host_messages_decode_to_documented_values},
    TEST_LIST_END,
};
