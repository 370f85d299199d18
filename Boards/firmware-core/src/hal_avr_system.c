/*
 * hal_avr.c — the HAL on an Arduino Uno (ATmega328P at 16 MHz):
 *
 *  - clock: Timer1, prescaler 8 -> 2 MHz ticks; its overflow interrupt extends the 16-bit
 *    counter to 48 bits; compare A wakes the CPU from idle sleep at the next deadline;
 *  - UART0: 115200 baud 8N1 with U2X (UBRR0 = 16), receive interrupt into a 64-byte ring,
 *    transmit from a 128-byte ring on the data-register-empty interrupt;
 *  - TWI: 400 kHz, polled, every wait bounded (a missing chip cannot hang the loop);
 *  - EEPROM word 0: the boot counter; MCUSR (saved before anything else runs): reset cause;
 *  - hardware watchdog: 500 ms, kicked by the main loop.
 */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <avr/wdt.h>
#include <util/atomic.h>
#include <util/twi.h>

#include "board_config.h"
#include "hal.h"

/* ---- Reset cause: saved before the C runtime starts ---- */

/* MCUSR, and r2, where Optiboot 6 and later pass the flags after clearing MCUSR. Stock
 * Optiboot 4.4 on the Uno clears MCUSR and passes nothing: r2 is then used only when it looks
 * like reset flags (non-zero, bits 7:4 clear), else the cause reads "unknown" (0). A leftover
 * r2 value that happens to look like flags would be misreported: a known limit. */
static uint8_t saved_mcusr __attribute__((section(".noinit")));
static uint8_t saved_r2 __attribute__((section(".noinit")));

void early_save_r2(void) __attribute__((naked, used, section(".init0")));
void early_save_r2(void) { __asm__ volatile("sts saved_r2, r2" ::: "memory"); }

void early_reset_flags(void) __attribute__((naked, used, section(".init3")));
void early_reset_flags(void) {
  saved_mcusr = MCUSR;
  MCUSR = 0;
  wdt_disable(); /* after a watchdog reset it would still be running with a 16 ms timeout */
}

uint8_t hal_reset_cause(void) {
  uint8_t flags = saved_mcusr;
  if (flags == 0 && saved_r2 != 0 && (saved_r2 & 0xF0) == 0) flags = saved_r2;
  if (flags & _BV(PORF)) return 1;  /* power-on (BORF is usually set with it) */
  if (flags & _BV(WDRF)) return 4;  /* watchdog */
  if (flags & _BV(BORF)) return 3;  /* brown-out */
  if (flags & _BV(EXTRF)) return 2; /* external (the reset pin, DTR auto-reset) */
  return 0;
}

/* ---- Clock ---- */

static volatile uint32_t timer_overflows;

ISR(TIMER1_OVF_vect) { timer_overflows++; }

/* Compare A only wakes the CPU from sleep. */
EMPTY_INTERRUPT(TIMER1_COMPA_vect);

/* Counter and overflow count read together; an overflow pending while interrupts are off is
 * counted when the counter already wrapped. */
static uint64_t read_clock(void) {
  uint16_t counter;
  uint32_t overflows;
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    counter = TCNT1;
    overflows = timer_overflows;
    if ((TIFR1 & _BV(TOV1)) && counter < 0x8000) overflows++;
  }
  return ((uint64_t)overflows << 16) | counter;
}

uint64_t hal_ticks64(void) { return read_clock(); }

uint32_t hal_ticks(void) {
  uint16_t counter;
  uint16_t overflows;
  ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
    counter = TCNT1;
    overflows = (uint16_t)timer_overflows;
    if ((TIFR1 & _BV(TOV1)) && counter < 0x8000) overflows++;
  }
  return ((uint32_t)overflows << 16) | counter;
}

/* ---- UART ---- */

#define RX_SIZE HAL_UART_RX_SIZE /* power of two */
#define TX_SIZE 128 /* power of two */

static volatile uint8_t rx_buffer[RX_SIZE];
static volatile uint8_t rx_head, rx_tail;
static volatile uint8_t tx_buffer[TX_SIZE];
static volatile uint8_t tx_head, tx_tail;

ISR(USART_RX_vect) {
  uint8_t status = UCSR0A;
  uint8_t byte = UDR0;
  if (status & _BV(FE0)) return; /* framing error: drop (the frame's CRC fails) */
  uint8_t next = (uint8_t)((rx_head + 1) & (RX_SIZE - 1));
  if (next == rx_tail) return; /* full: drop (the frame's CRC fails, the host resends) */
  rx_buffer[rx_head] = byte;
  rx_head = next;
}

