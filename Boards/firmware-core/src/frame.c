/*
 * frame.c — building, checking, sending and receiving frames.
 */
#include "frame.h"

#include "crc16.h"

uint16_t frame_build(uint8_t *raw, const frame_t *frame) {
  raw[0] = frame->version;
  raw[1] = frame->flags;
  raw[2] = frame->session;
  raw[3] = frame->seq;
  raw[4] = frame->ack;
  raw[5] = frame->type;
  raw[6] = frame->length;
  uint8_t *payload = raw + FRAME_HEADER_SIZE;
  if (frame->payload != payload) {
    for (uint8_t i = 0; i < frame->length; i++) payload[i] = frame->payload[i];
  }
  uint16_t count = (uint16_t)(FRAME_HEADER_SIZE + frame->length);
  uint16_t crc = crc16(raw, count);
  raw[count] = (uint8_t)crc;
  raw[count + 1] = (uint8_t)(crc >> 8);
  return (uint16_t)(count + 2u);
}

/* The header of a frame whose CRC passed: its length byte must match too (without a final
 * XOR a duplicated trailing zero could pass the CRC). */
static bool parse_header(const uint8_t *raw, uint16_t count, frame_t *frame) {
  if (raw[6] != count - FRAME_HEADER_SIZE - 2u) return false;
  frame->version = raw[0];
  frame->flags = raw[1];
  frame->session = raw[2];
  frame->seq = raw[3];
  frame->ack = raw[4];
  frame->type = raw[5];
  frame->length = raw[6];
  frame->payload = raw + FRAME_HEADER_SIZE;
  return true;
}

bool frame_parse(const uint8_t *raw, uint16_t count, frame_t *frame) {
  if (count < FRAME_HEADER_SIZE + 2u || count > FRAME_MAX_RAW) return false;
  uint16_t expected = (uint16_t)(raw[count - 2] | (uint16_t)raw[count - 1] << 8);
  if (crc16(raw, (uint16_t)(count - 2u)) != expected) return false;
  return parse_header(raw, count, frame);
}

void frame_emit(const uint8_t *raw, uint16_t raw_length, cobs_sink_t sink, void *context) {
  cobs_encode(raw, raw_length, sink, context);
  sink(context, 0);
}

uint16_t frame_encode(const frame_t *frame, uint8_t *output) {
  uint8_t raw[FRAME_MAX_RAW];
  uint16_t count = frame_build(raw, frame);
  uint16_t length = cobs_encode_buffer(raw, count, output);
  output[length] = 0;
  return (uint16_t)(length + 1u);
}

void frame_receiver_init(frame_receiver_t *receiver) {
  cobs_decoder_init(&receiver->decoder, receiver->raw, FRAME_MAX_RAW, FRAME_MAX_ENCODED);
  receiver->crc = CRC16_INIT;
  receiver->bad_frames = 0;
}

/* The receiver's COBS state between bytes, with its CRC. */
typedef struct {
  uint16_t crc;
  uint8_t remaining, code;
} block_state_t;

/* Decodes up to `count` (at least 1) bytes of a run, code and data bytes alike, up to a zero
 * (not taken), into `to`, adding the decoded bytes to the CRC; the caller checked that they
 * fit the run's and the buffer's limits (a byte decodes to one byte at most). Returns how many
 * were taken, `*written` how many decoded. The receiver's hot loop, in a function of its own
 * (not inlined) so that its values stay in registers on the AVR. */
#ifdef __GNUC__
__attribute__((noinline))
#endif
static uint8_t decode_blocks(uint8_t *to, const uint8_t *from, uint8_t count, block_state_t *state, uint8_t *written) {
  uint16_t crc = state->crc;
  uint8_t remaining = state->remaining, code = state->code;
  const uint8_t *end = from + count, *first = from;
  uint8_t *start = to;
  do {
    uint8_t byte = *from;
    if (byte == 0) break;
    from++;
    if (remaining != 0) {
      remaining--;
    } else {
      /* A code byte: the previous block (if any, and not a full 255 block) implied a zero. */
      uint8_t previous = code;
      code = byte;
      remaining = (uint8_t)(byte - 1u);
      if ((uint8_t)(previous - 1u) >= 0xFEu) continue; /* 0 (none yet) or 0xFF */
      byte = 0;
    }
    *to++ = byte;
    crc = crc16_update(crc, byte);
  } while (from != end);
  state->crc = crc;
  state->remaining = remaining;
  state->code = code;
  *written = (uint8_t)(to - start);
  return (uint8_t)(from - first);
}

