/*
 * test_carrier.c — the LRA carrier (carrier.h): the table, the phase increment, and what the
 * bridge's inputs get sample by sample: frequency from rising edges within 0.05 Hz, the peak
 * duty equal to the amplitude, one input at a time, anti-phase for negative levels.
 */
#include <math.h>

#include "carrier.h"
#include "test.h"

#define SAMPLE_RATE (16000000.0 / CARRIER_CYCLES_PER_SAMPLE)
#define PI 3.14159265358979323846

static void the_table_is_a_half_sine(void) {
  for (int i = 0; i < 128; i++) CHECK_EQ(carrier_half_sine[i], lround(255.0 * sin(PI * i / 128.0)));
}

static void increments_follow_the_frequency(void) {
  double worst = 0;
  for (uint32_t tenths = 0; tenths <= 65535; tenths++) {
    double exact = tenths / 10.0 * 4294967296.0 / SAMPLE_RATE;
    double error = fabs((double)carrier_increment((uint16_t)tenths) - exact);
    if (error > worst) worst = error;
  }
  CHECK(worst <= 1.0);
}

/* The phase after t ticks is f t (cycles) within 1e-5 of a cycle. */
static void restarted_phases_follow_the_time_since(void) {
  const uint16_t tenths[] = {800, 1700, 3000};
  const uint32_t ticks[] = {0, 1, 200, 1999, 16383};
  for (size_t i = 0; i < 3; i++) {
    for (size_t j = 0; j < 5; j++) {
      double cycles = tenths[i] / 10.0 * ticks[j] / 2e6;
      double expected = cycles - floor(cycles);
      double got = carrier_phase_after(carrier_increment(tenths[i]), ticks[j]) / 4294967296.0;
      double error = fabs(got - expected);
      CHECK(error < 1e-5 || error > 1 - 1e-5);
    }
  }
}

static void amplitudes_scale_levels_to_full_scale(void) {
  for (int level = -127; level <= 127; level++) {
    CHECK_EQ(carrier_amplitude((int16_t)level), lround(fabs((double)level) * 255.0 / 127.0));
  }
  CHECK_EQ(carrier_amplitude(300), 255);
  CHECK_EQ(carrier_amplitude(-300), 255);
}

/* Steps a carrier for one second; returns the frequency from its first and last rising
 * edges (IN1 going non-zero after IN2 was), the peak duties and whether both inputs were ever
 * driven together. */
static double run_one_second(carrier_t carrier, uint8_t *peak1, uint8_t *peak2, bool *both) {
  long first = -1, last = -1, edges = 0;
  bool was_negative = true;
  *peak1 = *peak2 = 0;
  *both = false;
  for (long n = 0; n < (long)SAMPLE_RATE; n++) {
    uint8_t in1, in2;
    carrier_step(&carrier, &in1, &in2);
    if (in1 > *peak1) *peak1 = in1;
    if (in2 > *peak2) *peak2 = in2;
    if (in1 && in2) *both = true;
    if (in2) was_negative = true;
    if (in1 && was_negative) {
      was_negative = false;
      if (first < 0) first = n;
      last = n;
      edges++;
    }
  }
  return (edges - 1) / ((last - first) / SAMPLE_RATE);
}

static void the_carrier_runs_at_its_frequency(void) {
  const uint16_t tenths[] = {800, 1700, 1753, 2500, 3000};
  for (size_t i = 0; i < sizeof tenths / sizeof tenths[0]; i++) {
    carrier_t carrier = {0, carrier_increment(tenths[i]), 255, false};
    uint8_t peak1, peak2;
    bool both;
    double measured = run_one_second(carrier, &peak1, &peak2, &both);
    CHECK(fabs(measured - tenths[i] / 10.0) < 0.05);
    CHECK_EQ(peak1, 255);
    CHECK_EQ(peak2, 255);
    CHECK(!both);
  }
}

static void the_peak_duty_is_the_amplitude(void) {
  const uint8_t amplitudes[] = {2, 64, 128, 200, 254};
  for (size_t i = 0; i < sizeof amplitudes / sizeof amplitudes[0]; i++) {
    carrier_t carrier = {0, carrier_increment(1700), amplitudes[i], false};
    uint8_t peak1, peak2;
    bool both;
    run_one_second(carrier, &peak1, &peak2, &both);
    CHECK_EQ(peak1, amplitudes[i]);
    CHECK_EQ(peak2, amplitudes[i]);
  }
}

static void negative_levels_drive_in_anti_phase(void) {
  carrier_t normal = {0x40000000UL, 0, 255, false}; /* a quarter of the way into the period */
  carrier_t inverted = normal;
  inverted.inverted = true;
  uint8_t in1, in2;
  carrier_step(&normal, &in1, &in2);
  CHECK(in1 == 255 && in2 == 0);
  carrier_step(&inverted, &in1, &in2);
  CHECK(in1 == 0 && in2 == 255);
  carrier_t start = {0, carrier_increment(1700), 255, false};
  carrier_step(&start, &in1, &in2);
  CHECK(in1 == 0 && in2 == 0); /* sin 0: a restarted carrier starts from zero drive */
}

static void zero_amplitude_drives_nothing(void) {
  carrier_t carrier = {0, carrier_increment(1700), 0, false};
  uint8_t peak1, peak2;
  bool both;
  run_one_second(carrier, &peak1, &peak2, &both);
  CHECK(peak1 == 0 && peak2 == 0);
}

const test_case_t carrier_tests[] = {
    {"table: 255 sin(pi i / 128)", the_table_is_a_half_sine},
    {"increment: within 1 of f 2^32 / 31372.5 Hz per sample, 0-6553.5 Hz", increments_follow_the_frequency},
    {"phase after t ticks: f t cycles (a restart aligned to its frame's start)", restarted_phases_follow_the_time_since},
    {"amplitude: round(|level| 255 / 127), beyond 127 full scale", amplitudes_scale_levels_to_full_scale},
    {"frequency from rising edges within 0.05 Hz (80-300 Hz), one input at a time", the_carrier_runs_at_its_frequency},
    {"peak duty = amplitude on both half-waves", the_peak_duty_is_the_amplitude},
    {"negative level: anti-phase; restart at sin 0", negative_levels_drive_in_anti_phase},
    {"amplitude 0: both inputs 0", zero_amplitude_drives_nothing},
    TEST_LIST_END,
};
