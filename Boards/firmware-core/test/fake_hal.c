/*
 * fake_hal.c — host implementation of hal.h for the tests (fake_hal.h).
 */
#include "fake_hal.h"

#include <string.h>

fake_hal_t fake;

void fake_reset(uint64_t start) {
  memset(&fake, 0, sizeof fake);
  fake.now = start;
  fake.tx_space = 512;
  fake.eeprom_boot = 0xFFFF;
  memset(fake.eeprom, 0xFF, sizeof fake.eeprom);
  fake.reset_cause = 1;
  fake_board_reset();
}

void fake_rx(const uint8_t *bytes, size_t count) {
  for (size_t i = 0; i < count; i++) fake.rx[(fake.rx_head++) % sizeof fake.rx] = bytes[i];
}

size_t fake_rx_pending(void) { return fake.rx_head - fake.rx_tail; }

/* ---- hal.h ---- */

void hal_init(void) {}

uint32_t hal_ticks(void) { return (uint32_t)fake.now; }
uint64_t hal_ticks64(void) { return fake.now; }

int hal_uart_getc(void) {
  if (fake.rx_tail == fake.rx_head) return -1;
  return fake.rx[(fake.rx_tail++) % sizeof fake.rx];
}

uint8_t hal_uart_peek(const uint8_t **bytes) {
  size_t at = fake.rx_tail % sizeof fake.rx, count = fake.rx_head - fake.rx_tail;
  if (count > sizeof fake.rx - at) count = sizeof fake.rx - at; /* up to the ring's end */
  if (count > 255) count = 255;
  *bytes = &fake.rx[at];
  return (uint8_t)count;
}

void hal_uart_consume(uint8_t count) { fake.rx_tail += count; }

uint8_t hal_uart_waiting(void) {
  size_t count = fake.rx_head - fake.rx_tail;
  return (uint8_t)(count > 255 ? 255 : count);
}

uint16_t hal_uart_tx_free(void) {
  return fake.tx_length >= sizeof fake.tx ? 0 : fake.tx_space;
}

void hal_uart_putc(uint8_t byte) {
  if (fake.tx_length < sizeof fake.tx) fake.tx[fake.tx_length++] = byte;
  if (fake.tx_space_drains && fake.tx_space > 0) fake.tx_space--;
}

void hal_uart_write(const uint8_t *bytes, uint8_t count) {
  for (uint8_t i = 0; i < count; i++) hal_uart_putc(bytes[i]);
}

void hal_i2c_init(void) {}

bool hal_i2c_write_register(uint8_t address, uint8_t reg, uint8_t value) {
  return fake.i2c && fake.i2c->write(address, reg, value);
}

bool hal_i2c_read_register(uint8_t address, uint8_t reg, uint8_t *value) {
  return fake.i2c && fake.i2c->read(address, reg, value);
}

uint16_t hal_boot_count_increment(void) {
  uint16_t count = fake.eeprom_boot == 0xFFFF ? 0 : fake.eeprom_boot;
  fake.eeprom_boot = (uint16_t)(count + 1);
  return fake.eeprom_boot;
}

/* The serial as the AVR keeps it: little-endian in the image's bytes 1020-1023. */
uint32_t hal_board_serial(void) {
  const uint8_t *bytes = fake.eeprom + HAL_EEPROM_SERIAL;
  uint32_t serial = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
  return serial == 0xFFFFFFFFUL ? 0 : serial;
}

void hal_set_board_serial(uint32_t serial) {
  for (uint8_t i = 0; i < 4; i++) fake.eeprom[HAL_EEPROM_SERIAL + i] = (uint8_t)(serial >> (8 * i));
  fake.serial_writes++;
}

void hal_eeprom_read(uint16_t address, uint8_t *bytes, uint8_t length) {
  for (uint8_t i = 0; i < length; i++) bytes[i] = fake.eeprom[(address + i) % HAL_EEPROM_SIZE];
}

void hal_eeprom_update(uint16_t address, const uint8_t *bytes, uint8_t length) {
  for (uint8_t i = 0; i < length; i++) fake.eeprom[(address + i) % HAL_EEPROM_SIZE] = bytes[i];
}

uint8_t hal_reset_cause(void) { return fake.reset_cause; }

void hal_watchdog_kick(void) { fake.watchdog_kicks++; }

void hal_idle_until(uint32_t deadline) {
  fake.idle_deadline = deadline;
  fake.idled = true;
}
