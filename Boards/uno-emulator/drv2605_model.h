/*
 * drv2605_model.h — a TI DRV2605L on simavr's TWI bus (address 0x5A): a 256-byte register
 * file with the datasheet's reset values, register-pointer writes with auto-increment, reads,
 * GO that clears itself when the operation ends (auto-calibration ~1 s, ROM effects ~100 ms),
 * and a CSV trace of every register write in simulated microseconds.
 */
#ifndef DRV2605_MODEL_H
#define DRV2605_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim_avr.h"
#include "sim_irq.h"

#define DRV_MODEL_ADDRESS 0x5A

typedef struct {
  avr_t *avr;
  avr_irq_t *irq;      /* TWI_IRQ_INPUT (to the AVR), TWI_IRQ_OUTPUT (from the AVR) */
  bool absent;         /* --no-chip: the address is not acknowledged */
  uint8_t lra_period;  /* LRA_PERIOD auto-calibration measures (98.46 us units): the LRA's f0 */
  uint8_t selected;    /* address byte of the current transfer, 0 when not addressed */
  uint8_t index;       /* bytes written in this transfer (the first is the pointer) */
  uint8_t pointer;     /* register pointer */
  uint8_t regs[256];
  uint8_t status_bits; /* STATUS low bits (DIAG_RESULT etc.) */
  bool go_pending;     /* an operation runs (its timer is registered) */
  FILE *trace;         /* NULL: no trace */
  bool debug;          /* DRV_MODEL_DEBUG set: log TWI messages */
  unsigned long writes;
  unsigned long reads;
} drv2605_model_t;

/* Sets up the model with an LRA resonating at `lra_f0` Hz (what auto-calibration measures);
 * `trace` (may be NULL) gets the CSV header now. */
void drv2605_model_init(drv2605_model_t *model, avr_t *avr, bool absent, double lra_f0, FILE *trace);

/* Connects it to the AVR's TWI (the ATmega328P has one, "0"). */
void drv2605_model_attach(drv2605_model_t *model);

#endif
