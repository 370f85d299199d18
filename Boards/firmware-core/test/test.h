/*
 * test.h — a tiny test harness: CHECK macros record failures with file and line; each test
 * is a void function in a suite's list, run by test_run() from a test program's main
 * (test_core_main.c, each board's test_main.c).
 */
#ifndef TEST_H
#define TEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

extern int test_failures;   /* failed checks in the current test */
extern int test_checks;     /* checks run overall */
extern const char *protocol_doc_path;

#define CHECK(condition)                                                         \
  do {                                                                           \
    test_checks++;                                                               \
    if (!(condition)) {                                                          \
      test_failures++;                                                           \
      fprintf(stderr, "    %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #condition); \
    }                                                                            \
  } while (0)

#define CHECK_EQ(actual, expected)                                                       \
  do {                                                                                   \
    long long check_a = (long long)(actual), check_e = (long long)(expected);            \
    test_checks++;                                                                       \
    if (check_a != check_e) {                                                            \
      test_failures++;                                                                   \
      fprintf(stderr, "    %s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, \
              #actual, check_a, #expected, check_e);                                     \
    }                                                                                    \
  } while (0)

/* Reads little-endian values from a payload. */
static inline uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t le32(const uint8_t *p) { return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16; }

typedef struct {
  const char *name;
  void (*run)(void);
} test_case_t;

#define TEST_LIST_END {0, 0}

/* A named list of tests (ending with TEST_LIST_END). */
typedef struct {
  const char *name;
  const test_case_t *tests;
} test_suite_t;

/* Runs every suite (argv[1], if given, is the path of docs/protocol.md), prints a line per test
 * and a summary; returns the process exit status (non-zero when a check failed). */
int test_run(int argc, char **argv, const test_suite_t *suites, size_t count);

#endif
