/*
 * carrier.c — the carrier's table and conversions (carrier.h).
 */
#include "carrier.h"

/* round(255 × sin(π i / 128)); test_carrier.c checks every entry against sin(). */
const uint8_t carrier_half_sine[128] CARRIER_PROGMEM = {
      0,   6,  13,  19,  25,  31,  37,  44,  50,  56,  62,  68,  74,  80,  86,  92,
     98, 103, 109, 115, 120, 126, 131, 136, 142, 147, 152, 157, 162, 167, 171, 176,
    180, 185, 189, 193, 197, 201, 205, 208, 212, 215, 219, 222, 225, 228, 231, 233,
    236, 238, 240, 242, 244, 246, 247, 249, 250, 251, 252, 253, 254, 254, 255, 255,
    255, 255, 255, 254, 254, 253, 252, 251, 250, 249, 247, 246, 244, 242, 240, 238,
    236, 233, 231, 228, 225, 222, 219, 215, 212, 208, 205, 201, 197, 193, 189, 185,
    180, 176, 171, 167, 162, 157, 152, 147, 142, 136, 131, 126, 120, 115, 109, 103,
     98,  92,  86,  80,  74,  68,  62,  56,  50,  44,  37,  31,  25,  19,  13,   6};

uint32_t carrier_increment(uint16_t frequency_x10) {
  /* 2^32 × 510 / 16e6 per tenth of a hertz = 13690.208256 = 13690 + 13648 / 65536 (+4e-6: at
   * most 1 of 2^32 per sample at 6553.5 Hz, with the rounding). No division: the AVR computes
   * this at frame changes, between one channel's output and the next. */
  uint32_t f = frequency_x10;
  return f * 13690UL + ((f * 13648UL + 32768UL) >> 16);
}

uint32_t carrier_phase_after(uint32_t increment, uint32_t ticks) {
  /* Samples per tick: 16e6 / 510 / 2e6 = 4 / 255 = 263172 / 2^24 (-0.00001 %); the product
   * stays within 64 bits for any increment up to 2^14 ticks (8 ms; callers pass under a frame). */
  if (ticks >= 16384u) ticks = 16383u;
  return (uint32_t)(((uint64_t)increment * ticks * 263172u) >> 24);
}

uint8_t carrier_amplitude(int16_t level) {
  uint16_t magnitude = (uint16_t)(level < 0 ? -level : level);
  if (magnitude >= 127) return 255;
  /* round(m × 255 / 127) = 2m + round(m / 127) = 2m + (m >= 64) for m ≤ 127; no division. */
  return (uint8_t)(2u * magnitude + (magnitude >= 64 ? 1u : 0u));
}
