/*
 * hal_avr_eeprom.c — the ATmega328P's EEPROM: the boot counter in bytes 0-1 and the board
 * serial in bytes 1020-1023 (the HAL's), and plain reads and updates of the bytes between,
 * from HAL_EEPROM_FREE on, which the driver back end lays out (the DRV2605L keeps its
 * calibration record there: drv2605.h).
 */
#include <avr/eeprom.h>

#include "hal.h"

#define BOOT_COUNT_EEPROM ((uint16_t *)0)
/* The AVR is little-endian: a dword is stored as §6.11 lays the serial out. */
#define SERIAL_EEPROM ((uint32_t *)HAL_EEPROM_SERIAL)

uint16_t hal_boot_count_increment(void) {
  uint16_t count = eeprom_read_word(BOOT_COUNT_EEPROM);
  if (count == 0xFFFF) count = 0; /* blank EEPROM */
  count++;
  eeprom_update_word(BOOT_COUNT_EEPROM, count);
  return count;
}

uint32_t hal_board_serial(void) {
  uint32_t serial = eeprom_read_dword(SERIAL_EEPROM);
  return serial == 0xFFFFFFFFUL ? 0 : serial; /* blank EEPROM: none */
}

void hal_set_board_serial(uint32_t serial) { eeprom_update_dword(SERIAL_EEPROM, serial); }

void hal_eeprom_read(uint16_t address, uint8_t *bytes, uint8_t length) {
  eeprom_read_block(bytes, (const void *)address, length);
}

void hal_eeprom_update(uint16_t address, const uint8_t *bytes, uint8_t length) {
  eeprom_update_block(bytes, (void *)address, length);
}
