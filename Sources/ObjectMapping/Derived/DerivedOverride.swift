import Foundation

/// One rule of a derived mapping (``Mapping/init(_:keys:overrides:)``) compiled for decoding:
/// the coding key it answers for, and how it reads its value from an object of the payload.
struct DerivedOverride: Sendable {
  /// The property's name, which is the coding key it answers for.
  let name: String
  /// How the rule reads in a message (`Attribute "pull_request.url"`).
  let rule: String
  /// Where the rule reads, for a value `init(from:)` needs but the rule left absent.
  let path: [_PathComponent]
  /// Reads the value from the object at the index, recording problems in the run.
  let evaluate: @Sendable (Int, inout MappingRun) -> OverrideOutcome
}

/// What an override read for one object.
enum OverrideOutcome {
  /// The value (of the property's type).
  case value(Any)
  /// Absent (or rejected by a validator), with no default.
  case absent
  /// The value failed; its errors are in the run.
  case failed
  /// The rule's groups do not apply in the run: the coding key is read as if not overridden.
  case notApplied
}

/// Where an override's step writes the value it read.
struct DerivedSlot<Value> {
  var value: Value?
}

/// A rule that can answer for a coding key of a derived mapping.
protocol DerivedOverriding<Object> {
  associatedtype Object
  /// The rule compiled as an override; `nil` with the reason when it cannot be one.
  func derivedOverride() -> Result<DerivedOverride, DerivedProblem>
}

/// Why a rule cannot be an override of a derived mapping.
struct DerivedProblem: Error {
  let message: String

  /// The problem of a rule whose property is not one of `object`'s own stored properties: a
  /// nested property (`\.author.name`), a computed one, or one behind a property wrapper.
  ///
  /// A key path to a wrapped or computed property does not tell its name (it reads
  /// `\Model.<computed 0x… (Int)>`), so the message describes it rather than print it.
  static func notAMember(rule: String, _ keyPath: AnyKeyPath, of object: Any.Type) -> Self {
    let property: String
    if case .names = DerivedKey(keyPath, root: object, rule: rule) {
      property = "\(keyPath), a property of a member, which is not one of \(object)'s own"
    } else {
      property =
        "a property whose key path does not tell its name: a computed property, or one behind "
        + "a property wrapper (init(from:) decodes its storage, `_name`, which a key path "
        + "cannot reach)"
    }
    return DerivedProblem(
      message: "\(rule) writes \(property); an override answers for one of \(object)'s "
        + "coding keys by naming its stored property. Leave such a member to the model's own "
        + "decoding, or write a full mapping")
  }
}

extension Attribute: DerivedOverriding {
  func derivedOverride() -> Result<DerivedOverride, DerivedProblem> {
    if let keyPathProblem { return .failure(DerivedProblem(message: keyPathProblem)) }
    guard let name = KeyConvention.propertyName(of: property, in: Object.self),
      !name.contains(".")
    else {
      return .failure(.notAMember(rule: "Attribute \"\(source)\"", property, of: Object.self))
    }
    let path = source.isSpecial ? [] : source.keys.map { _PathComponent.key($0) }
    return .success(
      DerivedOverride(
        name: name, rule: "Attribute \"\(source)\"", path: path,
        evaluate: makeSlotEvaluator(slotted().decodeStep(mayRepeat: true), groups: groupNames)))
  }

  /// This rule writing into a ``DerivedSlot`` instead of the model: the same source, read,
  /// defaults, presence, date formats and validators.
  func slotted() -> Attribute<DerivedSlot<Value>, Value?> {
    let read = self.read
    let nullValue = self.nullValue
    let slotNull: @Sendable () -> Value?? = {
      guard let value = nullValue() else { return nil }
      return .some(.some(value))
    }
    let slotDefault: (@Sendable () -> Value?)?
    if let made = defaultValue {
      slotDefault = { () -> Value? in made() }
    } else {
      slotDefault = nil
    }
    var slotted = Attribute<DerivedSlot<Value>, Value?>(
      source: source, property: \DerivedSlot<Value>.value,
      read: { payload -> Value? in try read(payload) },
      nullValue: slotNull, defaultValue: slotDefault, serialize: nil, expected: expected)
    if let zeroValue {
      slotted.zeroValue = { () -> Value?? in
        guard let zero = zeroValue() else { return nil }
        return .some(.some(zero))
      }
    }
    slotted.presence = presence
    slotted.attributeDateFormats = attributeDateFormats
    slotted.absence = absence
    slotted.validators = validators.map { validator in
      Validator(message: validator.message) { (value: inout Value?) in
        guard var typed = value else { return true }
        defer { value = typed }
        return try validator.body(&typed)
      }
    }
    return slotted
  }
}

