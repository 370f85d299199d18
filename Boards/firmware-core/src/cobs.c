/*
 * cobs.c — COBS encoding and streaming decoding.
 *
 * Encoding: each block is a code byte n (1..255) followed by n-1 non-zero bytes; a code below
 * 255 stands for those bytes plus one zero, except at the end of the frame. Decoding mirrors
 * Sources/HapticWire/COBS.swift: a zero inside a run, or a block that runs past the end of the
 * run, makes the run invalid.
 */
#include "cobs.h"

uint16_t cobs_encode(const uint8_t *input, uint16_t count, cobs_sink_t sink, void *context) {
  /* Same block boundaries as the Swift encoder: a block ends at a zero (implied by its code),
   * after 254 data bytes (code 255, no implied zero), or at the end of the input; a frame
   * ending in a zero or a full block gets a final empty block (code 1). */
  uint16_t written = 0;
  uint16_t start = 0;
  for (;;) {
    uint16_t end = start;
    while (end < count && input[end] != 0 && (uint16_t)(end - start) < 254u) end++;
    uint8_t code = (uint8_t)(end - start + 1u);
    sink(context, code);
    for (uint16_t i = start; i < end; i++) sink(context, input[i]);
    written = (uint16_t)(written + code);
    if (code == 0xFF) {
      start = end; /* no implied zero after a full block */
      continue;
    }
    if (end >= count) break;
    start = (uint16_t)(end + 1u); /* skip the zero the code stands for */
  }
  return written;
}

uint16_t cobs_encode_in_place(uint8_t *buffer, uint16_t count) {
  /* Each zero becomes the code byte of the block after it; a code counts its block's bytes
   * plus one. A frame ending in a zero ends with an empty block (code 1), as cobs_encode's. */
  uint16_t code_at = 0;
  uint8_t code = 1;
  for (uint16_t i = 1; i <= count; i++) {
    if (buffer[i] == 0) {
      buffer[code_at] = code;
      code_at = i;
      code = 1;
    } else {
      code++;
    }
  }
  buffer[code_at] = code;
  return (uint16_t)(count + 1u);
}

static void buffer_sink(void *context, uint8_t byte) {
  uint8_t **cursor = (uint8_t **)context;
  *(*cursor)++ = byte;
}

uint16_t cobs_encode_buffer(const uint8_t *input, uint16_t count, uint8_t *output) {
  uint8_t *cursor = output;
  return cobs_encode(input, count, buffer_sink, &cursor);
}

void cobs_decoder_init(cobs_decoder_t *decoder, uint8_t *buffer, uint16_t capacity, uint16_t max_run) {
  decoder->buffer = buffer;
  decoder->capacity = capacity;
  decoder->max_run = max_run;
  decoder->length = 0;
  decoder->run = 0;
  decoder->remaining = 0;
  decoder->code = 0;
  decoder->failed = false;
}

static void decoder_reset(cobs_decoder_t *decoder) {
  decoder->length = 0;
  decoder->run = 0;
  decoder->remaining = 0;
  decoder->code = 0;
  decoder->failed = false;
}

cobs_result_t cobs_decoder_feed(cobs_decoder_t *decoder, uint8_t byte) {
  if (byte == 0) {
    if (decoder->run == 0) {
      decoder_reset(decoder);
      return COBS_MORE; /* consecutive delimiters are ignored */
    }
    /* Valid only when the last block is complete. */
    bool ok = !decoder->failed && decoder->remaining == 0;
    uint16_t length = decoder->length;
    decoder_reset(decoder);
    decoder->length = length;
    return ok ? COBS_FRAME : COBS_BAD;
  }
  if (decoder->run == 0) decoder->length = 0; /* a new run: forget the last frame */
  decoder->run++;
  if (decoder->failed) return COBS_MORE;
  if (decoder->run > decoder->max_run) {
    decoder->failed = true;
    return COBS_MORE;
  }
  if (decoder->remaining == 0) {
    /* A code byte: the previous block (if any, and not a full 255 block) implied a zero. */
    if (decoder->code != 0 && decoder->code != 0xFF) {
      if (decoder->length >= decoder->capacity) {
        decoder->failed = true;
        return COBS_MORE;
      }
      decoder->buffer[decoder->length++] = 0;
    }
    decoder->code = byte;
    decoder->remaining = (uint8_t)(byte - 1u);
    return COBS_MORE;
  }
  if (decoder->length >= decoder->capacity) {
    decoder->failed = true;
    return COBS_MORE;
  }
  decoder->buffer[decoder->length++] = byte;
  decoder->remaining--;
  return COBS_MORE;
}

int cobs_decode_buffer(const uint8_t *input, uint16_t count, uint8_t *output) {
  cobs_decoder_t decoder;
  cobs_decoder_init(&decoder, output, count, count);
  for (uint16_t i = 0; i < count; i++) {
    if (input[i] == 0) return -1;
    (void)cobs_decoder_feed(&decoder, input[i]);
  }
  return cobs_decoder_feed(&decoder, 0) == COBS_FRAME ? (int)decoder.length : -1;
}
