// SwiftBench: the Swift rows of `make bench` (docs/benchmarks.md). Prints one JSON line per row.
//
//   swift build -c release --product SwiftBench && .build/release/SwiftBench [json|kernel]…
//
// `SwiftBench profile WORKLOAD COUNT` runs one JSON workload COUNT times and nothing else, for
// attribution under callgrind (two counts; the difference over the extra runs is one run):
//
//   valgrind --tool=callgrind .build-bench/release/SwiftBench profile decode 20
//
// WORKLOAD: encode, decode (the 1,000-todo state, direct path), codable-encode, codable-decode
// (the same through Codable alone), codable-small (the small action through Codable alone);
// foundation-small, foundation-decode, foundation-encode: the competitor's side of those rows.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "profile" {
  profile(arguments.dropFirst())
} else {
  if arguments.isEmpty || arguments.contains("json") { jsonRows() }
  if arguments.isEmpty || arguments.contains("kernel") { kernelRows() }
}
