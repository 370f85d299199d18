/*
 * fake_hal.h — the HAL on the host for tests: a virtual clock, UART byte buffers, the boot
 * counter and an EEPROM image, a reset cause, and an I2C bus whose device (if any) the board's
 * tests model (the DRV2605L's register file: uno-drv2605l/firmware/test/fake_drv2605.c).
 */
#ifndef FAKE_HAL_H
#define FAKE_HAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hal.h"

/* A device on the fake I2C bus: its register writes and reads by address; false when nothing
 * answers at `address`. */
typedef struct {
  bool (*write)(uint8_t address, uint8_t reg, uint8_t value);
  bool (*read)(uint8_t address, uint8_t reg, uint8_t *value);
} fake_i2c_device_t;

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

  /* I2C: the device on the bus (NULL: nothing answers), set by fake_board_reset(). */
  const fake_i2c_device_t *i2c;

  /* EEPROM and reset */
  uint16_t eeprom_boot; /* word 0, the boot counter (hal_boot_count_increment); 0xFFFF: blank */
  uint8_t eeprom[HAL_EEPROM_SIZE]; /* what hal_eeprom_read/update see (all 0xFF: blank); the
                                     * serial in bytes 1020-1023 (hal_board_serial) */
  unsigned serial_writes;          /* hal_set_board_serial calls */
  uint8_t reset_cause;
  unsigned watchdog_kicks;
} fake_hal_t;

extern fake_hal_t fake;

/* Resets every fake to its defaults with the clock at `start` ticks, then the board's own
 * (fake_board_reset). */
void fake_reset(uint64_t start);

/* The board's fakes back to their defaults (its chip present, datasheet register values, an
 * empty log): provided by each test program, with its board's fakes; called by fake_reset(). */
void fake_board_reset(void);

void fake_rx(const uint8_t *bytes, size_t count);
size_t fake_rx_pending(void);

#endif
