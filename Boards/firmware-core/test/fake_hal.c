/*
 * fake_hal.c — host implementation of hal.h for the tests.
 */
#include "fake_hal.h"

#include <string.h>

#include "hal.h"

fake_hal_t fake;

void fake_reset(uint64_t start) {
  memset(&fake, 0, sizeof fake);
  fake.now = start;
  fake.tx_space = 512;
  fake.chip_present = true;
  /* DRV2605L reset values (SLOS854): STATUS id 7, standby, defaults of the loop registers. */
  fake.regs[0x00] = 0xE0;
  fake.regs[0x01] = 0x40;
  fake.regs[0x04] = 0x01;
  fake.regs[0x16] = 0x3E;
  fake.regs[0x17] = 0x8C;
  fake.regs[0x18] = 0x0C;
  fake.regs[0x19] = 0x6C;
  fake.regs[0x1A] = 0x36;
  fake.regs[0x1B] = 0x93;
  fake.regs[0x1C] = 0xF5;
  fake.regs[0x1D] = 0xA0;
  fake.regs[0x1E] = 0x20;
  fake.regs[0x1F] = 0x80;
  fake.regs[0x20] = 0x33;
  fake.calibration_ticks = 2000000; /* 1 s */
  fake.rom_ticks = 200000;          /* 100 ms */
  fake.eeprom_boot = 0xFFFF;
  memset(fake.eeprom_calibration, 0xFF, sizeof fake.eeprom_calibration);
  fake.reset_cause = 1;
}

void fake_rx(const uint8_t *bytes, size_t count) {
  for (size_t i = 0; i < count; i++) fake.rx[(fake.rx_head++) % sizeof fake.rx] = bytes[i];
}

size_t fake_rx_pending(void) { return fake.rx_head - fake.rx_tail; }

size_t fake_find_write(size_t from, uint8_t reg) {
  for (size_t i = from; i < fake.write_count; i++) {
    if (fake.writes[i].reg == reg) return i;
  }
  return (size_t)-1;
}

/* ---- hal.h ---- */

void hal_init(void) {}

uint32_t hal_ticks(void) { return (uint32_t)fake.now; }
uint64_t hal_ticks64(void) { return fake.now; }

int hal_uart_getc(void) {
  if (fake.rx_tail == fake.rx_head) return -1;
  return fake.rx[(fake.rx_tail++) % sizeof fake.rx];
}

uint16_t hal_uart_tx_free(void) {
  return fake.tx_length >= sizeof fake.tx ? 0 : fake.tx_space;
}

void hal_uart_putc(uint8_t byte) {
  if (fake.tx_length < sizeof fake.tx) fake.tx[fake.tx_length++] = byte;
  if (fake.tx_space_drains && fake.tx_space > 0) fake.tx_space--;
}

bool hal_drv_write(uint8_t reg, uint8_t value) {
  if (!fake.chip_present) return false;
  if (fake.write_count < FAKE_MAX_WRITES) {
    fake.writes[fake.write_count++] = (fake_write_t){fake.now, reg, value};
  }
  if (reg == 0x00) return true; /* STATUS is read-only */
  fake.regs[reg] = value;
  if (reg == 0x0C) {
    uint8_t mode = fake.regs[0x01] & 7;
    if ((value & 1) == 0) {
      fake.go_busy_until = 0;
    } else if (mode == 7) {
      fake.go_busy_until = fake.calibration_ticks == UINT64_MAX ? UINT64_MAX : fake.now + fake.calibration_ticks;
    } else if (mode == 0) {
      fake.go_busy_until = fake.now + fake.rom_ticks;
    }
  }
  return true;
}

bool hal_drv_read(uint8_t reg, uint8_t *value) {
  if (!fake.chip_present) return false;
  fake.reads++;
  if (reg == 0x0C) {
    bool busy = fake.now < fake.go_busy_until;
    if (!busy && (fake.regs[0x0C] & 1) && (fake.regs[0x01] & 7) == 7) {
      /* Auto-calibration finished: results as a 175 Hz LRA would give. */
      fake.regs[0x18] = 0x0C;
      fake.regs[0x19] = 0x8C;
      fake.regs[0x22] = 0x3A;
      fake.regs[0x1A] = (uint8_t)((fake.regs[0x1A] & 0xFC) | 0x03); /* BEMF_GAIN found: 3 */
      fake.regs[0x00] = (uint8_t)((fake.regs[0x00] & 0xE0) | fake.calibration_status);
    }
    if (!busy) fake.regs[0x0C] &= (uint8_t)~1u;
  }
  *value = fake.regs[reg];
  return true;
}

uint16_t hal_boot_count_increment(void) {
  uint16_t count = fake.eeprom_boot == 0xFFFF ? 0 : fake.eeprom_boot;
  fake.eeprom_boot = (uint16_t)(count + 1);
  return fake.eeprom_boot;
}

bool hal_calibration_load(uint8_t record[HAL_CALIBRATION_SIZE]) {
  memcpy(record, fake.eeprom_calibration, HAL_CALIBRATION_SIZE);
  for (int i = 0; i < HAL_CALIBRATION_SIZE; i++) {
    if (record[i] != 0xFF) return true;
  }
  return false;
}

void hal_calibration_store(const uint8_t record[HAL_CALIBRATION_SIZE]) {
  memcpy(fake.eeprom_calibration, record, HAL_CALIBRATION_SIZE);
}

uint8_t hal_reset_cause(void) { return fake.reset_cause; }

void hal_watchdog_kick(void) { fake.watchdog_kicks++; }

void hal_idle_until(uint32_t deadline) {
  fake.idle_deadline = deadline;
  fake.idled = true;
}
