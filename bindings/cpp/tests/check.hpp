// The C++ tests' checks: CHECK(condition) and expect_error(body, status, needle), counted in
// `passed` and `failed`; main() reports with report().
#ifndef TCA_TESTS_CHECK_HPP
#define TCA_TESTS_CHECK_HPP

#include <tca.hpp>

#include <cstdio>
#include <cstring>

static int passed = 0, failed = 0;
#define CHECK(condition)                                                          \
  do {                                                                            \
    if (condition) {                                                              \
      passed++;                                                                   \
    } else {                                                                      \
      failed++;                                                                   \
      std::fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #condition); \
    }                                                                             \
  } while (0)

// Runs `body`, which must throw tca::Error with `status` and a message containing `needle`.
template <typename Body>
static void expect_error(Body body, tca_status status, const char *needle) {
  try {
    body();
    failed++;
    std::fprintf(stderr, "FAILED: no tca::Error (expected status %d, %s)\n", status, needle);
  } catch (const tca::Error &error) {
    bool ok = error.status() == status && std::strstr(error.what(), needle) != nullptr;
    if (ok) {
      passed++;
    } else {
      failed++;
      std::fprintf(stderr, "FAILED: tca::Error %d \"%s\", expected %d containing \"%s\"\n",
                   error.status(), error.what(), status, needle);
    }
  }
}

static int report() {
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

#endif  // TCA_TESTS_CHECK_HPP
