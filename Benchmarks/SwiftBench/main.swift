// SwiftBench: the Swift rows of `make bench` (docs/benchmarks.md). Prints one JSON line per row.
//
//   swift build -c release --product SwiftBench && .build/release/SwiftBench [json|kernel]…

let groups = CommandLine.arguments.dropFirst()
if groups.isEmpty || groups.contains("json") { jsonRows() }
if groups.isEmpty || groups.contains("kernel") { kernelRows() }
