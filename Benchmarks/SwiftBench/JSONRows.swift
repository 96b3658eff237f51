// Rows 1: libtca's JSON codec vs Foundation's JSONDecoder/JSONEncoder on the same Codable types.

import Foundation
import JSON

func jsonRows() {
  let group = "JSON"
  let foundation = "Foundation.JSONDecoder"

  // -- decode of a small action into an enum -----------------------------------------------------
  let smallText = #"{"toggle":{"id":3}}"#
  let smallBytes = Array(smallText.utf8)
  let smallData = Data(smallText.utf8)
  let foundationDecoder = Foundation.JSONDecoder()
  let foundationEncoder = Foundation.JSONEncoder()
  do {
    let ours = try JSON.JSONDecoder().decode(TodosAction.self, from: smallBytes)
    let theirs = try foundationDecoder.decode(TodosAction.self, from: smallData)
    guard ours == .toggle(id: 3), theirs == ours else { fail("small action decoded differently") }
  } catch { fail("small action: \(error)") }

  measureRow(
    group: group, workload: "decode small action \(smallText)", target: ["speedup": 10],
    ours: Candidate(label: "JSON.JSONDecoder") { n in
      let decoder = JSON.JSONDecoder()
      for _ in 0..<n { blackHole(try? decoder.decode(TodosAction.self, from: smallBytes)) }
    },
    alt: Candidate(label: foundation, kind: "competitor") { n in
      for _ in 0..<n { blackHole(try? foundationDecoder.decode(TodosAction.self, from: smallData)) }
    })

  // -- a 1,000-todo state --------------------------------------------------------------------------
  let state = makeTodos(1_000)
  let stateBytes: [UInt8]
  let stateData: Data
  do {
    stateBytes = try JSON.JSONEncoder().encode(state)
    stateData = try foundationEncoder.encode(state)
    // Each side must read what it wrote, and what the other wrote.
    guard try JSON.JSONDecoder().decode(TodosState.self, from: stateBytes) == state,
      try JSON.JSONDecoder().decode(TodosState.self, from: Array(stateData)) == state,
      try foundationDecoder.decode(TodosState.self, from: stateData) == state,
      try foundationDecoder.decode(TodosState.self, from: Data(stateBytes)) == state
    else { fail("the 1,000-todo state does not round-trip") }
  } catch { fail("1,000-todo state: \(error)") }
  let size = "\(stateBytes.count / 1024) KB of JSON (Foundation writes \(stateData.count / 1024) KB)"

  measureRow(
    group: group, workload: "encode 1,000-todo state", note: size, target: ["speedup": 10],
    ours: Candidate(label: "JSON.JSONEncoder") { n in
      let encoder = JSON.JSONEncoder()
      for _ in 0..<n { blackHole(try? encoder.encode(state)) }
    },
    alt: Candidate(label: "Foundation.JSONEncoder", kind: "competitor") { n in
      for _ in 0..<n { blackHole(try? foundationEncoder.encode(state)) }
    })

  measureRow(
    group: group, workload: "decode 1,000-todo state", note: size, target: ["speedup": 10],
    ours: Candidate(label: "JSON.JSONDecoder") { n in
      let decoder = JSON.JSONDecoder()
      for _ in 0..<n { blackHole(try? decoder.decode(TodosState.self, from: stateBytes)) }
    },
    alt: Candidate(label: foundation, kind: "competitor") { n in
      // NB: each side decodes the bytes its own encoder wrote (same document up to key order).
      for _ in 0..<n { blackHole(try? foundationDecoder.decode(TodosState.self, from: stateData)) }
    })
}
