import Foundation
import PackagePlugin

/// Gives a target the `JSONCodable` conformances of its Codable types, written at every build
/// by `JSONCodableGenerator` from the target's sources (docs/own-features.md):
///
///     .target(
///       name: "MyFeature",
///       dependencies: [
///         .product(name: "StoreKernel", package: "libtca"),
///         .product(name: "JSON", package: "libtca"),
///       ],
///       plugins: [.plugin(name: "JSONCodablePlugin", package: "libtca")])
@main
struct JSONCodablePlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let sources = target.sourceFiles(withSuffix: "swift").map(\.url)
    let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedJSONCodable.swift")
    return [
      .buildCommand(
        displayName: "Writing the JSONCodable conformances of \(target.name)",
        executable: try context.tool(named: "JSONCodableGenerator").url,
        arguments: [output.path(percentEncoded: false)]
          + sources.map { $0.path(percentEncoded: false) },
        inputFiles: sources,
        outputFiles: [output])
    ]
  }
}
