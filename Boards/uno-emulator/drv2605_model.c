/*
 * drv2605_model.c — the DRV2605L model (see drv2605_model.h).
 *
 * simavr's TWI master raises TWI_IRQ_OUTPUT messages: START (with the address byte), WRITE
 * (a data byte), READ (the master wants a byte), STOP. A slave answers on TWI_IRQ_INPUT:
 * an ACK message to acknowledge its address or a written byte, a READ message carrying the
 * byte read. Not answering a START is a NACK (the firmware then sees the chip as missing).
 */
#include "drv2605_model.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

#include "avr_twi.h"
#include "sim_cycle_timers.h"
#include "sim_time.h"

/* Register numbers the model gives meaning to. */
enum {
  REG_STATUS = 0x00,
  REG_MODE = 0x01,
  REG_GO = 0x0C,
  REG_A_CAL_COMP = 0x18,
  REG_A_CAL_BEMF = 0x19,
  REG_FEEDBACK = 0x1A,
  REG_VBAT = 0x21,
  REG_LRA_PERIOD = 0x22,
};

#define DEVICE_ID_DRV2605L 7
#define CALIBRATION_USEC 1000000u
#define ROM_EFFECT_USEC 100000u
#define OTHER_GO_USEC 1000u

/* Reset values (SLOS854, register map). */
static void reset_registers(drv2605_model_t *m) {
  memset(m->regs, 0, sizeof m->regs);
  m->regs[0x01] = 0x40; /* STANDBY */
  m->regs[0x04] = 0x01;
  m->regs[0x11] = 0x05; /* ATH_CTRL */
  m->regs[0x12] = 0x19;
  m->regs[0x13] = 0xFF;
  m->regs[0x14] = 0x19;
  m->regs[0x15] = 0xFF;
  m->regs[0x16] = 0x3E; /* RATED_VOLTAGE */
  m->regs[0x17] = 0x8C; /* OD_CLAMP */
  m->regs[0x18] = 0x0C; /* A_CAL_COMP */
  m->regs[0x19] = 0x6C; /* A_CAL_BEMF */
  m->regs[0x1A] = 0x36; /* FEEDBACK: ERM */
  m->regs[0x1B] = 0x93; /* CONTROL1 */
  m->regs[0x1C] = 0xF5; /* CONTROL2 */
  m->regs[0x1D] = 0xA0; /* CONTROL3 */
  m->regs[0x1E] = 0x20; /* CONTROL4 */
  m->regs[0x1F] = 0x80; /* CONTROL5 */
  m->regs[0x20] = 0x33; /* OL_LRA_PERIOD */
  m->regs[0x21] = 0xC0; /* VBAT: about 4.2 V */
  m->status_bits = 0;
}

static uint32_t sim_usec(const drv2605_model_t *m) {
  return (uint32_t)(m->avr->cycle * 1000000ull / m->avr->frequency);
}

/* The operation GO started has ended. */
static avr_cycle_count_t go_done(avr_t *avr, avr_cycle_count_t when, void *param) {
  (void)avr;
  (void)when;
  drv2605_model_t *m = param;
  if ((m->regs[REG_MODE] & 7) == 7) {
    /* Auto-calibration converged: the modelled LRA's period, a BEMF gain of 3, DIAG_RESULT 0
     * (passed). */
    m->regs[REG_A_CAL_COMP] = 0x0C;
    m->regs[REG_A_CAL_BEMF] = 0x8C;
    m->regs[REG_FEEDBACK] = (uint8_t)((m->regs[REG_FEEDBACK] & 0xFC) | 0x03);
    m->regs[REG_LRA_PERIOD] = m->lra_period;
    m->status_bits &= (uint8_t)~0x08;
  }
  m->regs[REG_GO] &= (uint8_t)~1u;
  m->go_pending = false;
  return 0;
}

