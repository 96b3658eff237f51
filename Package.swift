// swift-tools-version: 6.0
import PackageDescription

// NB: the linker flags that make the shipped libtca.so self-contained (static stdlib, SONAME,
// exported-symbol list, -z nodelete) live in the Makefile, not here: unsafeFlags would stop other
// packages from depending on this one (see docs/own-features.md).
// NB: `make fuzz` builds without JSONCodablePlugin (TCA_JSON_PLUGIN=off): SwiftPM compiles the
// plugin's tool with the fuzzer's flags too, and libFuzzer, which brings a `main` of its own,
// cannot be linked into it. The features' types are then decoded through Codable, as before the
// plugin (docs/fuzzing.md).
let jsonPlugin: [Target.PluginUsage] =
  Context.environment["TCA_JSON_PLUGIN"] == "off" ? [] : ["JSONCodablePlugin"]
// NB: without the plugin, code that builds on the conformances it writes is left out.
let withoutPlugin: [SwiftSetting] =
  Context.environment["TCA_JSON_PLUGIN"] == "off" ? [.define("TCA_NO_JSON_PLUGIN")] : []

let package = Package(
  name: "libtca",
  products: [
    // The shipped C library: the C bridge plus the built-in features.
    .library(name: "tca", type: .dynamic, targets: ["LibTCA"]),
    // Building blocks for a package that ships its own features through the same C ABI.
    .library(name: "StoreKernel", targets: ["StoreKernel"]),
    .library(name: "JSON", targets: ["JSON"]),
    .library(name: "CBridge", targets: ["CBridge"]),
    .library(name: "Features", targets: ["Features"]),
    .library(name: "StoreKernelTesting", targets: ["StoreKernelTesting"]),
    // The JSONCodable conformances of a target's Codable types, written at build time
    // (docs/own-features.md).
    .plugin(name: "JSONCodablePlugin", targets: ["JSONCodablePlugin"]),
  ],
  targets: [
    .target(name: "JSON"),
    // NB: CSystem wraps the Linux calls Glibc's Swift module does not import (eventfd, timerfd,
    // epoll) for the store's wake descriptor.
    .target(name: "CSystem"),
    .target(name: "StoreKernel", dependencies: ["JSON", "CSystem"]),
    .target(
      name: "Features", dependencies: ["StoreKernel", "JSON"], swiftSettings: withoutPlugin,
      plugins: jsonPlugin),
    // The build plugin and the tool it runs: they read a target's sources and write the
    // direct JSON paths of the types whose Codable conformance Swift synthesizes.
    .target(name: "JSONCodableGeneration"),
    .executableTarget(name: "JSONCodableGenerator", dependencies: ["JSONCodableGeneration"]),
    .plugin(
      name: "JSONCodablePlugin", capability: .buildTool(), dependencies: ["JSONCodableGenerator"]),
    .target(name: "CBridge", dependencies: ["StoreKernel", "JSON"]),
    .target(name: "LibTCA", dependencies: ["CBridge", "Features"]),
    // `make bench`: the Swift half of the benchmarks (JSON codec and kernel vs Foundation and a
    // direct call). It may import Foundation; the library may not. Not part of any product.
    .executableTarget(
      name: "SwiftBench", dependencies: ["JSON", "StoreKernel", "Features"],
      path: "Benchmarks/SwiftBench", plugins: jsonPlugin),
    // What the two JSON test targets share (not part of any product).
    .target(name: "JSONTestSupport", dependencies: ["JSON"], path: "Tests/JSONTestSupport"),
    .testTarget(name: "JSONTests", dependencies: ["JSON", "JSONTestSupport"]),
    // Types of every shape the generator meets, with their generated conformances, checked
    // against their Codable ones; and the generator's reading of sources.
    .testTarget(
      name: "GeneratedJSONTests", dependencies: ["JSON", "JSONTestSupport"], plugins: jsonPlugin),
    .testTarget(name: "JSONCodableGenerationTests", dependencies: ["JSONCodableGeneration"]),
    // `FailureReporter.swiftTesting`, for TestStores in swift-testing tests (ours and users').
    .target(name: "StoreKernelTesting", dependencies: ["StoreKernel"]),
    .testTarget(name: "StoreKernelTests", dependencies: ["StoreKernel", "StoreKernelTesting"]),
    .testTarget(
      name: "FeaturesTests",
      dependencies: ["Features", "StoreKernel", "JSON", "StoreKernelTesting"]),
    // The C ABI called from Swift, linked with test-only features (a stream, a timer) instead of
    // the built-in ones: see Tests/CBridgeTests/TestFeatures.swift.
    .testTarget(name: "CBridgeTests", dependencies: ["CBridge", "StoreKernel"]),
  ]
)
