/*
 * test_main.c — runs the host tests of the H-bridge back end (the carrier, and both channels
 * played through the shared core: build/host-tests; the core's own tests are build/core-tests,
 * from firmware-core/test); exits non-zero when any check failed.
 * Usage: host-tests PATH/TO/docs/protocol.md
 */
#include "test.h"

extern const test_case_t carrier_tests[];
extern const test_case_t channel_tests[];

int main(int argc, char **argv) {
  const test_suite_t suites[] = {{"carrier", carrier_tests}, {"channels", channel_tests}};
  return test_run(argc, argv, suites, sizeof suites / sizeof suites[0]);
}
