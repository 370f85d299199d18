/*
 * frame.h — the frame layer (docs/protocol.md §2-3):
 * [version][flags][session][seq][ack][type][length][payload 0..246][crc16 LE], COBS + 0x00.
 */
#ifndef FRAME_H
#define FRAME_H

#include <stdbool.h>
#include <stdint.h>

#include "cobs.h"

#define PROTOCOL_VERSION 1
#define FRAME_HEADER_SIZE 7
#define FRAME_MAX_PAYLOAD 246
#define FRAME_MAX_RAW 255     /* header + payload + CRC */
#define FRAME_MAX_ENCODED 258 /* COBS-encoded with delimiter; longer runs are dropped */

/* Flag bits. */
#define FLAG_RELIABLE 0x01
#define FLAG_ACK_VALID 0x02
#define FLAG_SYN 0x04
#define FLAG_NAK 0x08  /* on an ack: frames from `ack` on are missing (docs/protocol.md §4.5) */
#define FLAG_POLL 0x10 /* on an ack: answer at once; `seq` is the sender's next number */
#define FLAG_HOLD 0x20 /* on an ack (v1.1): frame `ack` arrived but cannot be taken yet (§4.5) */

/* Message types (§6). */
enum {
  MSG_ACK = 0x00,
  MSG_IDENTIFY = 0x01,
  MSG_CAPABILITIES = 0x02,
  MSG_CLOCK_QUERY = 0x03,
  MSG_CLOCK = 0x04,
  MSG_QUEUE_SEGMENTS = 0x05,
  MSG_REPLACE_SEGMENTS = 0x06,
  MSG_STOP = 0x07,
  MSG_STATUS_REQUEST = 0x08,
  MSG_STATUS = 0x09,
  MSG_HEARTBEAT = 0x0A,
  MSG_RESET_NOTICE = 0x0B,
  MSG_CALIBRATE = 0x0C,
  MSG_CALIBRATION_RESULT = 0x0D,
  MSG_PLAY_ROM_EFFECT = 0x0E,
  MSG_ERROR = 0x0F,
  MSG_SET_WATCHDOG = 0x10,
  MSG_IDENTITY_REQUEST = 0x11, /* v1.1 (§6.11) */
  MSG_IDENTITY = 0x12
};

/* Error codes (§7). */
enum {
  ERR_UNSUPPORTED_VERSION = 1,
  ERR_UNKNOWN_MESSAGE = 2,
  ERR_BAD_PAYLOAD = 3,
  ERR_BAD_CHANNEL = 4,
  ERR_QUEUE_FULL = 5,
  ERR_NOT_SUPPORTED = 6,
  ERR_CALIBRATION_FAILED = 7,
  ERR_BUSY = 8,
  ERR_TIME_IN_PAST = 9,
  ERR_INTERNAL = 255
};

/* A decoded frame; `payload` points into the receive buffer (or the caller's bytes). */
typedef struct {
  uint8_t version;
  uint8_t flags;
  uint8_t session;
  uint8_t seq;
  uint8_t ack;
  uint8_t type;
  uint8_t length;
  const uint8_t *payload;
} frame_t;

/* Writes header, payload and CRC into `raw` (at least FRAME_HEADER_SIZE + length + 2 bytes;
 * `payload` may already sit at raw + FRAME_HEADER_SIZE). Returns the raw length. */
uint16_t frame_build(uint8_t *raw, const frame_t *frame);

/* Checks CRC and length byte of raw (decoded) bytes; on success fills `frame`. */
bool frame_parse(const uint8_t *raw, uint16_t count, frame_t *frame);

/* Bytes on the wire for a raw frame of `raw_length` bytes: COBS plus the delimiter. */
#define FRAME_WIRE_SIZE(raw_length) ((uint16_t)(COBS_ENCODED_SIZE(raw_length) + 1u))

/* COBS-encodes raw bytes and appends the 0x00 delimiter into `sink`. */
void frame_emit(const uint8_t *raw, uint16_t raw_length, cobs_sink_t sink, void *context);

/* Encodes a whole frame into `output` (at least FRAME_MAX_ENCODED bytes): for tests and tools.
 * Returns the number of bytes, delimiter included. */
uint16_t frame_encode(const frame_t *frame, uint8_t *output);

/* The receiving side: bytes in, checked frames out. The CRC runs over the bytes as they are
 * decoded, not over the whole frame at its end (~0.5 ms for a 255-byte frame on the AVR, during
 * which the UART's receive ring fills). */
typedef struct {
  cobs_decoder_t decoder;
  uint8_t raw[FRAME_MAX_RAW];
  uint16_t crc;        /* of raw[0 .. decoder.length) */
  uint16_t bad_frames; /* runs rejected (COBS, size, CRC, length byte) since boot */
  frame_t frame;       /* the last frame returned */
} frame_receiver_t;

void frame_receiver_init(frame_receiver_t *receiver);

/* Feeds one byte; returns the frame it completed (valid until the next call), or NULL. */
const frame_t *frame_receiver_feed(frame_receiver_t *receiver, uint8_t byte);

/* Feeds bytes up to the end of the first frame they complete (`*frame`, valid until the next
 * call; else NULL), or with `before_delimiter` up to the next delimiter (left: the frame it
 * would complete waits). Returns how many bytes were taken. */
uint16_t frame_receiver_feed_bytes(frame_receiver_t *receiver, const uint8_t *bytes, uint16_t count,
                                   bool before_delimiter, const frame_t **frame);

#endif
