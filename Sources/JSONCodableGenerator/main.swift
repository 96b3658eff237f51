// JSONCodableGenerator: writes the JSONCodable conformances of a target's Codable types
// (``Generator``). Run by the JSONCodablePlugin build plugin at every build of a target that
// uses it (docs/own-features.md):
//
//   JSONCodableGenerator OUTPUT SOURCE...
//
// OUTPUT is rewritten only when its text changes.

import JSONCodableGeneration

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The whole of the file at `path`, nil if it cannot be read.
func readFile(_ path: String) -> String? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
    if count > 0 { bytes += chunk[0..<count] }
    if count < chunk.count { break }
  }
  if ferror(file) != 0 { return nil }
  return String(decoding: bytes, as: UTF8.self)
}

/// Writes `text` to `path`; false if it could not.
func writeFile(_ path: String, _ text: String) -> Bool {
  guard let file = fopen(path, "wb") else { return false }
  let bytes = Array(text.utf8)
  let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
  return fclose(file) == 0 && written == bytes.count
}

func fail(_ message: String) -> Never {
  let bytes = Array("JSONCodableGenerator: \(message)\n".utf8)
  _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let output = arguments.first else { fail("usage: JSONCodableGenerator OUTPUT SOURCE...") }
var sources: [String] = []
for path in arguments.dropFirst() {
  guard let text = readFile(path) else { fail("cannot read \(path)") }
  sources.append(text)
}
let code = Generator.generate(sources: sources)
if readFile(output) != code, !writeFile(output, code) { fail("cannot write \(output)") }