ISR(USART_UDRE_vect) {
  if (tx_head == tx_tail) {
    UCSR0B &= (uint8_t)~_BV(UDRIE0);
    return;
  }
  UDR0 = tx_buffer[tx_tail];
  tx_tail = (uint8_t)((tx_tail + 1) & (TX_SIZE - 1));
}

int hal_uart_getc(void) {
  if (rx_head == rx_tail) return -1;
  uint8_t byte = rx_buffer[rx_tail];
  rx_tail = (uint8_t)((rx_tail + 1) & (RX_SIZE - 1));
  return byte;
}

uint16_t hal_uart_tx_free(void) { return (uint8_t)(TX_SIZE - 1 - ((tx_head - tx_tail) & (TX_SIZE - 1))); }

void hal_uart_putc(uint8_t byte) {
  uint8_t next = (uint8_t)((tx_head + 1) & (TX_SIZE - 1));
  if (next == tx_tail) return; /* callers check hal_uart_tx_free first */
  tx_buffer[tx_head] = byte;
  tx_head = next;
  UCSR0B |= _BV(UDRIE0);
}

/* ---- TWI (I2C) ---- */

#define DRV_ADDRESS 0x5A
#define TWI_TIMEOUT_TICKS (BOARD_TICKS_PER_MS / 2) /* 0.5 ms: a byte takes 23 us at 400 kHz */

/* The outcome of one bus step: TWINT set with a status code listed for that step.
 *
 * On the chip, TWINT alone says the step is done and TWSR is final. Each step also waits for
 * a status that belongs to it, so a stale TWSR is never taken for the answer: simavr 1.6
 * (the emulator) leaves TWINT set when it is written with 1 and updates TWSR a few
 * microseconds later; it also reports 0x28/0x30 instead of 0x18/0x20 after SLA+W, which is
 * therefore accepted too (the chip never gives 0x28 after SLA+W). */
typedef enum { STEP_START, STEP_SLA_W, STEP_SLA_R, STEP_DATA_W, STEP_DATA_R } twi_step_t;

/* 1: the step succeeded, 0: it failed, -1: the status is not (yet) one of this step's. */
static int8_t classify(twi_step_t step, uint8_t status) {
  if (status == TW_BUS_ERROR || status == TW_MT_ARB_LOST) return 0; /* TW_MR_ARB_LOST too */
  switch (step) {
    case STEP_START:
      return (status == TW_START || status == TW_REP_START) ? 1 : -1;
    case STEP_SLA_W:
      if (status == TW_MT_SLA_ACK || status == TW_MT_DATA_ACK) return 1;
      return (status == TW_MT_SLA_NACK || status == TW_MT_DATA_NACK) ? 0 : -1;
    case STEP_SLA_R:
      if (status == TW_MR_SLA_ACK) return 1;
      return status == TW_MR_SLA_NACK ? 0 : -1;
    case STEP_DATA_W:
      if (status == TW_MT_DATA_ACK) return 1;
      return status == TW_MT_DATA_NACK ? 0 : -1;
    case STEP_DATA_R:
    default:
      return (status == TW_MR_DATA_NACK || status == TW_MR_DATA_ACK) ? 1 : -1;
  }
}

static bool twi_step(uint8_t control, twi_step_t step) {
  TWCR = control;
  uint32_t start = hal_ticks();
  for (;;) {
    if (TWCR & _BV(TWINT)) {
      int8_t outcome = classify(step, TW_STATUS);
      if (outcome >= 0) return outcome == 1;
    }
    if (hal_ticks() - start > TWI_TIMEOUT_TICKS) {
      TWCR = 0; /* reset the TWI state machine: a missing pull-up or a stuck bus */
      TWCR = _BV(TWEN);
      return false;
    }
  }
}

static bool twi_start(uint8_t address_rw) {
  if (!twi_step(_BV(TWINT) | _BV(TWSTA) | _BV(TWEN), STEP_START)) return false;
  TWDR = address_rw;
  return twi_step(_BV(TWINT) | _BV(TWEN), (address_rw & TW_READ) ? STEP_SLA_R : STEP_SLA_W);
}

static bool twi_write(uint8_t byte) {
  TWDR = byte;
  return twi_step(_BV(TWINT) | _BV(TWEN), STEP_DATA_W);
}

