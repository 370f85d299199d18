/*
 * test_main.c — runs every host test; exits non-zero when any check failed.
 * Usage: host-tests PATH/TO/docs/protocol.md
 */
#include <stdio.h>
#include <stdlib.h>

#include "test.h"

int test_failures;
int test_checks;
const char *protocol_doc_path = "../../../docs/protocol.md";

extern const test_case_t wire_tests[];
extern const test_case_t vector_tests[];
extern const test_case_t link_tests[];
extern const test_case_t playback_tests[];
extern const test_case_t board_tests[];
extern const test_case_t driver_tests[];

int main(int argc, char **argv) {
  if (argc > 1) protocol_doc_path = argv[1];
  const test_case_t *suites[] = {wire_tests, vector_tests, link_tests, playback_tests, board_tests, driver_tests};
  const char *names[] = {"wire", "vectors", "link", "playback", "board", "driver"};
  int tests = 0, failed = 0;
  for (size_t s = 0; s < sizeof suites / sizeof suites[0]; s++) {
    printf("%s\n", names[s]);
    for (const test_case_t *t = suites[s]; t->name; t++) {
      test_failures = 0;
      t->run();
      tests++;
      if (test_failures) failed++;
      printf("  %-4s %s\n", test_failures ? "FAIL" : "ok", t->name);
    }
  }
  printf("%d tests, %d checks, %d failed\n", tests, test_checks, failed);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
