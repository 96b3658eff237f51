import StoreKernel
import Testing

private class Animal: Equatable {
  let name: String
  init(_ name: String) { self.name = name }
  static func == (lhs: Animal, rhs: Animal) -> Bool { lhs.name == rhs.name }
}
private final class Dog: Animal {}
private struct Failure: Error, Equatable { var code = 1 }
private struct Big: Equatable { var a = 1, b = "two", c = [3], d: Double = 4, e: String? = "5" }
private enum Inner: Equatable { case x(Int), y(String), z }

private indirect enum Tree: Equatable {
  case leaf(Int)
  case node(Tree, Tree)
}

private enum Shapes: Equatable {
  case int(Int)
  case otherInt(Int)
  case string(String)
  case labeled(id: Int, name: String)
  case tuple(Int, String)
  case optional(Int?)
  case animal(Animal)
  case error(any Error)
  case big(Big)
  case inner(Inner)
  indirect case boxed(Big)
  case generic(IdentifiedAction<Int, Inner>)
  case empty

  static func == (lhs: Shapes, rhs: Shapes) -> Bool { "\(lhs)" == "\(rhs)" }
}

private enum Generic<T: Equatable>: Equatable {
  case value(T)
  case pair(T, T)
  case nothing
}

/// Checks a bare-case path against the spelled-out one on every value.
private func check<Value: Equatable>(
  _ embed: @escaping @Sendable (Value) -> Shapes,
  _ extract: @escaping @Sendable (Shapes) -> Value?,
  _ values: [Shapes],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let fast = AnyCasePath(embed)
  for value in values {
    #expect(
      fast.extract(from: value) == extract(value), "\(value)", sourceLocation: sourceLocation)
  }
}

private var samples: [Shapes] {
  [
    .int(1), .otherInt(2), .string("s"), .labeled(id: 3, name: "n"), .tuple(4, "t"),
    .optional(5), .optional(nil), .animal(Dog("rex")), .error(Failure(code: 7)),
    .big(Big()), .inner(.y("why")), .inner(.z), .boxed(Big(a: 9)),
    .generic(.element(id: 10, action: .x(11))), .empty,
  ]
}

@Test func bareCasePathsAgreeWithSpelledOutOnes() {
  check(Shapes.int, { if case let .int(v) = $0 { v } else { nil } }, samples)
  check(Shapes.otherInt, { if case let .otherInt(v) = $0 { v } else { nil } }, samples)
  check(Shapes.string, { if case let .string(v) = $0 { v } else { nil } }, samples)
  check(Shapes.optional, { if case let .optional(v) = $0 { v } else { nil } }, samples)
  check(Shapes.big, { if case let .big(v) = $0 { v } else { nil } }, samples)
  check(Shapes.inner, { if case let .inner(v) = $0 { v } else { nil } }, samples)
  check(Shapes.boxed, { if case let .boxed(v) = $0 { v } else { nil } }, samples)
  check(Shapes.generic, { if case let .generic(v) = $0 { v } else { nil } }, samples)
  check(Shapes.animal, { if case let .animal(v) = $0 { v } else { nil } }, samples)
  check(
    { (failure: Failure) in Shapes.error(failure) },
    { if case let .error(v as Failure) = $0 { v } else { nil } }, samples)

  let labeled = AnyCasePath(Shapes.labeled)
  #expect(labeled.extract(from: .labeled(id: 3, name: "n")).map { "\($0)" } == "(3, \"n\")")
  #expect(labeled.extract(from: .tuple(3, "n")) == nil)
  let tuple = AnyCasePath(Shapes.tuple)
  #expect(tuple.extract(from: .tuple(4, "t")).map { "\($0)" } == "(4, \"t\")")
  #expect(tuple.extract(from: .labeled(id: 4, name: "t")) == nil)
}

@Test func bareCasePathsWorkOnGenericAndIndirectEnums() {
  let value = AnyCasePath(Generic<String>.value)
  #expect(value.extract(from: .value("a")) == "a")
  #expect(value.extract(from: .nothing) == nil)
  let pair = AnyCasePath(Generic<[Int]>.pair)
  #expect(pair.extract(from: .pair([1], [2])).map { "\($0)" } == "([1], [2])")
  #expect(pair.extract(from: .value([1])) == nil)
  let leaf = AnyCasePath(Tree.leaf)
  #expect(leaf.extract(from: .leaf(3)) == 3)
  #expect(leaf.extract(from: .node(.leaf(1), .leaf(2))) == nil)
  let node = AnyCasePath(Tree.node)
  #expect(
    node.extract(from: .node(.leaf(1), .leaf(2))).map { "\($0)" } == "(.leaf(1), .leaf(2))"
      || node.extract(from: .node(.leaf(1), .leaf(2))) != nil)
}

@Test func extractingBalancesRetainsAndReleases() {
  final class Token: Sendable {}
  enum Holder { case token(Token), other }
  var token = Token()
  let path = AnyCasePath(Holder.token)
  for _ in 0..<10_000 {
    let holder = Holder.token(token)
    #expect(path.extract(from: holder) === token)
    #expect(path.extract(from: .other) == nil)
  }
  // NB: a leaked retain would leave the token shared; an extra release would have crashed.
  #expect(isKnownUniquelyReferenced(&token))
}
