/*
 * hal_avr_eeprom.c — the ATmega328P's EEPROM: the boot counter in bytes 0-1 (the HAL's), and
 * plain reads and updates of the bytes from HAL_EEPROM_FREE on, which the driver back end lays
 * out (the DRV2605L keeps its calibration record there: drv2605.h).
 */
#include <avr/eeprom.h>

#include "hal.h"

#define BOOT_COUNT_EEPROM ((uint16_t *)0)

uint16_t hal_boot_count_increment(void) {
  uint16_t count = eeprom_read_word(BOOT_COUNT_EEPROM);
  if (count == 0xFFFF) count = 0; /* blank EEPROM */
  count++;
  eeprom_update_word(BOOT_COUNT_EEPROM, count);
  return count;
}

void hal_eeprom_read(uint16_t address, uint8_t *bytes, uint8_t length) {
  eeprom_read_block(bytes, (const void *)address, length);
}

void hal_eeprom_update(uint16_t address, const uint8_t *bytes, uint8_t length) {
  eeprom_update_block(bytes, (void *)address, length);
}