/// Reads an override's value for the object at an index (see ``DerivedOverride/evaluate``).
typealias SlotEvaluator = @Sendable (Int, inout MappingRun) -> OverrideOutcome

/// Runs `step` (a rule compiled to write into a ``DerivedSlot``) on an object and returns
/// what it wrote.
func makeSlotEvaluator<Value>(_ step: DecodeStep<DerivedSlot<Value>>, groups: [String])
  -> SlotEvaluator
{
  let grouped = !groups.isEmpty
  let step = grouped ? DecodeStep(GroupedStep(step, groups: groups)) : step
  return { index, run in
    if grouped, !step.applies(in: run) { return .notApplied }
    var slot = DerivedSlot<Value>()
    var patch = Patch<DerivedSlot<Value>>()
    var hint = _MemberHint(object: index)
    let before = run.errors.count
    let outerMode = run.ontoExisting
    run.ontoExisting = false
    step.decode(&slot, &patch, objectIndex: index, hint: &hint, run: &run)
    run.ontoExisting = outerMode
    if run.errors.count != before { return .failed }
    guard let value = slot.value else { return .absent }
    return .value(value)
  }
}

extension Relationship: DerivedOverriding {
  func derivedOverride() -> Result<DerivedOverride, DerivedProblem> {
    if let keyPathProblem { return .failure(DerivedProblem(message: keyPathProblem)) }
    // The problems a full mapping reports for this rule (a validator of another type than the
    // property's, a collection policy its shape cannot honour): the override reads into an
    // optional slot, whose type would accept what the property's does not.
    if let definitionProblem { return .failure(DerivedProblem(message: definitionProblem)) }
    guard let name = KeyConvention.propertyName(of: propertyKeyPath, in: Object.self),
      !name.contains(".")
    else {
      return .failure(
        .notAMember(rule: "Relationship \"\(source)\"", propertyKeyPath, of: Object.self))
    }
    guard let derivedReader else {
      return .failure(
        DerivedProblem(
          message: "Relationship \"\(source)\" cannot override a member of a mapping derived "
            + "from \(Object.self)'s Codable conformance; write a full mapping"))
    }
    let path = source.isSpecial ? [] : source.keys.map { _PathComponent.key($0) }
    return .success(
      DerivedOverride(
        name: name, rule: "Relationship \"\(source)\"", path: path,
        evaluate: derivedReader(self)))
  }

  /// The settings of this rule that reading a value depends on, given to `other`.
  func givingSettings<Other>(to other: Relationship<Other>) -> Relationship<Other> {
    var copy = other
    copy.presence = presence
    copy.childFailure = childFailure
    copy.validators = validators
    copy.absence = absence
    return copy
  }

  /// A to-one override's reader: the same relationship into a slot.
  func slotEvaluator<Child, M: MappingProtocol<Child>>(
    _: Child.Type, lazy mapping: @escaping @Sendable () -> M
  ) -> SlotEvaluator {
    let slotted = givingSettings(
      to: Relationship<DerivedSlot<Child>>(source, \DerivedSlot<Child>.value, lazy: mapping))
    return makeSlotEvaluator(slotted.decodeStep(mayRepeat: true), groups: groupNames)
  }

