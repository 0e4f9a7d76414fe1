// What a persistent store (the ObjectMappingStore target) asks of a mapping: the identity of an
// object, its JSON serialization as bytes, and which payload key a model key path is written to
// (and how a value of it is written), so that typed queries translate to the stored payload.
// `package` declarations only: nothing here is public API.

/// A model property that a mapping writes at one payload key path, and how it writes a value of
/// it: a query compares the stored payload with the value written the same way.
package struct _StoreField<Value>: Sendable {
  /// The payload keys, from the stored object (`["author", "name"]`).
  package let path: [String]
  private let writer: ValueWriter<Value>
  /// The attribute's own date format, else its mapping's, else the writer's default.
  private let dateFormat: DateFormat?

  fileprivate init(path: [String], writer: ValueWriter<Value>, dateFormat: DateFormat?) {
    self.path = path
    self.writer = writer
    self.dateFormat = dateFormat
  }

  /// `value` as the mapping writes it (a scalar `Node` for the built-in values, an array or
  /// object for a composite one); `nil` when the mapping writes nothing for it (`nil`).
  ///
  /// - Throws: ``MappingErrors`` when the value cannot be written (a transform refuses it).
  package func node(for value: Value) throws(MappingErrors) -> Node? {
    var encoder = PayloadWriter(target: .node)
    if let dateFormat { encoder.dateFormat = dateFormat }
    do {
      let wrote = try withBorrowed(value) {
        try writer.write($0.erased, to: &encoder, nulls: .omit)
      }
      return wrote ? encoder.nodes.result : nil
    } catch {
      var run = EncodingRun()
      run.record(error, at: [])
      throw MappingErrors(run.errors)
    }
  }
}

extension MappingProtocol {
  /// The key path of the identity property (``Mapping/identified(by:)``), or `nil`.
  package var _storeIdentityKeyPath: AnyKeyPath? { _plan.identity?.property }

  /// The identity of `object` (``Mapping/identified(by:)``); `nil` when the mapping has none
  /// or the object's is `nil`.
  package func _storeIdentity(of object: Object) -> AnyHashable? {
    _plan.identity?.value(object)
  }

  /// The mistakes in the mapping's definition, as ``validate()`` reports them.
  package var _storeDefinitionProblems: [String] { _plan.problems }

  /// `object` as compact JSON bytes, written by the mapping's inverse (what `serialize` writes).
  ///
  /// - Throws: ``MappingErrors`` with every value that cannot be written.
  package func _storeJSON(_ object: Object) throws(MappingErrors) -> [UInt8] {
    try _plan.inverse.encodedJSON(object, options: .none)
  }

  /// The payload key path that `keyPath` is written to and how its values are written: an
  /// attribute of this mapping, or of the child mapping of a to-one relationship (`\.author.name`;
  /// `\.author!.name` for an optional one), nested to any depth up to 32. `nil` when no attribute
  /// writes it (a computed member, a to-many element, a grouped or one-way rule).
  package func _storeField<Value>(_ keyPath: KeyPath<Object, Value>) -> _StoreField<Value>? {
    guard
      let found = storeResolveAttribute(
        keyPath, in: _plan.inverse, prefix: nil, path: [], depth: 0),
      let step = found.step.kind as? any StoreAttributeStep,
      let writer = step.storeWriter(as: Value.self)
    else { return nil }
    return _StoreField(
      path: found.path, writer: writer, dateFormat: step.storeDateFormat ?? found.dateFormat)
  }

  /// The payload key path that `keyPath` (of any value type) is written to, as for
  /// ``_storeField(_:)``; `nil` when no attribute writes it.
  package func _storePath(_ keyPath: AnyKeyPath) -> [String]? {
    storeResolveAttribute(keyPath, in: _plan.inverse, prefix: nil, path: [], depth: 0)?.path
  }
}

/// The attribute rule writing a key path: its step, payload keys and its mapping's date format.
private struct StoreResolved {
  let step: EncodeStep
  let path: [String]
  let dateFormat: DateFormat?
}

/// Searches `inverse`'s rules for the attribute writing `target` (a key path from the stored
/// object, `prefix` being the key path of `inverse`'s objects from it, `path` their payload keys).
private func storeResolveAttribute<Root>(
  _ target: AnyKeyPath, in inverse: InverseMapping<Root>, prefix: AnyKeyPath?, path: [String],
  depth: Int
) -> StoreResolved? {
  guard depth < 32 else { return nil }
  for rule in inverse.rules {
    guard let full = prefix.map({ $0.appending(path: rule.property) }) ?? rule.property else {
      continue
    }
    if full == target, rule.step.kind is any StoreAttributeStep {
      return StoreResolved(step: rule.step, path: path + rule.path, dateFormat: inverse.dateFormat)
    }
    if let child = rule.step.kind as? any StoreChildStep,
      let found = child.storeResolve(target, prefix: full, path: path + rule.path, depth: depth + 1)
    {
      return found
    }
  }
  return nil
}

/// An attribute's encode step, seen without its value type.
private protocol StoreAttributeStep {
  func storeWriter<Value>(as: Value.Type) -> ValueWriter<Value>?
  var storeDateFormat: DateFormat? { get }
}

extension AttributeEncodeStep: StoreAttributeStep {
  fileprivate func storeWriter<Wanted>(as: Wanted.Type) -> ValueWriter<Wanted>? {
    valueWriter as? ValueWriter<Wanted>
  }

  fileprivate var storeDateFormat: DateFormat? { outputFormat }
}

/// A to-one relationship's encode step, searched for the fields of its child mapping.
private protocol StoreChildStep {
  func storeResolve(_ target: AnyKeyPath, prefix: AnyKeyPath, path: [String], depth: Int)
    -> StoreResolved?
}

extension ToOneEncodeStep: StoreChildStep {
  fileprivate func storeResolve(
    _ target: AnyKeyPath, prefix: AnyKeyPath, path: [String], depth: Int
  ) -> StoreResolved? {
    storeResolveAttribute(
      target, in: mapping()._plan.inverse, prefix: prefix, path: path, depth: depth)
  }
}

extension OptionalToOneEncodeStep: StoreChildStep {
  fileprivate func storeResolve(
    _ target: AnyKeyPath, prefix: AnyKeyPath, path: [String], depth: Int
  ) -> StoreResolved? {
    // `\.author!`: the key path through the optional, which the child's key paths extend. The
    // store never evaluates it; it only compares key paths.
    let unwrap: WritableKeyPath<Child?, Child> = \Child?.!
    guard let unwrapped = prefix.appending(path: unwrap) else { return nil }
    return storeResolveAttribute(
      target, in: mapping()._plan.inverse, prefix: unwrapped, path: path, depth: depth)
  }
}
