/*
 * test_main.c — runs every host test of the core and the DRV2605L back end; exits non-zero
 * when any check failed. Usage: host-tests PATH/TO/docs/protocol.md
 */
#include "test.h"

extern const test_case_t wire_tests[];
extern const test_case_t vector_tests[];
extern const test_case_t link_tests[];
extern const test_case_t playback_tests[];
extern const test_case_t board_tests[];
extern const test_case_t driver_tests[];

int main(int argc, char **argv) {
  const test_suite_t suites[] = {{"wire", wire_tests},         {"vectors", vector_tests}, {"link", link_tests},
                                 {"playback", playback_tests}, {"board", board_tests},    {"driver", driver_tests}};
  return test_run(argc, argv, suites, sizeof suites / sizeof suites[0]);
}
