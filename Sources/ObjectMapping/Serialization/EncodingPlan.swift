/// The state of one serialization: the current path and every problem found.
///
/// Created per call and passed `inout` down the inverse plan, like ``_MappingRun``, so inverse
/// mappings hold no mutable state.
struct _EncodingRun {
  var errors: [MappingError] = []
  var path: [_PathComponent] = []
  /// The class instances being serialized, outermost first, to report cycles.
  var visiting: [ObjectIdentifier] = []

  /// Records an error thrown while writing a value at the current path plus `extra`.
  mutating func record(_ error: any Error, at extra: [_PathComponent]) {
    let pointer = _jsonPointer(path + extra)
    switch error {
    case let failure as ConversionFailure:
      switch failure {
      case .notRepresentable(let value, let reason):
        errors.append(MappingError(path: pointer, .notRepresentable(reason: "\(value): \(reason)")))
      case .typeMismatch(let expected, let found):
        errors.append(MappingError(path: pointer, .typeMismatch(expected: expected, found: found)))
      case .invalidValue(let expected, let raw, let reason):
        errors.append(
          MappingError(
            path: pointer, .conversionFailed(expected: expected, raw: raw, reason: reason)))
      }
    case let mappingError as MappingError:
      errors.append(MappingError(path: pointer + mappingError.path, mappingError.kind))
    case let mappingErrors as MappingErrors:
      for inner in mappingErrors.errors { record(inner, at: extra) }
    default:
      errors.append(MappingError(path: pointer, .notRepresentable(reason: "\(error)")))
    }
  }
}

/// The serializing side of one rule: writes one value (the key is written by the tree).
struct _EncodingRule<Object>: Sendable {
  /// The output keys, from the object being written (`["user", "address", "city"]`).
  var path: [String]
  /// The property the rule reads, so an inverse can remove it by key path.
  let property: AnyKeyPath & Sendable
  /// How the rule reads in reports (`Attribute "title"`).
  let label: String
  /// The rule's own nil policy, overriding the mapping's.
  var nulls: NullPolicy?
  /// Writes the value of `object`; returns `false` when nothing was written (a `nil` left out
  /// or a failure recorded in the run), so the tree takes the key back.
  let write: @Sendable (Object, inout _PayloadWriter, inout _EncodingRun, NullPolicy) -> Bool
}

/// What a rule contributes to the inverse.
enum _RuleEncoding<Object>: Sendable {
  case rule(_EncodingRule<Object>)
  /// Several outputs: a compound source's parts, an empty-source relationship's flat fields.
  case rules([_EncodingRule<Object>])
  case omitted(InverseOmission)
}

/// A rule that has a serializing side (every rule kind of the library).
protocol _EncodableRule<Object>: Sendable {
  associatedtype Object
  var encoding: _RuleEncoding<Object> { get }
}

/// The output keys of an inverse as a tree, so rules writing `user.name` and `user.email` share
/// one `"user"` object. Keys keep the order in which rules first name them.
struct _OutputTree<Object>: Sendable {
  indirect enum Item: Sendable {
    case rule(_EncodingRule<Object>)
    case branch(_OutputTree<Object>)
  }

  // Keys and items in two arrays rather than one array of tuples: iterating an array of a tuple
  // with a generic element looks up the tuple's metadata on every call.
  var keys: [_OutputKey] = []
  var items: [Item] = []

  /// Adds `rule` at `path`; returns why it cannot be added (the key is taken) or `nil`.
  mutating func insert(_ rule: _EncodingRule<Object>, at path: ArraySlice<String>) -> String? {
    guard let first = path.first else { return "it has no output key" }
    let index = keys.firstIndex { $0.text == first }
    if path.count == 1 {
      guard index == nil else {
        return "an earlier rule already writes \"\(rule.path.joined(separator: "."))\""
      }
      keys.append(_OutputKey(first))
      items.append(.rule(rule))
      return nil
    }
    guard let index else {
      var branch = _OutputTree()
      if let problem = branch.insert(rule, at: path.dropFirst()) { return problem }
      keys.append(_OutputKey(first))
      items.append(.branch(branch))
      return nil
    }
    guard case .branch(var branch) = items[index] else {
      return "an earlier rule writes \"\(first)\" as a value, so nothing can be nested in it"
    }
    if let problem = branch.insert(rule, at: path.dropFirst()) { return problem }
    items[index] = .branch(branch)
    return nil
  }

  /// Writes the members of `object` for this tree level; returns whether any was written.
  func write(
    _ object: Object, to writer: inout _PayloadWriter, run: inout _EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    var wroteAny = false
    for index in 0..<items.count {
      let mark = writer.checkpoint()
      writer.key(keys[index])
      let wrote: Bool
      switch items[index] {
      case .rule(let rule):
        wrote = rule.write(object, &writer, &run, rule.nulls ?? nulls)
      case .branch(let branch):
        writer.beginObject()
        wrote = branch.write(object, to: &writer, run: &run, nulls: nulls)
        writer.endObject()
      }
      if wrote {
        wroteAny = true
      } else {
        writer.rollback(to: mark)
      }
    }
    return wroteAny
  }
}

