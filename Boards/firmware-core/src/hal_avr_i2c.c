/*
 * hal_avr_i2c.c — the I2C master on the ATmega328P (TWI): 400 kHz, polled, every wait bounded
 * (a missing chip or a stuck bus cannot hang the loop); register writes and reads of a device
 * at the address the caller gives (hal.h). Linked only by boards that name `i2c` in
 * HAL_PERIPHERALS (uno.mk): the Uno + DRV2605L.
 */
#include <avr/io.h>
#include <util/twi.h>

#include "board_config.h"
#include "hal.h"

#define TWI_TIMEOUT_TICKS (BOARD_TICKS_PER_MS / 2) /* 0.5 ms: a byte takes 23 us at 400 kHz */

void hal_i2c_init(void) {
  /* 400 kHz = 16 MHz / (16 + 2 * TWBR * 1), TWBR = 12. Internal pull-ups on SDA/SCL as a
   * fallback (breakout boards carry their own). */
  PORTC |= _BV(PC4) | _BV(PC5);
  TWSR = 0;
  TWBR = (uint8_t)((F_CPU / 400000UL - 16) / 2);
  TWCR = _BV(TWEN);
}

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

/* A start (or repeated start) and the address byte: 7-bit address and the R/W bit. */
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

bool hal_i2c_write_register(uint8_t address, uint8_t reg, uint8_t value) {
  bool ok = twi_start((uint8_t)(address << 1) | TW_WRITE) && twi_write(reg) && twi_write(value);
  twi_stop();
  return ok;
}

bool hal_i2c_read_register(uint8_t address, uint8_t reg, uint8_t *value) {
  bool ok = twi_start((uint8_t)(address << 1) | TW_WRITE) && twi_write(reg) &&
            twi_start((uint8_t)(address << 1) | TW_READ) &&
            twi_step(_BV(TWINT) | _BV(TWEN), STEP_DATA_R); /* one byte, NACKed (TWEA clear) */
  if (ok) *value = TWDR;
  twi_stop();
  return ok;
}
