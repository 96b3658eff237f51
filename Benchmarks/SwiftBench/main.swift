// SwiftBench: the Swift rows of `make bench` (docs/benchmarks.md). Prints one JSON line per row.
//
//   swift build -c release --product SwiftBench && .build/release/SwiftBench [json|kernel]…
//
// `SwiftBench profile WORKLOAD COUNT` runs one JSON workload COUNT times and nothing else, for
// attribution under callgrind (two counts; the difference over the extra runs is one run):
//
//   valgrind --tool=callgrind .build-bench/release/SwiftBench profile decode 20
//
// WORKLOAD: encode, decode, small (the 1,000-todo state and the small action, hand-written
// direct path); generated-encode, generated-decode, generated-small (the same types declared
// only Codable, their conformances written by JSONCodablePlugin: the "Codable only" rows);
// codable-encode, codable-decode, codable-small (through init(from:)/encode(to:) alone);
// foundation-small, foundation-decode, foundation-encode: the competitor's side of those rows.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "profile" {
  profile(arguments.dropFirst())
} else {
  if arguments.isEmpty || arguments.contains("json") { jsonRows() }
  if arguments.isEmpty || arguments.contains("kernel") { kernelRows() }
}