uint16_t frame_receiver_feed_bytes(frame_receiver_t *receiver, const uint8_t *bytes, uint16_t count,
                                   bool before_delimiter, const frame_t **frame) {
  /* cobs_decoder_feed's rules (a copy: one loop with the CRC, and a run of a block's data
   * bytes copied at once; test_wire checks it against the byte-wise decoder), on the decoder's
   * state held in locals. */
  cobs_decoder_t *decoder = &receiver->decoder;
  uint8_t *raw = receiver->raw;
  uint16_t length = decoder->length, run = decoder->run, crc = receiver->crc;
  uint8_t remaining = decoder->remaining, code = decoder->code;
  bool failed = decoder->failed;
  uint16_t taken = 0;
  *frame = 0;
  while (taken < count) {
    uint8_t byte = bytes[taken];
    if (byte == 0) {
      if (before_delimiter) break;
      taken++;
      bool ended = run != 0; /* consecutive delimiters are ignored */
      bool complete = !failed && remaining == 0;
      run = 0;
      remaining = 0;
      code = 0;
      failed = false;
      if (!ended) {
        length = 0;
        continue;
      }
      /* Over the frame and its CRC (little-endian), the CRC is 0 (crc16.h) when they match. */
      uint16_t frame_crc = crc;
      crc = CRC16_INIT;
      if (complete && length >= FRAME_HEADER_SIZE + 2u && frame_crc == 0 &&
          parse_header(raw, length, &receiver->frame)) {
        *frame = &receiver->frame;
        break;
      }
      if (receiver->bad_frames != 0xFFFF) receiver->bad_frames++;
      continue;
    }
    if (run == 0) {
      length = 0; /* a new run: forget the last frame */
      crc = CRC16_INIT;
    }
    if (!failed) {
      /* As many as are here and surely fit: the run's and the buffer's limits. */
      uint16_t n = (uint16_t)(count - taken);
      if (n > (uint16_t)(FRAME_MAX_ENCODED - run)) n = (uint16_t)(FRAME_MAX_ENCODED - run);
      if (n > (uint16_t)(FRAME_MAX_RAW - length)) n = (uint16_t)(FRAME_MAX_RAW - length);
      if (n > 255) n = 255;
      if (n != 0) {
        block_state_t state = {crc, remaining, code};
        uint8_t written;
        uint8_t used = decode_blocks(raw + length, bytes + taken, (uint8_t)n, &state, &written);
        crc = state.crc;
        remaining = state.remaining;
        code = state.code;
        taken = (uint16_t)(taken + used);
        run = (uint16_t)(run + used);
        length = (uint16_t)(length + written);
        continue;
      }
    }
    /* One byte at the limits, or in a failed run. */
    taken++;
    run++;
    if (failed) continue;
    if (run > FRAME_MAX_ENCODED) {
      failed = true;
      continue;
    }
    if (remaining == 0) {
      /* A code byte: the previous block (if any, and not a full 255 block) implied a zero. */
      if (code != 0 && code != 0xFF) {
        if (length >= FRAME_MAX_RAW) {
          failed = true;
          continue;
        }
        raw[length++] = 0;
        crc = crc16_update(crc, 0);
      }
      code = byte;
      remaining = (uint8_t)(byte - 1u);
      continue;
    }
    if (length >= FRAME_MAX_RAW) {
      failed = true;
      continue;
    }
    raw[length++] = byte;
    crc = crc16_update(crc, byte);
    remaining--;
  }
  decoder->length = length;
  decoder->run = run;
  decoder->remaining = remaining;
  decoder->code = code;
  decoder->failed = failed;
  receiver->crc = crc;
  return taken;
}

const frame_t *frame_receiver_feed(frame_receiver_t *receiver, uint8_t byte) {
  const frame_t *frame;
  (void)frame_receiver_feed_bytes(receiver, &byte, 1, false, &frame);
  return frame;
}
