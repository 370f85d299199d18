/*
 * wire.c — payload encoding and decoding, byte for byte as Sources/HapticWire (WireBytes,
 * Capabilities, BoardStatus, WireMessage, SegmentBatch).
 */
#include "wire.h"

/* ---- Writing ---- */

void wire_writer_init(wire_writer_t *writer, uint8_t *bytes, uint8_t capacity) {
  writer->bytes = bytes;
  writer->length = 0;
  writer->capacity = capacity;
  writer->overflow = false;
}

void wire_put_u8(wire_writer_t *writer, uint8_t value) {
  if (writer->length >= writer->capacity) {
    writer->overflow = true;
    return;
  }
  writer->bytes[writer->length++] = value;
}

void wire_put_u16(wire_writer_t *writer, uint16_t value) {
  wire_put_u8(writer, (uint8_t)value);
  wire_put_u8(writer, (uint8_t)(value >> 8));
}

void wire_put_u32(wire_writer_t *writer, uint32_t value) {
  wire_put_u16(writer, (uint16_t)value);
  wire_put_u16(writer, (uint16_t)(value >> 16));
}

void wire_put_u64(wire_writer_t *writer, uint64_t value) {
  wire_put_u32(writer, (uint32_t)value);
  wire_put_u32(writer, (uint32_t)(value >> 32));
}

void wire_put_str(wire_writer_t *writer, const char *text) {
  uint8_t length = 0;
  while (text[length] != 0 && length < 255) length++;
  wire_put_u8(writer, length);
  for (uint8_t i = 0; i < length; i++) wire_put_u8(writer, (uint8_t)text[i]);
}

/* ---- Reading ---- */

void wire_reader_init(wire_reader_t *reader, const uint8_t *bytes, uint8_t length) {
  reader->bytes = bytes;
  reader->length = length;
  reader->position = 0;
  reader->failed = false;
}

uint8_t wire_get_u8(wire_reader_t *reader) {
  if (reader->failed || reader->position >= reader->length) {
    reader->failed = true;
    return 0;
  }
  return reader->bytes[reader->position++];
}

uint16_t wire_get_u16(wire_reader_t *reader) {
  uint16_t low = wire_get_u8(reader);
  return (uint16_t)(low | (uint16_t)wire_get_u8(reader) << 8);
}

uint32_t wire_get_u32(wire_reader_t *reader) {
  uint32_t low = wire_get_u16(reader);
  return low | (uint32_t)wire_get_u16(reader) << 16;
}

uint64_t wire_get_u64(wire_reader_t *reader) {
  uint64_t low = wire_get_u32(reader);
  return low | (uint64_t)wire_get_u32(reader) << 32;
}

bool wire_reader_done(const wire_reader_t *reader) {
  return !reader->failed && reader->position == reader->length;
}

/* ---- Board -> host messages ---- */

void wire_capabilities(wire_writer_t *writer, const wire_capabilities_t *c) {
  wire_put_u8(writer, c->protocol_version);
  wire_put_str(writer, c->firmware_name);
  wire_put_str(writer, c->firmware_version);
  wire_put_str(writer, c->board_id);
  wire_put_u16(writer, c->boot_count);
  wire_put_u32(writer, c->clock_hz);
  wire_put_u16(writer, c->frame_period_us);
  wire_put_u16(writer, c->queue_depth);
  wire_put_u16(writer, c->watchdog_ms);
  wire_put_u16(writer, c->features);
  wire_put_u8(writer, c->channel_count);
  for (uint8_t i = 0; i < c->channel_count && i < WIRE_MAX_CHANNELS; i++) {
    const wire_channel_info_t *channel = &c->channels[i];
    wire_put_u8(writer, channel->kind);
    wire_put_u16(writer, channel->f0_x10);
    wire_put_u16(writer, channel->q_x100);
    wire_put_u16(writer, channel->freq_min);
    wire_put_u16(writer, channel->freq_max);
    wire_put_u8(writer, channel->amplitude_bits);
    wire_put_u8(writer, channel->calibration);
  }
}

void wire_clock(wire_writer_t *writer, uint16_t id, uint64_t board_time) {
  wire_put_u16(writer, id);
  wire_put_u64(writer, board_time);
}

void wire_status(wire_writer_t *writer, const wire_status_t *s) {
  wire_put_u32(writer, s->board_time);
  wire_put_u8(writer, s->watchdog);
  wire_put_u8(writer, s->faults);
  wire_put_u16(writer, s->bad_frames);
  wire_put_u8(writer, s->channel_count);
  for (uint8_t i = 0; i < s->channel_count && i < WIRE_MAX_CHANNELS; i++) {
    const wire_channel_status_t *channel = &s->channels[i];
    wire_put_u16(writer, channel->queue_fill);
    wire_put_u16(writer, channel->underruns);
    wire_put_u16(writer, channel->late_segments);
    wire_put_u16(writer, (uint16_t)channel->level);
  }
}

void wire_reset_notice(wire_writer_t *writer, uint16_t boot_count, uint8_t cause) {
  wire_put_u16(writer, boot_count);
  wire_put_u8(writer, cause);
}

void wire_calibration_result(wire_writer_t *writer, uint8_t channel, bool succeeded, uint16_t f0_x10,
                             uint8_t compensation, uint8_t back_emf) {
  wire_put_u8(writer, channel);
  wire_put_u8(writer, succeeded ? 1 : 0);
  wire_put_u16(writer, f0_x10);
  wire_put_u8(writer, compensation);
  wire_put_u8(writer, back_emf);
}

void wire_error(wire_writer_t *writer, uint8_t code, uint8_t message_type, uint16_t detail) {
  wire_put_u8(writer, code);
  wire_put_u8(writer, message_type);
  wire_put_u16(writer, detail);
}

void wire_identity(wire_writer_t *writer, uint32_t serial) { wire_put_u32(writer, serial); }

/* ---- Segment batches ---- */

bool wire_batch_begin(wire_batch_t *batch, const uint8_t *payload, uint8_t length) {
  /* The 7-byte header, read as wire_get_* would (a field past the end reads 0), directly. */
  uint8_t header[7] = {0, 0, 0, 0, 0, 0, 0};
  uint8_t have = length < sizeof header ? length : (uint8_t)sizeof header;
  for (uint8_t i = 0; i < have; i++) header[i] = payload[i];
  batch->channel = header[0];
  batch->start_time = have >= 5 ? (uint32_t)header[1] | (uint32_t)header[2] << 8 | (uint32_t)header[3] << 16 |
                                      (uint32_t)header[4] << 24
                                : 0;
  batch->level_bytes = header[5];
  batch->count = header[6];
  batch->at = payload + have;
  batch->end = payload + length;
  batch->index = 0;
  batch->level = 0;
  batch->frequency = 0;
  if (have < sizeof header) return false;
  return batch->level_bytes == 1 || batch->level_bytes == 2;
}
