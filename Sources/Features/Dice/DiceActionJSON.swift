import JSON

// NB: dice's action decodes itself (`init(from:)` in Dice.swift: the grouped form and the
// host's bare view and internal actions), so the build plugin leaves it to Codable, where a
// send cost ~24,000 instructions: two keyed containers of a bare string and their `allKeys`
// (docs/benchmarks.md, "Dice on the direct path"). This reads the same forms through the
// conformances the plugin writes for its parts; whatever it declines, `init(from:)` decodes or
// names the place of the error, as before. Built without the plugin (`make fuzz`), it is left
// out, and the action decodes through `init(from:)` alone.
#if !TCA_NO_JSON_PLUGIN
extension Dice.Action: JSONDecodable {
  public init(json: JSONValueReader) throws(JSONDeclined) {
    let value = try json.enumCase()
    switch value {
    case "view": self = .view(try value.decodePayload())
    case "internal": self = .internal(try value.decodePayload())
    case "destination": self = .destination(try value.decodePayload())
    case "alert": self = .alert(try value.decodePayload())
    default:
      // NB: the shorthand: a view or internal case given without its group.
      if let view = try? ViewAction(json: json) {
        self = .view(view)
      } else {
        self = .internal(try InternalAction(json: json))
      }
    }
  }
}
#endif
