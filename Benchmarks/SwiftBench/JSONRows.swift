// Rows 1: libtca's JSON codec vs Foundation's JSONDecoder/JSONEncoder on the same Codable types.
//
// Each workload is measured three times: through hand-written `JSONCodable` conformances (the
// direct path, Models.swift); "Codable only": types declared only Codable, whose conformances
// the JSONCodablePlugin writes (CodableOnlyModels.swift: what any feature's types get); and
// "through init(from:)" / "through encode(to:)": the Codable conformances alone
// (`decodeThroughCodable` / `encodeThroughCodable`: what a type the plugin leaves alone gets).

import Foundation
import JSON

func jsonRows() {
  let group = "JSON"
  let foundation = "Foundation.JSONDecoder"
  let codableNote = "through Codable alone (init(from:)/encode(to:)), no JSONCodable conformance"
  let generatedNote =
    "types declared only Codable; their JSONCodable conformances written by JSONCodablePlugin"

  // -- decode of a small action into an enum -----------------------------------------------------
  let smallText = #"{"toggle":{"id":3}}"#
  let smallBytes = Array(smallText.utf8)
  let smallData = Data(smallText.utf8)
  let foundationDecoder = Foundation.JSONDecoder()
  let foundationEncoder = Foundation.JSONEncoder()
  do {
    let ours = try JSON.JSONDecoder().decode(TodosAction.self, from: smallBytes)
    let codable = try smallBytes.withUnsafeBufferPointer {
      try JSON.JSONDecoder().decodeThroughCodable(TodosAction.self, from: $0)
    }
    let generated = try JSON.JSONDecoder().decode(CodableOnly.TodosAction.self, from: smallBytes)
    let theirs = try foundationDecoder.decode(TodosAction.self, from: smallData)
    guard ours == .toggle(id: 3), codable == ours, theirs == ours, generated == .toggle(id: 3)
    else { fail("small action decoded differently") }
  } catch { fail("small action: \(error)") }

  measureRow(
    group: group, workload: "decode small action \(smallText)", target: ["speedup": 20],
    ours: Candidate(label: "JSON.JSONDecoder (JSONCodable)") { n in
      let decoder = JSON.JSONDecoder()
      for _ in 0..<n { blackHole(try? decoder.decode(TodosAction.self, from: smallBytes)) }
    },
    alt: Candidate(label: foundation, kind: "competitor") { n in
      for _ in 0..<n { blackHole(try? foundationDecoder.decode(TodosAction.self, from: smallData)) }
    })

  measureRow(
    group: group, workload: "decode small action \(smallText), Codable only", note: generatedNote,
    target: ["speedup": 15],
    ours: Candidate(label: "JSON.JSONDecoder (generated)") { n in
      let decoder = JSON.JSONDecoder()
      for _ in 0..<n {
        blackHole(try? decoder.decode(CodableOnly.TodosAction.self, from: smallBytes))
      }
    },
    alt: Candidate(label: foundation, kind: "competitor") { n in
      for _ in 0..<n {
        blackHole(try? foundationDecoder.decode(CodableOnly.TodosAction.self, from: smallData))
      }
    })

  measureRow(
    group: group, workload: "decode small action \(smallText), through init(from:)",
    note: codableNote,
    ours: Candidate(label: "JSON.JSONDecoder (Codable)") { n in
      let decoder = JSON.JSONDecoder()
      smallBytes.withUnsafeBufferPointer { buffer in
        for _ in 0..<n {
          blackHole(try? decoder.decodeThroughCodable(TodosAction.self, from: buffer))
        }
      }
    },
    alt: Candidate(label: foundation, kind: "competitor") { n in
      for _ in 0..<n { blackHole(try? foundationDecoder.decode(TodosAction.self, from: smallData)) }
    })

  // -- a 1,000-todo state --------------------------------------------------------------------------
  let state = makeTodos(1_000)
  let plainState = CodableOnly.TodosState(state)
  let stateBytes: [UInt8]
  let stateData: Data
  do {
    stateBytes = try JSON.JSONEncoder().encode(state)
    stateData = try foundationEncoder.encode(state)
    // Each side must read what it wrote, and what the other wrote; both of our paths must
    // write the same bytes.
    let decodedThroughCodable = try stateBytes.withUnsafeBufferPointer {
      try JSON.JSONDecoder().decodeThroughCodable(TodosState.self, from: $0)
    }
    guard try JSON.JSONEncoder().encodeThroughCodable(state) == stateBytes,
      try JSON.JSONDecoder().decode(TodosState.self, from: stateBytes) == state,
      decodedThroughCodable == state,
      try JSON.JSONDecoder().decode(TodosState.self, from: Array(stateData)) == state,
      try foundationDecoder.decode(TodosState.self, from: stateData) == state,
      try foundationDecoder.decode(TodosState.self, from: Data(stateBytes)) == state,
      // The types declared only Codable write and read the same JSON.
      try JSON.JSONEncoder().encode(plainState) == stateBytes,
      try JSON.JSONDecoder().decode(CodableOnly.TodosState.self, from: stateBytes) == plainState,
      try foundationDecoder.decode(CodableOnly.TodosState.self, from: stateData) == plainState
    else { fail("the 1,000-todo state does not round-trip") }
  } catch { fail("1,000-todo state: \(error)") }
  let size = "\(stateBytes.count / 1024) KB of JSON (Foundation writes \(stateData.count / 1024) KB)"
  let encodeWithFoundation = Candidate(label: "Foundation.JSONEncoder", kind: "competitor") { n in
    for _ in 0..<n { blackHole(try? foundationEncoder.encode(state)) }
  }
  let decodeWithFoundation = Candidate(label: foundation, kind: "competitor") { n in
    // NB: each side decodes the bytes its own encoder wrote (same document up to key order).
    for _ in 0..<n { blackHole(try? foundationDecoder.decode(TodosState.self, from: stateData)) }
  }

  measureRow(
    group: group, workload: "encode 1,000-todo state", note: size, target: ["speedup": 20],
    ours: Candidate(label: "JSON.JSONEncoder (JSONCodable)") { n in
      let encoder = JSON.JSONEncoder()
      for _ in 0..<n { blackHole(try? encoder.encode(state)) }
    },
    alt: encodeWithFoundation)

  measureRow(
    group: group, workload: "encode 1,000-todo state, Codable only", note: generatedNote,
    target: ["speedup": 15],
    ours: Candidate(label: "JSON.JSONEncoder (generated)") { n in
      let encoder = JSON.JSONEncoder()
      for _ in 0..<n { blackHole(try? encoder.encode(plainState)) }
    },
    alt: Candidate(label: "Foundation.JSONEncoder", kind: "competitor") { n in
      for _ in 0..<n { blackHole(try? foundationEncoder.encode(plainState)) }
    })

  measureRow(
    group: group, workload: "encode 1,000-todo state, through encode(to:)", note: codableNote,
    ours: Candidate(label: "JSON.JSONEncoder (Codable)") { n in
      let encoder = JSON.JSONEncoder()
      for _ in 0..<n { blackHole(try? encoder.encodeThroughCodable(state)) }
    },
    alt: encodeWithFoundation)

  measureRow(
    group: group, workload: "decode 1,000-todo state", note: size, target: ["speedup": 20],
    ours: Candidate(label: "JSON.JSONDecoder (JSONCodable)") { n in
      let decoder = JSON.JSONDecoder()
      for _ in 0..<n { blackHole(try? decoder.decode(TodosState.self, from: stateBytes)) }
    },
    alt: decodeWithFoundation)

  measureRow(
    group: group, workload: "decode 1,000-todo state, Codable only", note: generatedNote,
    target: ["speedup": 15],
    ours: Candidate(label: "JSON.JSONDecoder (generated)") { n in
      let decoder = JSON.JSONDecoder()
      for _ in 0..<n {
        blackHole(try? decoder.decode(CodableOnly.TodosState.self, from: stateBytes))
      }
    },
    alt: Candidate(label: foundation, kind: "competitor") { n in
      for _ in 0..<n {
        blackHole(try? foundationDecoder.decode(CodableOnly.TodosState.self, from: stateData))
      }
    })

  measureRow(
    group: group, workload: "decode 1,000-todo state, through init(from:)", note: codableNote,
    ours: Candidate(label: "JSON.JSONDecoder (Codable)") { n in
      let decoder = JSON.JSONDecoder()
      stateBytes.withUnsafeBufferPointer { buffer in
        for _ in 0..<n {
          blackHole(try? decoder.decodeThroughCodable(TodosState.self, from: buffer))
        }
      }
    },
    alt: decodeWithFoundation)
}

