/*
 * test_core_main.c — runs the host tests of the portable core (build/core-tests), built for
 * each board with its board_config.h and the test back end (fake_driver.c) instead of its
 * driver; exits non-zero when any check failed. Usage: core-tests PATH/TO/docs/protocol.md
 */
#include "test.h"

extern const test_case_t wire_tests[];
extern const test_case_t vector_tests[];
extern const test_case_t link_tests[];
extern const test_case_t playback_tests[];
extern const test_case_t board_tests[];
extern const test_case_t request_tests[];
extern const test_case_t identity_tests[];

int main(int argc, char **argv) {
  const test_suite_t suites[] = {{"wire", wire_tests},         {"vectors", vector_tests}, {"link", link_tests},
                                 {"playback", playback_tests}, {"board", board_tests},    {"requests", request_tests},
                                 {"identity", identity_tests}};
  return test_run(argc, argv, suites, sizeof suites / sizeof suites[0]);
}
