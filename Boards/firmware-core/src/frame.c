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

bool frame_parse(const uint8_t *raw, uint16_t count, frame_t *frame) {
  if (count < FRAME_HEADER_SIZE + 2u || count > FRAME_MAX_RAW) return false;
  uint16_t expected = (uint16_t)(raw[count - 2] | (uint16_t)raw[count - 1] << 8);
  if (crc16(raw, (uint16_t)(count - 2u)) != expected) return false;
  /* The length byte must match: without a final XOR a duplicated trailing zero could pass. */
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
  receiver->bad_frames = 0;
}

const frame_t *frame_receiver_feed(frame_receiver_t *receiver, uint8_t byte) {
  cobs_result_t result = cobs_decoder_feed(&receiver->decoder, byte);
  if (result == COBS_MORE) return 0;
  if (result == COBS_FRAME && frame_parse(receiver->raw, receiver->decoder.length, &receiver->frame)) {
    return &receiver->frame;
  }
  if (receiver->bad_frames != 0xFFFF) receiver->bad_frames++;
  return 0;
}
