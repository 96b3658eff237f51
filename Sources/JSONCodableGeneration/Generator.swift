/// Writes the `JSONCodable` conformances of a module's types whose coding Swift synthesizes:
/// the same JSON as their `init(from:)` and `encode(to:)`, through the JSON module's direct
/// path (docs/own-features.md).
///
/// A struct or enum gets a conformance for each direction it is `Decodable` or `Encodable` in
/// by synthesis: declared so (or through a protocol of the module that is), with no
/// `init(from:)`, `encode(to:)` or `CodingKeys` of its own and no `JSONDecodable` or
/// `JSONEncodable` by hand. It must not be generic, nor in a generic type or a constrained
/// extension, nor private, nor between `#if` and `#endif`, and its body must hold nothing the
/// reader does not follow (``Parser``). Every other type is left as it is, and listed in the
/// output with the reason.
public enum Generator {
  /// The generated file for `sources`, the module's files.
  public static func generate(sources: [String]) -> String {
    var module = Module()
    for (file, source) in sources.enumerated() {
      let (tokens, complete) = Lexer.tokens(of: source)
      var parser = Parser(tokens: tokens, file: file, into: module)
      parser.parseFile()
      module = parser.module
      if !complete { module.incompleteFiles.append(file) }
    }
    return emit(resolve(module))
  }

  /// A type the generator writes for, and which directions.
  struct Plan {
    let type: TypeDeclaration
    let decodes: Bool
    let encodes: Bool
    /// The raw value's type of an enum with raw values.
    let rawType: String?
    /// A struct's members, in the order its coding reads and writes them: each stored property
    /// coded, and its key (its name, or what its `CodingKeys` case says).
    var members: [(property: StoredProperty, key: String)] = []
  }

  private static let rawTypes: Set<String> = [
    "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32",
    "UInt64", "Double", "Float", "Bool",
  ]

  /// Protocols of the standard library a type may list first without it being a raw type.
  private static let knownProtocols: Set<String> = [
    "Codable", "Decodable", "Encodable", "Equatable", "Hashable", "Comparable", "Sendable",
    "CaseIterable", "Identifiable", "CustomStringConvertible", "CustomDebugStringConvertible",
    "Error", "BitwiseCopyable", "RawRepresentable", "LosslessStringConvertible",
  ]

