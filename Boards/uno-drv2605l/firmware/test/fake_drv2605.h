/*
 * fake_drv2605.h — the DRV2605L on the fake I2C bus (fake_hal.h) for this board's tests: a
 * register file answering at DRV_I2C_ADDRESS that logs every write with its time, runs GO as
 * the chip does (auto-calibration with a 175 Hz LRA's results, ROM effects) and can be taken
 * off the bus. fake_reset() resets it (fake_board_reset).
 */
#ifndef FAKE_DRV2605_H
#define FAKE_DRV2605_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t time; /* ticks */
  uint8_t reg;
  uint8_t value;
} fake_write_t;

#define FAKE_MAX_WRITES 8192

typedef struct {
  bool chip_present; /* false: every transfer fails (NACK) */
  uint8_t regs[256];
  fake_write_t writes[FAKE_MAX_WRITES];
  size_t write_count;
  size_t reads;
  uint64_t go_busy_until;     /* GO reads 1 until then */
  uint64_t calibration_ticks; /* how long GO stays set in MODE 7 (UINT64_MAX: forever) */
  uint64_t rom_ticks;         /* in MODE 0 */
  uint8_t calibration_status; /* STATUS low bits after a calibration (0x08: DIAG failed) */
} fake_drv_t;

extern fake_drv_t fake_drv;

/* The chip present, device id 7, datasheet register defaults, an empty log; on the bus. */
void fake_drv2605_reset(void);

/* Register writes to `reg` since index `from`, for searching the log. */
size_t fake_find_write(size_t from, uint8_t reg);

#endif
