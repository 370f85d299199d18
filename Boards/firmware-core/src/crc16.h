/*
 * crc16.h — CRC-16/MCRF4XX (docs/protocol.md §3): polynomial 0x1021 reflected (0x8408),
 * initial value 0xFFFF, reflected in and out, no final XOR. Check value "123456789" = 0x6F91.
 * Without a final XOR, the CRC of a frame followed by its own CRC (little-endian) is 0: the
 * receiver runs it over every byte as it comes (frame_receiver_feed).
 */
#ifndef CRC16_H
#define CRC16_H

#include <stdint.h>

#define CRC16_INIT 0xFFFFu

#ifdef __AVR__
#include <avr/pgmspace.h>
#define CRC16_FLASH PROGMEM
#define CRC16_TABLE_READ(index) pgm_read_word(&crc16_table[index])
#else
#define CRC16_FLASH
#define CRC16_TABLE_READ(index) (crc16_table[index])
#endif

/* crc16_table[i]: the register after byte i from a register of 0, bit by bit (reflected
 * 0x8408); in flash on the AVR. */
extern const uint16_t crc16_table[256] CRC16_FLASH;

/* Adds one byte to a running CRC: inline, a table look-up (the receiver adds every byte it
 * takes: at 500000 baud one every 320 cycles; ~12 cycles on the AVR). */
static inline uint16_t crc16_update(uint16_t crc, uint8_t byte) {
  return (uint16_t)((crc >> 8) ^ CRC16_TABLE_READ((uint8_t)(crc ^ byte)));
}

/* The CRC of `count` bytes. */
uint16_t crc16(const uint8_t *bytes, uint16_t count);

#endif