  static func resolve(_ module: Module) -> (plans: [Plan], skipped: [(String, String)]) {
    var byName: [String: TypeDeclaration] = [:]
    var repeated: Set<String> = []
    for type in module.types {
      if byName[type.qualifiedName] != nil { repeated.insert(type.qualifiedName) }
      byName[type.qualifiedName] = type
    }
    for type in module.types {
      if repeated.contains(type.qualifiedName) { type.reject("its name is declared twice") }
      if module.incompleteFiles.contains(type.file) {
        type.reject("its file has a string or comment left open")
      }
    }

    // Where each type is nested: its access, and whether it is generic or conditional.
    var settled: Set<ObjectIdentifier> = []
    func settle(_ type: TypeDeclaration, depth: Int = 0) {
      guard !settled.contains(ObjectIdentifier(type)) else { return }
      settled.insert(ObjectIdentifier(type))
      if let parent = type.parent {
        settle(parent, depth: depth + 1)
        type.access = min(type.access, parent.access)
        type.isGenericContext = type.isGenericContext || parent.isGenericContext
        type.isConditional = type.isConditional || parent.isConditional
        if parent.kind == "protocol" { type.reject("it is in a protocol") }
      }
      if let ext = type.enclosingExtension {
        guard let base = byName[ext.qualifiedName], depth < 64 else {
          type.reject("it is in an extension of a type this module does not declare")
          return
        }
        settle(base, depth: depth + 1)
        type.access = min(type.access, base.access)
        type.isGenericContext = type.isGenericContext || base.isGenericContext || ext.isConstrained
        type.isConditional = type.isConditional || base.isConditional || ext.isConditional
      }
    }
    for type in module.types { settle(type) }

    // What the type's own declaration and its extensions say.
    var inheritance: [ObjectIdentifier: [String]] = [:]
    for type in module.types {
      type.markers.note(inheritance: type.inheritance)
      inheritance[ObjectIdentifier(type)] = type.inheritance
    }
    for ext in module.extensions {
      if let type = byName[ext.qualifiedName] {
        inheritance[ObjectIdentifier(type), default: []] += ext.inheritance
        type.markers.merge(ext.markers)
        continue
      }
      // NB: an extension of a name the module does not declare (through a typealias, say)
      // may be of any type with that last name: what it says holds for each of them.
      for type in module.types where type.path.last?.text == ext.path.last?.text {
        type.markers.merge(ext.markers)
      }
    }

    // The module's protocols that refine Decodable or Encodable.
    var protocolCoding: [String: (decodes: Bool, encodes: Bool)] = [:]
    let protocols = module.types.filter { $0.kind == "protocol" }
    var changed = true
    while changed {
      changed = false
      for proto in protocols {
        let coding = codingOf(inheritance[ObjectIdentifier(proto)] ?? [], protocolCoding)
        let old = protocolCoding[proto.path.last?.text ?? ""]
        if old?.decodes != coding.decodes || old?.encodes != coding.encodes {
          protocolCoding[proto.path.last?.text ?? ""] = coding
          changed = true
        }
      }
    }

    var plans: [Plan] = []
    var skipped: [(String, String)] = []
    for type in module.types where type.kind == "struct" || type.kind == "enum" {
      let coding = codingOf(inheritance[ObjectIdentifier(type)] ?? [], protocolCoding)
      guard coding.decodes || coding.encodes else { continue }
      let markers = type.markers
      let decodes = coding.decodes && !markers.decoderInit && !markers.jsonDecodable
      let encodes = coding.encodes && !markers.encodeTo && !markers.jsonEncodable
      var reason = type.problem
      var members = type.properties.map { ($0, $0.name.text) }
      if reason == nil, !decodes && !encodes {
        reason =
          markers.jsonDecodable || markers.jsonEncodable
          ? "it has a JSONCodable conformance by hand"
          : "it codes itself (init(from:), encode(to:))"
      } else if reason == nil, markers.codingKeysEnum, !markers.codingKeys, type.kind == "struct" {
        switch plainKeys(of: type, in: byName) {
        case let .success(keyed): members = keyed
        case let .failure(problem): reason = problem.reason
        }
      } else if reason == nil, markers.codingKeys || markers.codingKeysEnum {
        reason = "it has CodingKeys of its own"
      }
      if reason == nil {
        if type.isGenericContext {
          reason = "it is generic, or in a generic type or a constrained extension"
        } else if type.isConditional {
          reason = "it is declared between #if and #endif"
        } else if type.access < .internal {
          reason = "it is private"
        } else if !type.attributes.allSatisfy({ ["frozen", "usableFromInline"].contains($0) }) {
          reason = "it has an attribute (@\(type.attributes.joined(separator: ", @")))"
        }
      }
      var rawType: String?
      if reason == nil, type.kind == "enum" {
        let first = type.inheritance.first.map(unqualified) ?? ""
        if rawTypes.contains(first) {
          rawType = first
        } else if !first.isEmpty, !knownProtocols.contains(first),
          protocolCoding[first] == nil, !protocols.contains(where: { $0.path.last?.text == first })
        {
          reason = "its first inherited type (\(first)) may be a raw type"
        } else if type.cases.isEmpty {
          reason = "it has no cases"
        } else {
          reason = enumProblem(type)
        }
      }
      if reason == nil, type.kind == "struct" {
        if members.contains(where: { isPositional($0.1) }) {
          reason = "a member is named like a payload value (_0)"
        }
      }
      if let reason {
        skipped.append((type.qualifiedName, reason))
        continue
      }
      plans.append(
        Plan(type: type, decodes: decodes, encodes: encodes, rawType: rawType, members: members))
    }
    return (plans, skipped)
  }

