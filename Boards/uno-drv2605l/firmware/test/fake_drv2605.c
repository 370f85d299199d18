/*
 * fake_drv2605.c — the DRV2605L register file on the fake I2C bus (fake_drv2605.h).
 */
#include "fake_drv2605.h"

#include <string.h>

#include "drv2605.h"
#include "fake_hal.h"

fake_drv_t fake_drv;

static bool chip_write(uint8_t address, uint8_t reg, uint8_t value) {
  if (address != DRV_I2C_ADDRESS || !fake_drv.chip_present) return false;
  if (fake_drv.write_count < FAKE_MAX_WRITES) {
    fake_drv.writes[fake_drv.write_count++] = (fake_write_t){fake.now, reg, value};
  }
  if (reg == 0x00) return true; /* STATUS is read-only */
  fake_drv.regs[reg] = value;
  if (reg == 0x0C) {
    uint8_t mode = fake_drv.regs[0x01] & 7;
    if ((value & 1) == 0) {
      fake_drv.go_busy_until = 0;
    } else if (mode == 7) {
      fake_drv.go_busy_until =
          fake_drv.calibration_ticks == UINT64_MAX ? UINT64_MAX : fake.now + fake_drv.calibration_ticks;
    } else if (mode == 0) {
      fake_drv.go_busy_until = fake.now + fake_drv.rom_ticks;
    }
  }
  return true;
}

static bool chip_read(uint8_t address, uint8_t reg, uint8_t *value) {
  if (address != DRV_I2C_ADDRESS || !fake_drv.chip_present) return false;
  fake_drv.reads++;
  if (reg == 0x0C) {
    bool busy = fake.now < fake_drv.go_busy_until;
    if (!busy && (fake_drv.regs[0x0C] & 1) && (fake_drv.regs[0x01] & 7) == 7) {
      /* Auto-calibration finished: results as a 175 Hz LRA would give. */
      fake_drv.regs[0x18] = 0x0C;
      fake_drv.regs[0x19] = 0x8C;
      fake_drv.regs[0x22] = 0x3A;
      fake_drv.regs[0x1A] = (uint8_t)((fake_drv.regs[0x1A] & 0xFC) | 0x03); /* BEMF_GAIN found: 3 */
      fake_drv.regs[0x00] = (uint8_t)((fake_drv.regs[0x00] & 0xE0) | fake_drv.calibration_status);
    }
    if (!busy) fake_drv.regs[0x0C] &= (uint8_t)~1u;
  }
  *value = fake_drv.regs[reg];
  return true;
}

static const fake_i2c_device_t chip = {chip_write, chip_read};

void fake_drv2605_reset(void) {
  memset(&fake_drv, 0, sizeof fake_drv);
  fake_drv.chip_present = true;
  /* DRV2605L reset values (SLOS854): STATUS id 7, standby, defaults of the loop registers. */
  fake_drv.regs[0x00] = 0xE0;
  fake_drv.regs[0x01] = 0x40;
  fake_drv.regs[0x04] = 0x01;
  fake_drv.regs[0x16] = 0x3E;
  fake_drv.regs[0x17] = 0x8C;
  fake_drv.regs[0x18] = 0x0C;
  fake_drv.regs[0x19] = 0x6C;
  fake_drv.regs[0x1A] = 0x36;
  fake_drv.regs[0x1B] = 0x93;
  fake_drv.regs[0x1C] = 0xF5;
  fake_drv.regs[0x1D] = 0xA0;
  fake_drv.regs[0x1E] = 0x20;
  fake_drv.regs[0x1F] = 0x80;
  fake_drv.regs[0x20] = 0x33;
  fake_drv.calibration_ticks = 2000000; /* 1 s */
  fake_drv.rom_ticks = 200000;          /* 100 ms */
  fake.i2c = &chip;
}

/* This board's fakes: the chip. */
void fake_board_reset(void) { fake_drv2605_reset(); }

size_t fake_find_write(size_t from, uint8_t reg) {
  for (size_t i = from; i < fake_drv.write_count; i++) {
    if (fake_drv.writes[i].reg == reg) return i;
  }
  return (size_t)-1;
}
