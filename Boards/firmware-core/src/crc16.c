/*
 * crc16.c — CRC-16/MCRF4XX, bit by bit (no table: flash and RAM matter more than speed here,
 * frames are short). On the AVR this is avr-libc's _crc_ccitt_update, the same function in
 * hand-optimised assembly; the host build uses the portable loop.
 */
#include "crc16.h"

#ifdef __AVR__
#include <util/crc16.h>
#endif

uint16_t crc16_update(uint16_t crc, uint8_t byte) {
#ifdef __AVR__
  return _crc_ccitt_update(crc, byte);
#else
  crc ^= byte;
  for (uint8_t bit = 0; bit < 8; bit++) {
    crc = (crc & 1u) ? (uint16_t)((crc >> 1) ^ 0x8408u) : (uint16_t)(crc >> 1);
  }
  return crc;
#endif
}

uint16_t crc16(const uint8_t *bytes, uint16_t count) {
  uint16_t crc = CRC16_INIT;
  for (uint16_t i = 0; i < count; i++) crc = crc16_update(crc, bytes[i]);
  return crc;
}