  /// Why a struct's `CodingKeys` cannot be followed.
  struct KeysProblem: Error {
    let reason: String
  }

  /// A struct's members as its `enum CodingKeys` names them: a `String` enum of plain cases
  /// (`case id, fullName = "full_name"`), each a stored property, in the enum's order (the
  /// order synthesized coding reads and writes them). Properties it does not name are not
  /// coded (they have default values: the synthesized conformance needs them).
  private static func plainKeys(
    of type: TypeDeclaration, in byName: [String: TypeDeclaration]
  ) -> Result<[(StoredProperty, String)], KeysProblem> {
    let plain = "its CodingKeys are not a String enum of plain cases"
    guard let keys = byName[type.qualifiedName + ".CodingKeys"], keys.kind == "enum",
      keys.problem == nil, !keys.isConditional, !keys.hasOtherMembers,
      let first = keys.inheritance.first, unqualified(first) == "String",
      keys.inheritance.contains(where: { ["CodingKey", "Swift.CodingKey"].contains($0) })
    else { return .failure(KeysProblem(reason: plain)) }
    var members: [(StoredProperty, String)] = []
    for key in keys.cases {
      guard key.values == nil else { return .failure(KeysProblem(reason: plain)) }
      let name: String
      switch key.rawValue {
      case nil: name = key.name.text
      case let .plain(text)?: name = text
      case .other?: return .failure(KeysProblem(reason: plain))
      }
      guard let property = type.properties.first(where: { $0.name.text == key.name.text }) else {
        return .failure(KeysProblem(reason: "a CodingKeys case names no stored property"))
      }
      members.append((property, name))
    }
    return .success(members)
  }

  /// Whether Codable synthesizes a type's decoding and encoding, from its inheritance.
  private static func codingOf(
    _ inheritance: [String], _ protocols: [String: (decodes: Bool, encodes: Bool)]
  ) -> (decodes: Bool, encodes: Bool) {
    var decodes = false
    var encodes = false
    for entry in inheritance {
      let name = unqualified(entry)
      switch name {
      case "Codable":
        decodes = true
        encodes = true
      case "Decodable": decodes = true
      case "Encodable": encodes = true
      default:
        if let coding = protocols[name] {
          decodes = decodes || coding.decodes
          encodes = encodes || coding.encodes
        }
      }
    }
    return (decodes, encodes)
  }

  /// `_0`, `_12`: the names Codable gives unlabeled payload values.
  private static func isPositional(_ name: String) -> Bool {
    name.count > 1 && name.first == "_" && name.dropFirst().allSatisfy(\.isNumber)
  }

  /// Why an enum's cases are not generated for, if they are not.
  private static func enumProblem(_ type: TypeDeclaration) -> String? {
    var names: Set<String> = []
    for enumCase in type.cases {
      guard names.insert(enumCase.name.text).inserted else {
        return "two cases share the name \(enumCase.name.text)"
      }
      guard let values = enumCase.values else { continue }
      if values.contains(where: { $0.label.map { isPositional($0.text) } ?? false }) {
        return "a payload value is labeled like an unlabeled one (_0)"
      }
      // NB: `case a(Int, b: Int)`: Codable reads a missing `_0` beside labeled values as the
      // whole payload (the `_0` shorthand), which a member read does not.
      let unlabeled = values.filter { $0.label == nil }.count
      if unlabeled == 1 && values.count > 1 {
        return "a case has one unlabeled payload value beside labeled ones"
      }
    }
    return nil
  }

  // MARK: - Code

