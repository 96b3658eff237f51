/// An action of one element of a `forEach`, addressed by its id.
///
/// Wire form: `{"element":{"id":3,"action":"toggleCompleted"}}`.
public enum IdentifiedAction<ID: Hashable, Action> {
  case element(id: ID, action: Action)
}

/// The element action of a reducer whose state is identifiable: `IdentifiedActionOf<Todo>`.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where ID: Sendable, Action: Sendable {}
extension IdentifiedAction: Decodable where ID: Decodable, Action: Decodable {}
extension IdentifiedAction: Encodable where ID: Encodable, Action: Encodable {}

extension Reducer {
  /// Runs `element` on the element of an identified array that an element action names, before
  /// this reducer; cancels an element's effects when it is removed.
  ///
  ///     Reduce { state, action in … }
  ///       .forEach(\.todos, action: Action.todos) {
  ///         Todo()
  ///       }
  ///
  /// with `case todos(IdentifiedActionOf<Todo>)` in the parent's actions. Each element's
  /// cancellation ids are its own (the parent's `.cancel(id:)` reaches them too, as upstream).
  /// An action for an id that is not in the array is ignored.
  @inlinable
  public func forEach<ElementState, ElementAction, ID: Hashable & Sendable, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: AnyCasePath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> _ForEachReducer<Self, ID, Element>
  where Element.State == ElementState, Element.Action == ElementAction {
    _ForEachReducer(
      parent: self, element: element(), toElementsState: toElementsState,
      toElementAction: toElementAction)
  }

  /// ``forEach(_:action:element:)`` with the element actions given by their case.
  @inlinable
  public func forEach<ElementState, ElementAction, ID: Hashable & Sendable, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: @escaping @Sendable (IdentifiedAction<ID, ElementAction>) -> Action,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> _ForEachReducer<Self, ID, Element>
  where Element.State == ElementState, Element.Action == ElementAction {
    forEach(toElementsState, action: AnyCasePath(toElementAction), element: element)
  }
}

/// The reducer of `forEach(_:action:element:)`.
public struct _ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer
where Element.State: Identifiable, Element.State.ID == ID {
  @usableFromInline let parent: Parent
  @usableFromInline let element: Element
  @usableFromInline let toElementsState:
    WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
  @usableFromInline let toElementAction:
    AnyCasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>
  /// Where the elements are inside the parent's state when the key path is a chain of stored
  /// properties (`\.todos`), as `MemoryLayout.offset(of:)` gives it; nil otherwise.
  ///
  /// NB: a key path applied at run time costs ~500 instructions a read (three a toggle of one
  /// of a list's elements); the offset reaches the same storage directly.
  @usableFromInline let elementsOffset: Int?

  @inlinable
  init(
    parent: Parent, element: Element,
    toElementsState: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>,
    toElementAction: AnyCasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>
  ) {
    self.parent = parent
    self.element = element
    self.toElementsState = toElementsState
    self.toElementAction = toElementAction
    self.elementsOffset = MemoryLayout<Parent.State>.offset(of: toElementsState)
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let elementEffects = reduceElement(into: &state, action: action)
    let idsBefore = withElements(of: &state) { $0.ids }
    let parentEffects = parent.reduce(into: &state, action: action)
    let idsAfter = withElements(of: &state) { $0.ids }
    let effects = elementEffects.merge(with: parentEffects)
    // NB: checked here too (O(1) when the ids were not touched), so that the common case does
    // not form the `navigationID(for:)` closure (a context allocated per action).
    guard idsBefore != idsAfter else { return effects }
    return effects.dismissing(idsBefore, keeping: idsAfter, by: navigationID(for:))
  }

  @inlinable
  func reduceElement(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    guard case let .element(id, elementAction)? = toElementAction.extract(from: action) else {
      return .none
    }
    let effect = withElements(of: &state) { (elements) -> Effect<Element.Action>? in
      guard let position = elements.index(id: id) else { return nil }
      return element.reduce(into: &elements[position], action: elementAction)
    }
    guard let effect else { return .none }
    switch effect.operation {
    case .none:
      return .none
    default:
      let embed = toElementAction._embed
      return
        effect
        .map { embed(.element(id: id, action: $0)) }
        .scoped(to: navigationID(for: id).cancelID)
    }
  }

  /// Runs `body` on the elements inside `state`, in place.
  @inlinable
  func withElements<R>(
    of state: inout Parent.State, _ body: (inout IdentifiedArray<ID, Element.State>) -> R
  ) -> R {
    guard let offset = elementsOffset else { return body(&state[keyPath: toElementsState]) }
    // NB: the offset of a stored property of `Parent.State` (or of one of its stored struct
    // properties): the memory there is the elements', as the key path would project it.
    return withUnsafeMutablePointer(to: &state) { pointer in
      body(
        &UnsafeMutableRawPointer(pointer).advanced(by: offset)
          .assumingMemoryBound(to: IdentifiedArray<ID, Element.State>.self).pointee)
    }
  }

  @usableFromInline
  func navigationID(for id: ID) -> NavigationID {
    NavigationID(site: CancelID(unchecked: AnyHashable(toElementsState)), identity: CancelID(id))
  }
}

extension _ForEachReducer: @unchecked Sendable where Parent: Sendable, Element: Sendable {}
