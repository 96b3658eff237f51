// swift-tools-version: 6.0
import PackageDescription

// A package of your own features, shipped as a C library with libtca's API (docs/own-features.md).
// Copy this folder anywhere and point the path below at your checkout of libtca.
let package = Package(
  name: "stopwatch",
  products: [
    // The C library: `make` turns it into build/lib/libstopwatch.so.0.1.0.
    .library(name: "stopwatch", type: .dynamic, targets: ["StopwatchLibrary"])
  ],
  dependencies: [
    .package(name: "libtca", path: "../..")
  ],
  targets: [
    // The feature itself: plain StoreKernel code, testable with TestStore. libtca's plugin
    // writes its Codable types' direct JSON paths at build time (its actions have one written
    // by hand, StopwatchJSON.swift, which the plugin leaves alone).
    .target(
      name: "Stopwatch",
      dependencies: [
        .product(name: "StoreKernel", package: "libtca"), .product(name: "JSON", package: "libtca"),
      ],
      plugins: [.plugin(name: "JSONCodablePlugin", package: "libtca")]),
    // The library: the C bridge, and the one function that registers the features.
    .target(
      name: "StopwatchLibrary",
      dependencies: [
        "Stopwatch",
        .product(name: "CBridge", package: "libtca"),
        .product(name: "Features", package: "libtca"),
      ]),
    .testTarget(
      name: "StopwatchTests",
      dependencies: [
        "Stopwatch", .product(name: "StoreKernelTesting", package: "libtca"),
        .product(name: "JSON", package: "libtca"),
      ]),
  ]
)
