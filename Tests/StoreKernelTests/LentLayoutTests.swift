import JSON
import StoreKernel
import Testing

// The lent text's layout (``JSONLayout``, issue 16): a state with two identified arrays and a
// plain member, laid out with slack, then updated in place over random changes; the update
// declines what it cannot do in place (a member outside the arrays, an insert, a leaf that
// outgrows its slot), and the text is then written again. After each step the text, without
// the whitespace outside strings, is exactly the compact encoding; so is the text copied
// without its slack (``JSONLayout/copyCompact(_:to:)``: what `tca_store_state` gives).

private typealias Item = TextRow

private struct Board: Equatable, Codable, JSONEncodable {
  var name = "board"
  var left: IdentifiedArrayOf<Item> = []
  var right: IdentifiedArrayOf<Item> = []

  func encode(json: JSONValueWriter) throws(JSONDeclined) {
    try json.object { (object) throws(JSONDeclined) in
      object.encode(name, forKey: "name")
      try object.encode(left, forKey: "left")
      try object.encode(right, forKey: "right")
      try object.array(forKey: "rightIDs") { (array) throws(JSONDeclined) in
        try right.encodeIDs(into: &array)
      }
    }
  }
}

/// `text` without the JSON whitespace outside strings.
private func compacted(_ text: [UInt8]) -> [UInt8] {
  var out: [UInt8] = []
  var inString = false
  var escaped = false
  for byte in text {
    if inString {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
      }
    } else if byte == UInt8(ascii: "\"") {
      inString = true
    } else if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
      continue
    }
    out.append(byte)
  }
  return out
}

/// `text` copied by `layout` without the slack after its chunks.
private func compactCopy(_ text: [UInt8], _ layout: JSONLayout) -> [UInt8] {
  [UInt8](unsafeUninitializedCapacity: max(text.count, 1)) { buffer, count in
    guard let base = buffer.baseAddress else { return }
    count = text.withUnsafeBufferPointer { layout.copyCompact($0, to: base) }
  }
}

@Suite struct LentLayoutTests {
  @Test func updatesInPlaceOrDeclines() throws {
    var board = Board()
    board.left = IdentifiedArray(uniqueElements: (0..<300).map { Item(id: $0, text: "l\($0)") })
    board.right = IdentifiedArray(uniqueElements: (0..<130).map { Item(id: $0, text: "r\($0)") })
    let encoder = JSONEncoder()
    let layout = JSONLayout()
    var text = try encoder.encode(board, layout: layout)
    #expect(compacted(text) == (try encoder.encode(board)))
    #expect(text.count > (try encoder.encode(board)).count)  // the slack
    #expect(compactCopy(text, layout) == (try encoder.encode(board)))

    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func random(_ bound: Int) -> Int {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return Int(state % UInt64(bound))
    }
    var inPlace = 0
    var written = 0
    for step in 0..<400 {
      let kind = random(10)
      var expectInPlace: Bool? = true
      switch kind {
      case 0..<4:
        let position = random(board.left.count)
        board.left[position].text = "s\(step)"
      case 4..<6:
        let position = random(board.right.count)
        board.right[position].text = "t\(step)"
        let other = random(board.left.count)
        board.left[other].text = "u\(step)"
      case 6:
        board.name = "name \(step)"
        expectInPlace = false
      case 7:
        board.left.append(Item(id: 1_000 + step, text: "new"))
        expectInPlace = false
      case 8:
        let position = random(board.right.count)
        // NB: a long text outgrows the slot of a leaf (64 items) of short texts; a leaf laid
        // out with long texts has slack for more (an eighth of its text).
        let leaf = (position / 64 * 64)..<min(board.right.count, position / 64 * 64 + 64)
        let short = leaf.allSatisfy { board.right[$0].text.count < 100 }
        expectInPlace = short ? false : nil
        board.right[position].text = String(repeating: "x", count: 2_000) + "\(step)"
      default:
        expectInPlace = true  // nothing changed: an update writes nothing
      }
      let updated = text.withUnsafeMutableBufferPointer { buffer in
        encoder.update(buffer, to: board, layout: layout)
      }
      if let expectInPlace { #expect(updated == expectInPlace, "step \(step), kind \(kind)") }
      if updated {
        inPlace += 1
      } else {
        text = try encoder.encode(board, layout: layout)
        written += 1
      }
      #expect(compacted(text) == (try encoder.encode(board)), "step \(step), kind \(kind)")
      #expect(compactCopy(text, layout) == (try encoder.encode(board)), "copy, step \(step)")
    }
    #expect(inPlace > 100 && written > 20)
  }

  @Test func aStateWithoutIdentifiedArraysHasNoSlots() throws {
    struct Plain: Codable { var count = 3 }
    let layout = JSONLayout()
    var text = try JSONEncoder().encode(Plain(), layout: layout)
    #expect(text == Array("{\"count\":3}".utf8))
    #expect(compactCopy(text, layout) == text)
    let updated = text.withUnsafeMutableBufferPointer { buffer in
      JSONEncoder().update(buffer, to: Plain(count: 4), layout: layout)
    }
    #expect(!updated)
  }
}
