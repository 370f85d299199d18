/*
 * test_main.c — runs the host tests of the DRV2605L back end through the core (build/
 * host-tests; the core's own tests are build/core-tests, from firmware-core/test); exits
 * non-zero when any check failed. Usage: host-tests PATH/TO/docs/protocol.md
 */
#include "test.h"

extern const test_case_t rtp_tests[];
extern const test_case_t driver_tests[];

int main(int argc, char **argv) {
  const test_suite_t suites[] = {{"rtp", rtp_tests}, {"driver", driver_tests}};
  return test_run(argc, argv, suites, sizeof suites / sizeof suites[0]);
}
