/*
 * crc16.h — CRC-16/MCRF4XX (docs/protocol.md §3): polynomial 0x1021 reflected (0x8408),
 * initial value 0xFFFF, reflected in and out, no final XOR. Check value "123456789" = 0x6F91.
 */
#ifndef CRC16_H
#define CRC16_H

#include <stdint.h>

#define CRC16_INIT 0xFFFFu

/* Adds one byte to a running CRC. */
uint16_t crc16_update(uint16_t crc, uint8_t byte);

/* The CRC of `count` bytes. */
uint16_t crc16(const uint8_t *bytes, uint16_t count);

#endif
