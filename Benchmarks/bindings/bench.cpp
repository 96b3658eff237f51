// make bench's C++ row: tca::Store::send against the C++ FFI floor (libc's abs through a
// volatile function pointer, so the call is not inlined), samples interleaved in one run.
// Prints one JSON row (Benchmarks/run.py). BENCH_SAMPLES, BENCH_SAMPLE_MS as the other programs.
#include <tca.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

using Clock = std::chrono::steady_clock;

static double time_ns(const std::function<void(long)> &body, long n) {
  auto start = Clock::now();
  body(n);
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count() / double(n);
}

static std::string side(const char *label, const char *kind, std::vector<double> samples,
                        long iterations) {
  std::sort(samples.begin(), samples.end());
  char text[400];
  std::snprintf(text, sizeof text,
                "{\"label\":\"%s\",\"kind\":\"%s\",\"median\":%.3f,\"min\":%.3f,\"max\":%.3f,"
                "\"samples\":%zu,\"iterations\":%ld}",
                label, kind, samples[samples.size() / 2], samples.front(), samples.back(),
                samples.size(), iterations);
  return text;
}

int main() {
  int samples = std::max(3, std::atoi(std::getenv("BENCH_SAMPLES") ? std::getenv("BENCH_SAMPLES") : "41"));
  double sample_ms = std::max(1, std::atoi(std::getenv("BENCH_SAMPLE_MS") ? std::getenv("BENCH_SAMPLE_MS") : "120"));
  tca::Store store("counter");
  int (*volatile floor_fn)(int) = std::abs;
  volatile int sink = 0;
  auto ours = [&](long n) {
    for (long i = 0; i < n; i++) store.send(R"("incrementButtonTapped")");
  };
  auto floor = [&](long n) {
    for (long i = 0; i < n; i++) sink = sink + floor_fn(int(i));
  };
  // Calibrate: iterations for one sample of about sample_ms.
  auto iterations = [&](const std::function<void(long)> &body) {
    double ns = time_ns(body, 1000);
    return std::max(1000L, long(sample_ms * 1e6 / std::max(ns, 0.1)));
  };
  long n_ours = iterations(ours), n_floor = iterations(floor);
  std::vector<double> a, b;
  for (int s = 0; s < samples; s++) {
    a.push_back(time_ns(ours, n_ours));
    b.push_back(time_ns(floor, n_floor));
  }
  std::printf("{\"group\":\"Bindings\",\"workload\":\"C++ tca::Store::send \\\"incrementButtonTapped\\\" "
              "(counter)\",\"unit\":\"ns/op\",\"note\":\"include/tca.hpp; floor: libc abs() through a "
              "function pointer\",\"target\":{\"floor_plus_c_send\":1.2},\"ours\":%s,\"alt\":%s}\n",
              side("tca::Store::send", "ours", a, n_ours).c_str(),
              side("C++ call of abs() (floor)", "floor", b, n_floor).c_str());
  return sink == -1;
}