static void twi_stop(void) {
  TWCR = _BV(TWINT) | _BV(TWEN) | _BV(TWSTO);
  /* TWSTO clears when the stop went out (a few us); bounded, never a hang. */
  for (uint8_t i = 0; i < 200 && (TWCR & _BV(TWSTO)); i++) {
  }
}

bool hal_drv_write(uint8_t reg, uint8_t value) {
  bool ok = twi_start((uint8_t)(DRV_ADDRESS << 1) | TW_WRITE) && twi_write(reg) && twi_write(value);
  twi_stop();
  return ok;
}

bool hal_drv_read(uint8_t reg, uint8_t *value) {
  bool ok = twi_start((uint8_t)(DRV_ADDRESS << 1) | TW_WRITE) && twi_write(reg) &&
            twi_start((uint8_t)(DRV_ADDRESS << 1) | TW_READ) &&
            twi_step(_BV(TWINT) | _BV(TWEN), STEP_DATA_R); /* one byte, NACKed (TWEA clear) */
  if (ok) *value = TWDR;
  twi_stop();
  return ok;
}

/* ---- EEPROM, watchdog, sleep ---- */

uint16_t hal_boot_count_increment(void) {
  uint16_t count = eeprom_read_word((const uint16_t *)0);
  if (count == 0xFFFF) count = 0; /* blank EEPROM */
  count++;
  eeprom_update_word((uint16_t *)0, count);
  return count;
}

#define CALIBRATION_EEPROM ((uint8_t *)2)

bool hal_calibration_load(uint8_t record[HAL_CALIBRATION_SIZE]) {
  eeprom_read_block(record, CALIBRATION_EEPROM, HAL_CALIBRATION_SIZE);
  for (uint8_t i = 0; i < HAL_CALIBRATION_SIZE; i++) {
    if (record[i] != 0xFF) return true;
  }
  return false; /* blank */
}

void hal_calibration_store(const uint8_t record[HAL_CALIBRATION_SIZE]) {
  eeprom_update_block(record, CALIBRATION_EEPROM, HAL_CALIBRATION_SIZE);
}

void hal_watchdog_kick(void) { wdt_reset(); }

void hal_idle_until(uint32_t deadline) {
  cli();
  uint32_t now = hal_ticks();
  int32_t remaining = (int32_t)(deadline - now);
  /* Something to do, or too close to bother: return. */
  if (rx_head != rx_tail || remaining < 40) {
    sei();
    return;
  }
  if (remaining < 0xFF00) {
    /* Compare A fires at the deadline. A stale OCF1A is not cleared here: it only makes one
     * early (harmless) wake-up, and writing TIFR1 with interrupts off loses a pending Timer1
     * overflow in simavr 1.6 (the board clock would jump back 32.8 ms). */
    OCR1A = (uint16_t)deadline;
    TIMSK1 |= _BV(OCIE1A);
  } else {
    TIMSK1 &= (uint8_t)~_BV(OCIE1A); /* the overflow (every 32.8 ms) wakes us */
  }
  sleep_enable();
  sei();       /* the instruction after sei runs before any interrupt: no lost wake-up */
  sleep_cpu();
  sleep_disable();
}

/* Fills the free RAM between the end of the variables and the stack with 0xC5, so the stack's
 * high-water mark can be read later (the emulator reports it when it exits). */
extern uint8_t __heap_start;
static void paint_free_ram(void) {
  uint8_t *p = &__heap_start;
  uint8_t *limit = (uint8_t *)SP - 24;
  while (p < limit) *p++ = 0xC5;
}

void hal_init(void) {
  paint_free_ram();
  /* Timer1: normal mode, clk/8. */
  TCCR1A = 0;
  TCCR1B = _BV(CS11);
  TIMSK1 = _BV(TOIE1);
  /* UART0: 115200 8N1, U2X (set before UBRR0: simavr derives its byte time when UBRR0 is
   * written). */
  UCSR0A = _BV(U2X0);
  UBRR0 = 16;
  UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
  UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
  /* TWI: 400 kHz = 16 MHz / (16 + 2 * TWBR * 1), TWBR = 12. Internal pull-ups on SDA/SCL
   * as a fallback (breakout boards carry their own). */
  PORTC |= _BV(PC4) | _BV(PC5);
  TWSR = 0;
  TWBR = (uint8_t)((F_CPU / 400000UL - 16) / 2);
  TWCR = _BV(TWEN);
  set_sleep_mode(SLEEP_MODE_IDLE);
  wdt_enable(WDTO_500MS);
}
