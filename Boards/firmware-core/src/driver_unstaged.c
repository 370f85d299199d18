/*
 * driver_unstaged.c — driver.h's staging for a back end that stages nothing: it writes each
 * frame's drive when the frame starts (driver_output), so the core computes no frames ahead.
 * A board links it by naming it in DRIVER_PARTS (uno.mk: the DRV2605L's back end); the core's
 * tests link it with their test back end (test/fake_driver.c).
 */
#include "driver.h"

bool driver_stages(uint8_t channel) {
  (void)channel;
  return false;
}

bool driver_stage(uint8_t channel, int16_t level, uint16_t frequency_x10, uint32_t at) {
  (void)channel;
  (void)level;
  (void)frequency_x10;
  (void)at;
  return false;
}

void driver_unstage(uint8_t channel) { (void)channel; }