  static func emit(_ resolved: (plans: [Plan], skipped: [(String, String)])) -> String {
    var out = """
      // Written by libtca's JSONCodableGenerator (the JSONCodablePlugin build plugin) from this
      // target's sources: the direct JSON paths (JSONCodable) of its types whose Codable
      // conformance Swift synthesizes, to the same JSON (docs/own-features.md). Do not edit: it
      // is written again at every build.

      """
    let plans = resolved.plans
    let isPublic = plans.contains { $0.type.access == .public }
    if !plans.isEmpty { out += (isPublic ? "public import JSON\n" : "import JSON\n") }
    if !resolved.skipped.isEmpty {
      out += "\n// Left to Codable:\n"
      for (name, reason) in resolved.skipped.sorted(by: { $0.0 < $1.0 }) {
        out += "// - \(name): \(reason)\n"
      }
    }
    for plan in plans {
      out += "\n"
      if plan.type.kind == "struct" {
        out += structCode(plan)
      } else if let rawType = plan.rawType {
        out += rawEnumCode(plan, rawType)
      } else {
        out += enumCode(plan)
      }
    }
    return out
  }

  private static func accessPrefix(_ type: TypeDeclaration) -> String {
    switch type.access {
    case .public: return "public "
    case .package: return "package "
    default: return ""
    }
  }

  /// A key as a string literal's contents (names are identifiers: nothing to escape).
  private static func key(_ name: Name) -> String { name.text }

  private static func structCode(_ plan: Plan) -> String {
    let type = plan.type
    let access = accessPrefix(type)
    var code = ""
    let fields = type.properties.map { "\"\(key($0.name))\"" }
    code += "extension \(type.code) {\n"
    let line = "  private static let _generatedJSONFields = JSON.GeneratedFields(["
    if line.count + fields.joined(separator: ", ").count + 3 <= 100 {
      code += line + fields.joined(separator: ", ") + "])\n"
    } else {
      code += line + "\n" + fields.map { "    \($0),\n" }.joined() + "  ])\n"
    }
    code += "}\n"
    if plan.decodes {
      code += "\nextension \(type.code): JSON.JSONDecodable {\n"
      code += "  \(access)init(json: JSON.JSONValueReader) throws(JSON.JSONDeclined) {\n"
      let decoded = plan.members.filter(\.property.isDecoded)
      if !decoded.isEmpty {
        code += "    let object = try json.object()\n"
        for (property, key) in decoded {
          let read = property.isOptional ? "decodeMemberIfPresent" : "decodeMember"
          code += "    self.\(property.name.code) = try object.\(read)(\"\(key)\")\n"
        }
      }
      code += "    try Self._generatedJSONFields.check(self)\n"
      code += "  }\n}\n"
    }
    if plan.encodes {
      code += "\nextension \(type.code): JSON.JSONEncodable {\n"
      code += "  \(access)func encode(json: JSON.JSONValueWriter) throws(JSON.JSONDeclined) {\n"
      code += "    try Self._generatedJSONFields.check(self)\n"
      code += "    try json.object { (object) throws(JSON.JSONDeclined) in\n"
      for (property, key) in plan.members {
        code += "      try object.encodeMember(self.\(property.name.code), forKey: \"\(key)\")\n"
      }
      code += "    }\n  }\n}\n"
    }
    return code
  }