  /// A required to-one override's reader: the same relationship into a slot, with a required
  /// child's checks (`null` and a child its dynamic mapping declines are errors with the
  /// messages of a full mapping).
  func requiredSlotEvaluator<Child, M: MappingProtocol<Child>>(
    _: Child.Type, lazy mapping: @escaping @Sendable () -> M
  ) -> SlotEvaluator {
    let property = \DerivedSlot<Child>.value
    var slotted = givingSettings(
      to: Relationship<DerivedSlot<Child>>(
        source: source, property: property, acceptsAbsence: false,
        encode: RelationshipEncoder {
          OptionalToOneEncodeStep(property, mapping: mapping, components: $0, ownsNulls: $1)
        },
        step: {
          RelationshipStep(
            $0, source: $1, kind: RequiredSlotStep($0, property: property, mapping: mapping))
        }))
    slotted.flatChild = FlatChild(mapping, property: property)
    slotted.shape = .toOne
    return makeSlotEvaluator(slotted.decodeStep(mayRepeat: true), groups: groupNames)
  }

  /// A dictionary or nested-collection override's reader: the same shape into a slot.
  func shapedSlotEvaluator<Value, M: MappingProtocol>(
    _ shape: Shape<Value, M.Object>, kind: RelationshipShape,
    lazy mapping: @escaping @Sendable () -> M
  ) -> SlotEvaluator {
    let slotted = givingSettings(
      to: Relationship<DerivedSlot<Value>>(
        shaped: source, property: \DerivedSlot<Value>.value, acceptsAbsence: acceptsAbsence,
        kind: kind, shape: .lifted(shape), mapping: mapping))
    return makeSlotEvaluator(slotted.decodeStep(mayRepeat: true), groups: groupNames)
  }

  /// A to-many override's reader: the same relationship into a slot.
  func slotEvaluator<Collection: MappableCollection, M: MappingProtocol<Collection.Element>>(
    collection _: Collection.Type, lazy mapping: @escaping @Sendable () -> M
  ) -> SlotEvaluator {
    let slotted = givingSettings(
      to: Relationship<DerivedSlot<Collection>>(
        source, \DerivedSlot<Collection>.value, lazy: mapping))
    return makeSlotEvaluator(slotted.decodeStep(mayRepeat: true), groups: groupNames)
  }
}

/// A required to-one override read into its slot: as ``ToOneStep``, `null` and a declined
/// child are errors.
final class RequiredSlotStep<Child, M: MappingProtocol<Child>>: RelationshipKind {
  let rule: Relationship<DerivedSlot<Child>>
  let writer: PropertyWriter<DerivedSlot<Child>, Child?>
  let validators: [Validator<Child?>]
  let mapping: @Sendable () -> M

  init(
    _ rule: Relationship<DerivedSlot<Child>>,
    property: WritableKeyPath<DerivedSlot<Child>, Child?>, mapping: @escaping @Sendable () -> M
  ) {
    self.rule = rule
    writer = PropertyWriter(property)
    self.mapping = mapping
    validators = rule.validators.compactMap { $0.typed(as: Child?.self) }
  }

  func decodeValue(
    into object: inout DerivedSlot<Child>, at index: Int, run: inout MappingRun
  ) {
    guard run.tape[index].kind != .null else { return recordNullObject(run: &run) }
    resolvedChildPlan(mapping).decodeChild(at: index, run: &run, declineIsAcceptable: false) {
      child in
      writer.write(child, into: &object)
    }
  }
}

extension Shape {
  /// `wrapped` into an optional slot: `null` is read as `wrapped` reads it (for a required
  /// dictionary or nested collection, as ``NullIntoNonOptional`` says, as in a full mapping),
  /// not made `nil`.
  static func lifted<Wrapped>(_ wrapped: Shape<Wrapped, Child>) -> Self where Value == Wrapped? {
    let null = wrapped.null.map { null in
      NullValue(expected: null.expected, zero: { .some(null.zero()) })
    }
    return Shape(
      decode: { index, plan, run in wrapped.decode(index, plan, &run).map { .some($0) } },
      encode: { value, plan, writer, run, nulls in
        guard let value else { return writer.nullIfIncluded(nulls) }
        return wrapped.encode(value, plan, &writer, &run, nulls)
      },
      merge: nil, null: null)
  }
}
