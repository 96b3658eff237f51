// The measuring harness of the Swift benchmarks: calibrated samples, interleaved candidates,
// medians with min and max, one JSON line per row on stdout (read by Benchmarks/run.py).
//
// Settings come from the environment, the same for the C and Python benchmarks:
//   BENCH_SAMPLES    samples per candidate (default 41)
//   BENCH_SAMPLE_MS  target length of one sample in milliseconds (default 120)
//   BENCH_ONLY       measure only the row with this workload (for profiling)

import Foundation

/// Keeps a value alive so the optimizer cannot delete the work that made it.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

/// Monotonic nanoseconds.
@inline(__always)
func nowNanos() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

enum Settings {
  static let samples = max(3, environmentInt("BENCH_SAMPLES") ?? 41)
  static let sampleNanos = UInt64(max(1, environmentInt("BENCH_SAMPLE_MS") ?? 120)) * 1_000_000
  static let only = ProcessInfo.processInfo.environment["BENCH_ONLY"]

  private static func environmentInt(_ name: String) -> Int? {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
  }
}

/// One side of a row: a label and a body that runs the workload `n` times.
///
/// NB: the body holds the loop, so no closure call is paid per iteration.
struct Candidate {
  var label: String
  var kind: String = "ours"  // ours | competitor | floor | reference
  var body: (Int) -> Void
}

struct Stats {
  var median: Double
  var min: Double
  var max: Double
  var samples: Int
  var iterations: Int

  init(_ values: [Double], iterations: Int) {
    let sorted = values.sorted()
    let mid = sorted.count / 2
    median = sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    min = sorted.first ?? .nan
    max = sorted.last ?? .nan
    samples = sorted.count
    self.iterations = iterations
  }
}

/// The number of iterations that makes one sample last about `Settings.sampleNanos`.
func calibrate(_ body: (Int) -> Void) -> Int {
  body(1)  // warm up: first-touch allocations, lazy initialization
  var n = 1
  while true {
    let start = nowNanos()
    body(n)
    let elapsed = nowNanos() - start
    if elapsed >= Settings.sampleNanos / 8 || n >= 1 << 40 {
      let scaled = Double(n) * Double(Settings.sampleNanos) / Double(max(elapsed, 1))
      return max(1, Int(scaled))
    }
    n *= elapsed < Settings.sampleNanos / 1000 ? 10 : 2
  }
}

/// Measures both candidates, their samples interleaved (ABBA…) so that drift in the machine's load
/// falls on both alike, and prints the row.
///
/// `target`: the goal for the row, checked by run.py: `["speedup": 10]` (at least 10× the
/// competitor) or `["ours_max": 100]` (our median at most 100 of the row's unit).
func measureRow(
  group: String, workload: String, note: String? = nil, target: [String: Double]? = nil,
  ours: Candidate, alt: Candidate
) {
  if let only = Settings.only, workload != only { return }
  FileHandle.standardError.write("  \(group): \(workload)\n".data(using: .utf8)!)
  let candidates = [ours, alt]
  let iterations = candidates.map { calibrate($0.body) }
  var perOp: [[Double]] = [[], []]
  for sample in 0..<Settings.samples {
    let order = sample % 2 == 0 ? [0, 1] : [1, 0]
    for index in order {
      let n = iterations[index]
      let start = nowNanos()
      candidates[index].body(n)
      let elapsed = nowNanos() - start
      perOp[index].append(Double(elapsed) / Double(n))
    }
  }
  emitRow(
    group: group, workload: workload, unit: "ns/op", note: note, target: target,
    ours: side(ours, Stats(perOp[0], iterations: iterations[0])),
    alt: side(alt, Stats(perOp[1], iterations: iterations[1])))
}

func side(_ candidate: Candidate, _ stats: Stats) -> [String: Any] {
  [
    "label": candidate.label, "kind": candidate.kind, "median": stats.median, "min": stats.min,
    "max": stats.max, "samples": stats.samples, "iterations": stats.iterations,
  ]
}

/// A side that could not be measured yet: `reason` says what it needs.
func unavailable(_ label: String, kind: String = "ours", needs reason: String) -> [String: Any] {
  ["label": label, "kind": kind, "na": reason]
}

func emitRow(
  group: String, workload: String, unit: String, note: String?, target: [String: Double]? = nil,
  ours: [String: Any], alt: [String: Any]
) {
  var row: [String: Any] = [
    "source": "swift", "group": group, "workload": workload, "unit": unit, "ours": ours, "alt": alt,
  ]
  if let note { row["note"] = note }
  if let target { row["target"] = target }
  let data = try! JSONSerialization.data(withJSONObject: row, options: [.sortedKeys])
  FileHandle.standardOutput.write(data)
  FileHandle.standardOutput.write("\n".data(using: .utf8)!)
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write("SwiftBench: \(message)\n".data(using: .utf8)!)
  exit(1)
}
