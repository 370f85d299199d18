/*
 * cobs.h — Consistent Overhead Byte Stuffing (docs/protocol.md §2): the encoder writes through
 * a byte sink (straight into the UART buffer on the board), the decoder takes one byte at a
 * time (from the UART receive interrupt's ring) and rebuilds the raw frame in place.
 */
#ifndef COBS_H
#define COBS_H

#include <stdbool.h>
#include <stdint.h>

/* Encoded size of `count` raw bytes, without the 0x00 delimiter. */
#define COBS_ENCODED_SIZE(count) ((uint16_t)((count) + (count) / 254u + 1u))

/* Where encoded bytes go. */
typedef void (*cobs_sink_t)(void *context, uint8_t byte);

/* Encodes `count` bytes into `sink` (no delimiter). Returns the number of bytes written. */
uint16_t cobs_encode(const uint8_t *input, uint16_t count, cobs_sink_t sink, void *context);

/* Encodes `count` bytes (at most 253: one block or more, none full) in place: they are at
 * buffer[1 .. count], buffer[0] is room for the first code byte; the encoded bytes are then
 * buffer[0 .. count] (no delimiter). The same bytes cobs_encode writes, without a call per
 * byte (the board's frames are short). Returns count + 1. */
uint16_t cobs_encode_in_place(uint8_t *buffer, uint16_t count);

/* Encodes into a buffer of at least COBS_ENCODED_SIZE(count) bytes. Returns the length. */
uint16_t cobs_encode_buffer(const uint8_t *input, uint16_t count, uint8_t *output);

/* Streaming decoder state. `buffer` receives the decoded bytes. */
typedef struct {
  uint8_t *buffer;     /* decoded bytes */
  uint16_t capacity;   /* size of buffer */
  uint16_t length;     /* decoded bytes so far */
  uint16_t run;        /* encoded bytes since the last delimiter */
  uint16_t max_run;    /* longer runs are dropped without buffering them */
  uint8_t remaining;   /* data bytes left in the current block */
  uint8_t code;        /* the current block's code byte (0: none yet) */
  bool failed;         /* the run is too long or not valid COBS */
} cobs_decoder_t;

typedef enum {
  COBS_MORE = 0,  /* nothing complete yet */
  COBS_FRAME = 1, /* a delimiter ended a valid run: `length` decoded bytes in `buffer` */
  COBS_BAD = 2    /* a delimiter ended an invalid or oversized run */
} cobs_result_t;

void cobs_decoder_init(cobs_decoder_t *decoder, uint8_t *buffer, uint16_t capacity, uint16_t max_run);

/* Feeds one byte. After COBS_FRAME the caller reads buffer[0..length) before feeding more. */
cobs_result_t cobs_decoder_feed(cobs_decoder_t *decoder, uint8_t byte);

/* Decodes a whole encoded run (no delimiter) into `output` (at least `count` bytes).
 * Returns the decoded length, or -1 when it is not valid COBS. */
int cobs_decode_buffer(const uint8_t *input, uint16_t count, uint8_t *output);

#endif
