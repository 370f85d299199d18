/*
 * fake_hal.h — the HAL on the host for tests: a virtual clock, UART byte buffers, a DRV2605L
 * register file that logs every write with its time, an EEPROM boot counter and a reset cause.
 */
#ifndef FAKE_HAL_H
#define FAKE_HAL_H

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
  uint64_t now;           /* the board clock (ticks) */
  uint32_t idle_deadline; /* the last deadline passed to hal_idle_until */
  bool idled;

  /* UART */
  uint8_t rx[8192];
  size_t rx_head, rx_tail;
  uint8_t tx[16384];
  size_t tx_length;   /* bytes the board wrote and the test did not take yet */
  uint16_t tx_space;  /* what hal_uart_tx_free reports (free space of a UART buffer) */
  bool tx_space_drains; /* hal_uart_putc uses up tx_space (a caller refills it as bytes leave) */

  /* DRV2605L */
  bool chip_present;
  uint8_t regs[256];
  fake_write_t writes[FAKE_MAX_WRITES];
  size_t write_count;
  size_t reads;
  uint64_t go_busy_until;     /* GO reads 1 until then */
  uint64_t calibration_ticks; /* how long GO stays set in MODE 7 (UINT64_MAX: forever) */
  uint64_t rom_ticks;         /* in MODE 0 */
  uint8_t calibration_status; /* STATUS low bits after a calibration (0x08: DIAG failed) */

  /* EEPROM and reset */
  uint16_t eeprom_boot; /* 0xFFFF: blank */
  uint8_t eeprom_calibration[6]; /* all 0xFF: blank */
  uint8_t reset_cause;
  unsigned watchdog_kicks;
} fake_hal_t;

extern fake_hal_t fake;

/* Resets every fake to its defaults with the clock at `start` ticks (the chip present,
 * device id 7, datasheet register defaults). */
void fake_reset(uint64_t start);

void fake_rx(const uint8_t *bytes, size_t count);
size_t fake_rx_pending(void);

/* Register writes to `reg` since index `from`, for searching the log. */
size_t fake_find_write(size_t from, uint8_t reg);

#endif
