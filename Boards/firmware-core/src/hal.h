/*
 * hal.h — the hardware the portable protocol core and the driver back ends need, and nothing
 * more.
 *
 * Implemented on the ATmega328P by hal_avr_*.c, one peripheral per file (hal_avr_system.c: reset
 * cause, hardware watchdog, hal_init; hal_avr_clock.c: the board clock and idle sleep;
 * hal_avr_uart.c; hal_avr_eeprom.c; hal_avr_i2c.c, linked only by boards that list it in
 * HAL_PERIPHERALS), and on the host by test/fake_hal.c (a virtual clock, byte buffers, an
 * EEPROM image, an I2C bus whose devices the board's tests model). The core never touches
 * registers itself.
 */
#ifndef HAL_H
#define HAL_H

#include <stdbool.h>
#include <stdint.h>

/* Starts the clock, the UART and the AVR watchdog. Called once before board_init(). Other
 * peripherals start when a back end asks for them (hal_i2c_init). */
void hal_init(void);

/* Board clock (BOARD_CLOCK_HZ): the low 32 bits, and the whole counter. Monotonic. On the
 * ATmega328P it is Timer1 (its overflow and compare A are the HAL's; compare B is free for a
 * driver back end: the H-bridge's staged switches). */
uint32_t hal_ticks(void);
uint64_t hal_ticks64(void);

/* The UART's rings (bytes; one of each stays free). Receive: 127 bytes, 2.54 ms of bytes at
 * 500000 baud (11 ms at 115200): what arrives while the main loop is away must fit. The board
 * takes bytes between its pieces of work (board.c: receive, drain), and holds its
 * acknowledgements back while the ring backs up, so that the protocol's 322-byte window of
 * short frames does not pile up in it (make stream in Boards/uno-emulator measures both).
 * Transmit: hal_uart_tx_free() reports at most HAL_UART_TX_SIZE - 1. Both powers of two. */
#define HAL_UART_RX_SIZE 128
#define HAL_UART_TX_SIZE 128

/* UART: the next received byte or -1; free space in the transmit buffer; queue one byte
 * (only after checking hal_uart_tx_free(): the call never blocks). */
int hal_uart_getc(void);

/* The received bytes where they wait, without copying them (the board's receive loop decodes
 * them there: a call per byte is most of what a byte costs at 500000 baud): `*bytes` points at
 * the oldest, and the count returned follow it contiguously (up to the ring's end; the rest
 * once these are consumed). They stay, unchanged, until hal_uart_consume() drops them (the
 * oldest `count`, at most what hal_uart_peek() returned). */
uint8_t hal_uart_peek(const uint8_t **bytes);
void hal_uart_consume(uint8_t count);
/* How many received bytes wait in all (hal_uart_peek's and those past the ring's end). */
uint8_t hal_uart_waiting(void);
uint16_t hal_uart_tx_free(void);
void hal_uart_putc(uint8_t byte);
/* `count` bytes queued at once, as hal_uart_putc() each (after checking hal_uart_tx_free()). */
void hal_uart_write(const uint8_t *bytes, uint8_t count);

/* I2C master (400 kHz), for back ends with a chip on the bus: hal_i2c_init() once before the
 * first transfer; then one register of the device at 7-bit `address` written, or read (a
 * repeated start between the register number and the byte). False when the device does not
 * answer (NACK or a bus timeout: a missing chip never hangs the loop). */
void hal_i2c_init(void);
bool hal_i2c_write_register(uint8_t address, uint8_t reg, uint8_t value);
bool hal_i2c_read_register(uint8_t address, uint8_t reg, uint8_t *value);

/* EEPROM: bytes 0-1 are the HAL's boot counter and the last four, from HAL_EEPROM_SERIAL on,
 * its board serial; the bytes between, from HAL_EEPROM_FREE up to HAL_EEPROM_FREE_END (not
 * included), are the driver back end's to lay out (the DRV2605L keeps its calibration there).
 * A blank EEPROM reads 0xFF. */
#define HAL_EEPROM_SIZE 1024
#define HAL_EEPROM_FREE 2
#define HAL_EEPROM_SERIAL 1020 /* docs/protocol.md §6.11: the Uno's bytes 1020-1023 */
#define HAL_EEPROM_FREE_END HAL_EEPROM_SERIAL

/* Boot counter in EEPROM: reads it (blank 0xFFFF counts as 0), adds one, stores and returns
 * the new value. Called once per boot. */
uint16_t hal_boot_count_increment(void);

/* The board serial in EEPROM (§6.11: a u32, little-endian, that tells one board from another
 * of its type; the host assigns it): hal_board_serial() reads it, 0 when the board has none
 * (blank 0xFFFFFFFF, or 0); hal_set_board_serial() stores `serial` (not 0), each byte only
 * when it differs. On the ATmega328P a byte written takes ~3.4 ms, during which the loop
 * waits (interrupts run): once in a board's life. */
uint32_t hal_board_serial(void);
void hal_set_board_serial(uint32_t serial);

/* `length` bytes at EEPROM `address` read into `bytes`; written from `bytes`, each byte only
 * when it differs (EEPROM cells wear). */
void hal_eeprom_read(uint16_t address, uint8_t *bytes, uint8_t length);
void hal_eeprom_update(uint16_t address, const uint8_t *bytes, uint8_t length);

/* Why the board started, as a protocol reset cause (0 unknown, 1 power-on, 2 external,
 * 3 brown-out, 4 watchdog). */
uint8_t hal_reset_cause(void);

/* Kicks the hardware watchdog (the safety net against a hung main loop). */
void hal_watchdog_kick(void);

/* Nothing to do until `deadline` (board ticks, low 32 bits) unless a byte arrives: the AVR
 * sleeps (idle mode) until an interrupt; the host fake returns at once. */
void hal_idle_until(uint32_t deadline);

/* Constant tables kept in flash: HAL_FLASH on the definition, hal_flash_read() to copy an
 * entry out (on the AVR a plain const table would take RAM: it is copied there at boot). */
#ifdef __AVR__
#include <avr/pgmspace.h>
#define HAL_FLASH PROGMEM
#define hal_flash_read(destination, source, size) memcpy_P((destination), (source), (size))
#else
#include <string.h>
#define HAL_FLASH
#define hal_flash_read(destination, source, size) memcpy((destination), (source), (size))
#endif

#endif
