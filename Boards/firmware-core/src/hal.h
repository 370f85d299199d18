/*
 * hal.h — the hardware the portable protocol core needs, and nothing more.
 *
 * Implemented by hal_avr.c on the ATmega328P and by test/fake_hal.c on the host (a virtual
 * clock, byte buffers and a register-file DRV2605L). The core never touches registers itself.
 */
#ifndef HAL_H
#define HAL_H

#include <stdbool.h>
#include <stdint.h>

/* Starts the clock, UART, I2C, and the AVR watchdog. Called once before board_init(). */
void hal_init(void);

/* Board clock (BOARD_CLOCK_HZ): the low 32 bits, and the whole counter. Monotonic. On the
 * ATmega328P it is Timer1 (its overflow and compare A are the HAL's; compare B is free for a
 * driver back end: the H-bridge's staged switches). */
uint32_t hal_ticks(void);
uint64_t hal_ticks64(void);

/* The UART's receive ring (bytes; one stays free): ~11 ms of bytes at 115200 baud, room for
 * what arrives while the H-bridge board decodes a batch (up to ~4 ms). */
#define HAL_UART_RX_SIZE 128

/* UART: the next received byte or -1; free space in the transmit buffer; queue one byte
 * (only after checking hal_uart_tx_free(): the call never blocks). */
int hal_uart_getc(void);
uint16_t hal_uart_tx_free(void);
void hal_uart_putc(uint8_t byte);

/* DRV2605L register access over I2C (address 0x5A). False when the chip does not answer
 * (NACK or bus timeout): callers treat the driver as not responding. */
bool hal_drv_write(uint8_t reg, uint8_t value);
bool hal_drv_read(uint8_t reg, uint8_t *value);

/* Boot counter in EEPROM: reads it (blank 0xFFFF counts as 0), adds one, stores and returns
 * the new value. Called once per boot. */
uint16_t hal_boot_count_increment(void);

/* The DRV2605L's calibration kept in EEPROM (address 2, after the boot counter) so that a
 * board starts calibrated: HAL_CALIBRATION_SIZE bytes as drv2605.c lays them out. Load returns
 * false for a blank EEPROM; the layout's own check byte catches anything else. */
#define HAL_CALIBRATION_SIZE 6
bool hal_calibration_load(uint8_t record[HAL_CALIBRATION_SIZE]);
void hal_calibration_store(const uint8_t record[HAL_CALIBRATION_SIZE]);

/* Why the board started, as a protocol reset cause (0 unknown, 1 power-on, 2 external,
 * 3 brown-out, 4 watchdog). */
uint8_t hal_reset_cause(void);

/* Kicks the hardware watchdog (the safety net against a hung main loop). */
void hal_watchdog_kick(void);

/* Nothing to do until `deadline` (board ticks, low 32 bits) unless a byte arrives: the AVR
 * sleeps (idle mode) until an interrupt; the host fake returns at once. */
void hal_idle_until(uint32_t deadline);

#endif
