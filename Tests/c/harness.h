/* A minimal test harness for the C tests: CHECK records a failure and carries on; each test
 * program ends with TEST_SUMMARY, which prints "N passed, N failed" and sets the exit status. */
#ifndef TCA_TEST_HARNESS_H
#define TCA_TEST_HARNESS_H

#include <stdio.h>
#include <string.h>

static int harness_passed = 0;
static int harness_failed = 0;

#define CHECK(condition)                                                               \
  do {                                                                                 \
    if (condition) {                                                                   \
      harness_passed++;                                                                \
    } else {                                                                           \
      harness_failed++;                                                                \
      fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #condition);          \
    }                                                                                  \
  } while (0)

#define CHECK_STATUS(call, expected)                                                   \
  do {                                                                                 \
    tca_status harness_status = (call);                                                \
    if (harness_status == (expected)) {                                                \
      harness_passed++;                                                                \
    } else {                                                                           \
      harness_failed++;                                                                \
      fprintf(stderr, "%s:%d: FAILED: %s returned %d (%s: %s), expected %d\n", __FILE__, \
              __LINE__, #call, harness_status, tca_status_str(harness_status),          \
              tca_last_error(), (expected));                                           \
    }                                                                                  \
  } while (0)

#define CHECK_CONTAINS(haystack, needle) CHECK(strstr((haystack), (needle)) != NULL)

#define TEST_SUMMARY()                                                                 \
  do {                                                                                 \
    printf("%d passed, %d failed\n", harness_passed, harness_failed);                  \
    return harness_failed == 0 ? 0 : 1;                                                \
  } while (0)

#endif