  private static func rawEnumCode(_ plan: Plan, _ rawType: String) -> String {
    let type = plan.type
    let access = accessPrefix(type)
    var code = ""
    // NB: string raw values all known (plain literals, or the case names) are matched as bytes:
    // no `String` is made, and no `init(rawValue:)` run.
    let rawStrings = type.cases.map { enumCase -> String? in
      switch enumCase.rawValue {
      case nil: return enumCase.name.text
      case let .plain(text)?: return text
      case .other?: return nil
      }
    }
    if plan.decodes, rawType == "String", rawStrings.allSatisfy({ $0 != nil }) {
      code += "extension \(type.code): JSON.JSONDecodable {\n"
      code += "  \(access)init(json: JSON.JSONValueReader) throws(JSON.JSONDeclined) {\n"
      code += "    switch try json.stringCase() {\n"
      for (enumCase, raw) in zip(type.cases, rawStrings) {
        code += "    case \"\(raw ?? "")\": self = .\(enumCase.name.code)\n"
      }
      code += "    default: throw JSON.JSONDeclined()\n    }\n  }\n}\n"
    } else if plan.decodes {
      code += "extension \(type.code): JSON.JSONDecodable {\n"
      code += "  \(access)init(json: JSON.JSONValueReader) throws(JSON.JSONDeclined) {\n"
      code += "    guard let value = Self(rawValue: try json.decode(\(rawType).self)) else {\n"
      code += "      throw JSON.JSONDeclined()\n    }\n"
      code += "    self = value\n  }\n}\n"
    }
    if plan.encodes {
      if plan.decodes { code += "\n" }
      code += "extension \(type.code): JSON.JSONEncodable {\n"
      code += "  \(access)func encode(json: JSON.JSONValueWriter) throws(JSON.JSONDeclined) {\n"
      code += "    try json.encode(self.rawValue)\n  }\n}\n"
    }
    return code
  }

  private static func enumCode(_ plan: Plan) -> String {
    let type = plan.type
    let access = accessPrefix(type)
    var code = ""
    if plan.decodes {
      code += "extension \(type.code): JSON.JSONDecodable {\n"
      code += "  \(access)init(json: JSON.JSONValueReader) throws(JSON.JSONDeclined) {\n"
      code += "    let value = try json.enumCase()\n"
      code += "    switch value {\n"
      for enumCase in type.cases {
        code += "    case \"\(key(enumCase.name))\":\n"
        guard let values = enumCase.values else {
          code += "      try value.noPayload()\n"
          code += "      self = .\(enumCase.name.code)\n"
          continue
        }
        if values.count == 1 && values[0].label == nil {
          let read = values[0].isOptional ? "decodePayloadIfPresent" : "decodePayload"
          code += "      self = .\(enumCase.name.code)(try value.\(read)())\n"
          continue
        }
        code += "      let payload = try value.labeled()\n"
        let arguments = values.enumerated().map { (position, value) -> String in
          let name = value.label.map(key) ?? "_\(position)"
          let method = value.isOptional ? "decodeMemberIfPresent" : "decodeMember"
          let read = "try payload.\(method)(\"\(name)\")"
          return value.label.map { "\($0.code): \(read)" } ?? read
        }
        code += "      self = .\(enumCase.name.code)(\n"
        code += "        " + arguments.joined(separator: ",\n        ") + ")\n"
      }
      code += "    default:\n      throw JSON.JSONDeclined()\n    }\n  }\n}\n"
    }
    if plan.encodes {
      if plan.decodes { code += "\n" }
      code += "extension \(type.code): JSON.JSONEncodable {\n"
      code += "  \(access)func encode(json: JSON.JSONValueWriter) throws(JSON.JSONDeclined) {\n"
      code += "    switch self {\n"
      for enumCase in type.cases {
        guard let values = enumCase.values else {
          code += "    case .\(enumCase.name.code):\n"
          code += "      try json.enumCase(\"\(key(enumCase.name))\")\n"
          continue
        }
        let names = values.indices.map { "v\($0)" }
        code += "    case let .\(enumCase.name.code)(\(names.joined(separator: ", "))):\n"
        code += "      try json.enumCase(\"\(key(enumCase.name))\") {\n"
        code += "        (payload) throws(JSON.JSONDeclined) in\n"
        for (position, value) in values.enumerated() {
          let name = value.label.map(key) ?? "_\(position)"
          code += "        try payload.encodeMember(v\(position), forKey: \"\(name)\")\n"
        }
        code += "      }\n"
      }
      code += "    }\n  }\n}\n"
    }
    return code
  }
}