static void write_register(drv2605_model_t *m, uint8_t reg, uint8_t value) {
  m->writes++;
  if (m->trace) {
    fprintf(m->trace, "%u,%u,%u\n", sim_usec(m), reg, value);
    fflush(m->trace);
  }
  switch (reg) {
    case REG_STATUS:
    case REG_VBAT:
    case REG_LRA_PERIOD:
      return; /* read-only */
    case REG_MODE:
      if (value & 0x80) { /* DEV_RESET */
        avr_cycle_timer_cancel(m->avr, go_done, m);
        m->go_pending = false;
        reset_registers(m);
        return;
      }
      m->regs[REG_MODE] = value;
      return;
    case REG_GO: {
      avr_cycle_timer_cancel(m->avr, go_done, m);
      m->go_pending = false;
      m->regs[REG_GO] = value & 1;
      if ((value & 1) == 0) return;
      uint8_t mode = m->regs[REG_MODE] & 7;
      uint32_t usec = mode == 7 ? CALIBRATION_USEC : (mode == 0 || mode == 6) ? ROM_EFFECT_USEC : OTHER_GO_USEC;
      m->go_pending = true;
      avr_cycle_timer_register_usec(m->avr, usec, go_done, m);
      return;
    }
    default:
      m->regs[reg] = value;
  }
}

static uint8_t read_register(drv2605_model_t *m, uint8_t reg) {
  m->reads++;
  if (reg == REG_STATUS) return (uint8_t)(DEVICE_ID_DRV2605L << 5 | m->status_bits);
  return m->regs[reg];
}

static void twi_from_avr(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  drv2605_model_t *m = param;
  avr_twi_msg_irq_t v;
  v.u.v = value;
  if (m->debug) fprintf(stderr, "twi: msg %02x addr %02x data %02x\n", v.u.twi.msg, v.u.twi.addr, v.u.twi.data);
  if (v.u.twi.msg & TWI_COND_STOP) m->selected = 0;
  if (v.u.twi.msg & TWI_COND_START) {
    m->selected = 0;
    m->index = 0;
    if (!m->absent && (v.u.twi.addr >> 1) == DRV_MODEL_ADDRESS) {
      m->selected = v.u.twi.addr;
      avr_raise_irq(m->irq + TWI_IRQ_INPUT, avr_twi_irq_msg(TWI_COND_ACK, m->selected, 1));
    }
  }
  if (!m->selected) return;
  if (v.u.twi.msg & TWI_COND_WRITE) {
    avr_raise_irq(m->irq + TWI_IRQ_INPUT, avr_twi_irq_msg(TWI_COND_ACK, m->selected, 1));
    if (m->index++ == 0) {
      m->pointer = v.u.twi.data;
    } else {
      write_register(m, m->pointer++, v.u.twi.data);
    }
  }
  if (v.u.twi.msg & TWI_COND_READ) {
    uint8_t data = read_register(m, m->pointer++);
    avr_raise_irq(m->irq + TWI_IRQ_INPUT, avr_twi_irq_msg(TWI_COND_READ, m->selected, data));
  }
}

static const char *irq_names[2] = {
    [TWI_IRQ_INPUT] = "8>drv2605.out",
    [TWI_IRQ_OUTPUT] = "32<drv2605.in",
};

void drv2605_model_init(drv2605_model_t *m, avr_t *avr, bool absent, double lra_f0, FILE *trace) {
  memset(m, 0, sizeof *m);
  m->avr = avr;
  m->absent = absent;
  m->trace = trace;
  /* LRA_PERIOD counts 98.46 us (SLOS854 §8.6.23). */
  long period = lround(1e6 / (lra_f0 * 98.46));
  m->lra_period = (uint8_t)(period < 1 ? 1 : period > 255 ? 255 : period);
  reset_registers(m);
  m->debug = getenv("DRV_MODEL_DEBUG") != NULL; /* print every TWI message on stderr */
  m->irq = avr_alloc_irq(&avr->irq_pool, 0, 2, irq_names);
  avr_irq_register_notify(m->irq + TWI_IRQ_OUTPUT, twi_from_avr, m);
  if (trace) {
    fprintf(trace, "time_us,register,value\n");
    fflush(trace);
  }
}

void drv2605_model_attach(drv2605_model_t *m) {
  avr_connect_irq(m->irq + TWI_IRQ_INPUT, avr_io_getirq(m->avr, AVR_IOCTL_TWI_GETIRQ(0), TWI_IRQ_INPUT));
  avr_connect_irq(avr_io_getirq(m->avr, AVR_IOCTL_TWI_GETIRQ(0), TWI_IRQ_OUTPUT), m->irq + TWI_IRQ_OUTPUT);
}