/// A rule the inverse left out, and why.
public struct InverseOmission: Sendable, Equatable, CustomStringConvertible {
  /// The rule, as `Attribute "score"` or `Relationship "author"`.
  public let rule: String
  /// Why it was left out.
  public let reason: String

  /// `Attribute "score": it converts with a decode-only closure`.
  public var description: String { "\(rule): \(reason)" }
}

/// The compiled inverse of a mapping: the output tree and its settings. Built once per inverse;
/// immutable, shared by every serialization.
final class _InversePlan<Object>: Sendable {
  let tree: _OutputTree<Object>
  let nulls: NullPolicy
  let dateFormat: DateFormat
  let isClass: Bool
  let typeName: String
  let dispatch: (@Sendable (Object, inout _PayloadWriter, inout _EncodingRun) -> Void)?
  let keyEncoder: (@Sendable (Object) throws -> String)?

  private init(
    tree: _OutputTree<Object>, nulls: NullPolicy, dateFormat: DateFormat,
    dispatch: (@Sendable (Object, inout _PayloadWriter, inout _EncodingRun) -> Void)?,
    keyEncoder: (@Sendable (Object) throws -> String)?
  ) {
    self.dispatch = dispatch
    self.keyEncoder = keyEncoder
    self.tree = tree
    self.nulls = nulls
    self.dateFormat = dateFormat
    isClass = Object.self is AnyClass
    typeName = "\(Object.self)"
  }

  /// Builds the plan, returning also the rules that could not be placed in the output tree.
  static func build(
    rules: [_EncodingRule<Object>], nulls: NullPolicy, dateFormat: DateFormat,
    dispatch: (@Sendable (Object, inout _PayloadWriter, inout _EncodingRun) -> Void)?,
    keyEncoder: (@Sendable (Object) throws -> String)?
  ) -> (plan: _InversePlan<Object>, problems: [InverseOmission]) {
    var tree = _OutputTree<Object>()
    var problems: [InverseOmission] = []
    for rule in rules {
      if let problem = tree.insert(rule, at: rule.path[...]) {
        problems.append(InverseOmission(rule: rule.label, reason: problem))
      }
    }
    return (
      _InversePlan(
        tree: tree, nulls: nulls, dateFormat: dateFormat, dispatch: dispatch,
        keyEncoder: keyEncoder), problems
    )
  }

  /// Writes `object` as a JSON object. A cycle in a class graph is recorded as an error and
  /// nothing is written for the repeated object.
  func encode(_ object: Object, to writer: inout _PayloadWriter, run: inout _EncodingRun) {
    if let dispatch { return dispatch(object, &writer, &run) }
    guard keyEncoder != nil else { return encodeBody(object, to: &writer, run: &run) }
    encodeKeyed(object, to: &writer, run: &run)
  }

  /// Writes one nested-key object as `{"<key>": {...}}`; kept out of line so that the common
  /// path of ``encode(_:to:run:)`` touches no collection metadata.
  @inline(never)
  private func encodeKeyed(
    _ object: Object, to writer: inout _PayloadWriter, run: inout _EncodingRun
  ) {
    encodeKeyedCollection([object], to: &writer, run: &run)
  }

  /// Writes a nested-key collection as one object, one member per object in order; two objects
  /// with the same key are an error naming both paths.
  func encodeKeyedCollection(
    _ objects: some Sequence<Object>, to writer: inout _PayloadWriter, run: inout _EncodingRun
  ) {
    guard let keyEncoder else { return }
    writer.beginObject()
    var seen: [String: Int] = [:]
    for (offset, object) in objects.enumerated() {
      let key: String
      do {
        key = try keyEncoder(object)
      } catch {
        run.record(error, at: [.index(offset)])
        continue
      }
      if let first = seen[key] {
        run.errors.append(
          MappingError(
            path: _jsonPointer(run.path + [.index(offset)]),
            .duplicateKey(key: key, otherPath: _jsonPointer(run.path + [.index(first)]))))
        continue
      }
      seen[key] = offset
      writer.key(key)
      run.path.append(.key(key))
      encodeBody(object, to: &writer, run: &run)
      run.path.removeLast()
    }
    writer.endObject()
  }

  /// Writes `object`'s members as one JSON object (without a nested-key wrapper).
  func encodeBody(_ object: Object, to writer: inout _PayloadWriter, run: inout _EncodingRun) {
    if let dispatch { return dispatch(object, &writer, &run) }
    var identity: ObjectIdentifier?
    if isClass {
      let id = ObjectIdentifier(object as AnyObject)
      guard !run.visiting.contains(id) else {
        run.errors.append(MappingError(path: _jsonPointer(run.path), .cycle(type: typeName)))
        writer.null()
        return
      }
      run.visiting.append(id)
      identity = id
    }
    let outerFormat = writer.dateFormat
    writer.dateFormat = dateFormat
    writer.beginObject()
    _ = tree.write(object, to: &writer, run: &run, nulls: nulls)
    writer.endObject()
    writer.dateFormat = outerFormat
    if identity != nil { run.visiting.removeLast() }
  }
}
