/*
 * test_run.c — the host-test runner every test program's main calls (test_core_main.c, each
 * board's test_main.c): runs each suite's tests, counts failed checks per test, and prints one
 * line per test and a summary.
 */
#include <stdlib.h>

#include "test.h"

int test_failures;
int test_checks;
const char *protocol_doc_path = "../../../docs/protocol.md";

int test_run(int argc, char **argv, const test_suite_t *suites, size_t count) {
  if (argc > 1) protocol_doc_path = argv[1];
  int tests = 0, failed = 0;
  for (size_t s = 0; s < count; s++) {
    printf("%s\n", suites[s].name);
    for (const test_case_t *t = suites[s].tests; t->name; t++) {
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