/// `SwiftBench profile WORKLOAD COUNT` (see main.swift): one workload of the rows above, alone.
func profile(_ arguments: ArraySlice<String>) {
  guard let workload = arguments.first, let count = arguments.dropFirst().first.flatMap(Int.init)
  else { fail("usage: SwiftBench profile WORKLOAD COUNT") }
  let state = makeTodos(1_000)
  let plainState = CodableOnly.TodosState(state)
  guard let bytes = try? JSON.JSONEncoder().encode(state) else { fail("cannot encode the state") }
  let small = Array(#"{"toggle":{"id":3}}"#.utf8)
  let smallData = Data(small)
  let foundationDecoder = Foundation.JSONDecoder()
  let foundationEncoder = Foundation.JSONEncoder()
  guard let data = try? foundationEncoder.encode(state) else { fail("cannot encode the state") }
  let encoder = JSON.JSONEncoder()
  let decoder = JSON.JSONDecoder()
  var sink = 0
  for _ in 0..<count {
    switch workload {
    case "encode": sink &+= (try? encoder.encode(state))?.count ?? 0
    case "codable-encode": sink &+= (try? encoder.encodeThroughCodable(state))?.count ?? 0
    case "decode": sink &+= (try? decoder.decode(TodosState.self, from: bytes))?.todos.count ?? 0
    case "codable-decode":
      sink &+= bytes.withUnsafeBufferPointer {
        (try? decoder.decodeThroughCodable(TodosState.self, from: $0))?.todos.count ?? 0
      }
    case "small":
      sink &+= (try? decoder.decode(TodosAction.self, from: small)) == nil ? 0 : 1
    case "generated-small":
      sink &+= (try? decoder.decode(CodableOnly.TodosAction.self, from: small)) == nil ? 0 : 1
    case "generated-decode":
      sink &+= (try? decoder.decode(CodableOnly.TodosState.self, from: bytes))?.todos.count ?? 0
    case "generated-encode": sink &+= (try? encoder.encode(plainState))?.count ?? 0
    case "codable-small":
      sink &+= small.withUnsafeBufferPointer {
        (try? decoder.decodeThroughCodable(TodosAction.self, from: $0)) == nil ? 0 : 1
      }
    case "foundation-small":
      sink &+= (try? foundationDecoder.decode(TodosAction.self, from: smallData)) == nil ? 0 : 1
    case "foundation-decode":
      sink &+= (try? foundationDecoder.decode(TodosState.self, from: data))?.todos.count ?? 0
    case "foundation-encode": sink &+= (try? foundationEncoder.encode(state))?.count ?? 0
    default: fail("unknown workload \(workload)")
    }
  }
  blackHole(sink)
}
