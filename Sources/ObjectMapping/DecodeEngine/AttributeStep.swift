import Foundation

/// An ``Attribute`` compiled for decoding.
final class AttributeStep<Object, Value>: DecodeStepKind {
  let rule: Attribute<Object, Value>
  let source: CompiledSource
  /// For a rule with its own date formats: its contexts per coercion mode; `nil`: values read
  /// with the run's context (``MappingRun/context``).
  let ownFormats: OwnFormats?
  /// What `null` becomes (`Value.nullValue`), computed once; `nil` when `null` is not a value.
  /// Boxed in a class, so testing it needs no `Optional<Value>` metadata per object.
  let nullReplacement: Boxed<Value>?
  /// ``nullReplacement`` is a value of a type that is not an `Optional` (a ``Node``'s
  /// ``Node/null``): under ``NullIntoNonOptional/keepCurrent`` `null` keeps the property's
  /// value instead, as for any other non-optional property.
  let nullReplacesNonOptional: Bool
  /// An absent value is an error (required, or inferred and not optional, with no default).
  let absenceIsError: Bool
  /// Whether values go through validators (the rule's or the model's) before being set, when
  /// the run's context validates.
  let hasValidators: Bool
  /// Writes the property (in place for a stored property of a struct).
  let writer: PropertyWriter<Object, Value>
  /// The property is a collection and the path has more than one key: a path that crosses an
  /// array fans out (``CompiledSource/fanOut(in:from:)``).
  let fansOut: Bool
  /// `null` under ``NullIntoNonOptional/zero``: the type's zero, computed once.
  let zeroReplacement: Boxed<Value>?
  /// `Value` is `Equatable`: onto an existing instance a mapped value equal to the property's
  /// current one is not written.
  let comparesUnchanged: Bool
  /// `Value` (unwrapped) is a number, `Bool`, `Decimal`, `Date`, `URL` or `UUID`: under
  /// ``EmptyStringPolicy/asNull`` an empty string that fails to convert reads as `null`.
  let emptyStringMayBeNull: Bool
  /// `null` is treated as absent (``_AbsenceTreatment/nullIsAbsent``).
  let nullIsAbsent: Bool
  /// Onto an existing instance, absence sets the default or fails a required value
  /// (``_AbsenceTreatment/appliesOntoExisting``).
  let absenceAppliesOntoExisting: Bool
  /// The rule's ``Attribute/nestingCost``: nonzero for a value whose reader recurses per level.
  let nestingCost: UInt

  init(_ rule: Attribute<Object, Value>, mayRepeat: Bool) {
    self.rule = rule
    source = CompiledSource(rule.source, mayRepeat: mayRepeat)
    ownFormats = rule.attributeDateFormats.map(OwnFormats.init)
    let nullValue = rule.nullValue()
    nullReplacement = nullValue.map(Boxed.init)
    nullReplacesNonOptional =
      nullValue != nil && !(Value.self is any OptionalTraitsProvider.Type)
    absenceIsError =
      rule.defaultValue == nil
      && (rule.presence == .required || (rule.presence == .inferred && nullValue == nil))
    hasValidators = !rule.validators.isEmpty || Object.self is any KeyValueValidating.Type
    writer = PropertyWriter(rule.property)
    // A key path across an array fans out into a collection property (RestKit's
    // `friends.name` over `[{"name": "A"}, {"name": "B"}]` giving `["A", "B"]`).
    fansOut = !source.rest.isEmpty && Value.self is any MappableCollection.Type
    zeroReplacement = rule.zeroValue?().map(Boxed.init)
    comparesUnchanged = Value.self is any Equatable.Type
    emptyStringMayBeNull = isScalarForEmptyStrings(Value.self)
    nullIsAbsent = rule.absence.nullIsAbsent
    absenceAppliesOntoExisting = rule.absence.appliesOntoExisting
    nestingCost = rule.nestingCost
  }

  /// Whether the stack holds the value at `index` (``MappingRun/hasStackLeft(forNestingAt:perLevel:)``);
  /// out of line, off the path of the values that do not nest.
  @inline(never)
  private func stackHolds(_ index: Int, run: inout MappingRun) -> Bool {
    run.hasStackLeft(forNestingAt: index, perLevel: nestingCost)
  }

  /// `value` after validation against `object`, or `nil` (with the outcome recorded) when it
  /// was rejected or failed. Only called when validating; kept out of line so that the decode
  /// path of attributes without validation touches no validation or optional metadata.
  @inline(never)
  private func validated(_ value: Value, object: Object, run: inout MappingRun) -> Value? {
    let outcome = runValidators(
      value, validators: rule.validators, object: object, keyPath: rule.property)
    if case .accept(let accepted) = outcome { return accepted }
    run.record(outcome, at: source.pathComponents)
    return nil
  }

  /// Sets `value` (in place for a new model, recorded onto an existing instance).
  @inline(__always)
  private func set(
    _ value: Value, in object: inout Object, _ patch: inout Patch<Object>,
    run: borrowing MappingRun
  ) {
    if run.ontoExisting {
      // An unchanged value is not written: no setter, observer or validation runs (RestKit).
      if comparesUnchanged, isUnchanged(value, in: object) { return }
      patch.recordSet(value, with: writer)
    } else {
      writer.write(value, into: &object)
    }
  }

  /// Sets `value`, after validation when the run validates this rule.
  @inline(__always)
  private func set(
    _ value: Value, in object: inout Object, _ patch: inout Patch<Object>, validates: Bool,
    run: inout MappingRun
  ) {
    guard validates else { return set(value, in: &object, &patch, run: run) }
    setValidated(value, in: &object, &patch, run: &run)
  }

  /// Validates `value`, then sets it unless it was rejected or failed.
  @inline(never)
  private func setValidated(
    _ value: Value, in object: inout Object, _ patch: inout Patch<Object>, run: inout MappingRun
  ) {
    if run.ontoExisting, comparesUnchanged, isUnchanged(value, in: object) { return }
    if let accepted = validated(value, object: object, run: &run) {
      set(accepted, in: &object, &patch, run: run)
    }
  }

  /// The context values are read with: the run's, or the rule's own date formats with the
  /// run's coercion.
  @inline(__always)
  private func valueContext(_ run: borrowing MappingRun) -> ValueContext {
    guard let ownFormats else { return run.context }
    return run.context.coercion == .strict ? ownFormats.strict : ownFormats.lenient
  }

  func decode(
    _ object: inout Object, _ patch: inout Patch<Object>, objectIndex: Int,
    hint: inout _MemberHint,
    run: inout MappingRun
  ) {
    guard let index = source.resolve(in: run.tape, from: objectIndex, hint: &hint) else {
      if fansOut,
        decodeFannedOut(from: source, &object, &patch, objectIndex: objectIndex, run: &run)
      {
        return
      }
      return decodeAbsent(&object, &patch, run: &run)
    }
    let validates = hasValidators && run.context.validates
    if run.tape[index].kind == .null {
      if nullIsAbsent { return decodeAbsent(&object, &patch, run: &run) }
      return readNull(&object, &patch, validates: validates, run: &run)
    }
    if _slowPath(nestingCost != 0), !stackHolds(index, run: &run) { return }
    let payload = PayloadValue(run: run, index: index, context: valueContext(run))
    do {
      let value = try rule.read(payload)
      set(value, in: &object, &patch, validates: validates, run: &run)
    } catch {
      readFailed(error, payload: payload, in: &object, &patch, validates: validates, run: &run)
    }
  }

  /// The value is absent (or `null`, treated as absent): a new object gets the default, or a
  /// required value is an error. Onto an existing instance the property is left as it is,
  /// unless the run assigns defaults for missing keys or the rule treats absence onto existing
  /// instances as for new objects (``_AbsenceTreatment/appliesOntoExisting``). Out of line, so
  /// that the frame and the code of `decode`'s common path (a present value) stay small.
  @inline(never)
  private func decodeAbsent(
    _ object: inout Object, _ patch: inout Patch<Object>, run: inout MappingRun
  ) {
    guard !run.ontoExisting || absenceAppliesOntoExisting else {
      if run.context.missingKeys.contains(.assignDefaults) {
        assignMissing(&object, &patch, run: &run)
      }
      return
    }
    if let defaultValue = rule.defaultValue {
      set(defaultValue(), in: &object, &patch, run: run)
    } else if absenceIsError {
      run.fail(.missingRequiredKey, at: source.pathComponents)
    }
  }

  /// Whether `value` equals the property's current value in `object`.
  @inline(never)
  private func isUnchanged(_ value: Value, in object: Object) -> Bool {
    areEqual(value, writer.value(in: object))
  }

  /// Onto an existing instance under ``MissingKeyPolicy/assignDefaults``: an absent key sets
  /// the rule's default, or `nil` for an optional property.
  @inline(never)
  private func assignMissing(
    _ object: inout Object, _ patch: inout Patch<Object>, run: inout MappingRun
  ) {
    if let defaultValue = rule.defaultValue {
      set(defaultValue(), in: &object, &patch, run: run)
    } else if let nullReplacement {
      set(nullReplacement.value, in: &object, &patch, run: run)
    }
  }

  /// `null` for a property that cannot hold `nil` and has no default: an error, or what the
  /// run's ``NullIntoNonOptional`` asks for.
  @inline(never)
  private func nullIntoNonOptional(
    _ object: inout Object, _ patch: inout Patch<Object>, validates: Bool,
    run: inout MappingRun
  ) {
    switch run.context.nullIntoNonOptional {
    case .keepCurrent:
      run.note(.nullIgnored(kept: true), at: source.pathComponents)
    case .zero where zeroReplacement != nil:
      if let zeroReplacement {
        set(zeroReplacement.value, in: &object, &patch, validates: validates, run: &run)
        run.note(.nullIgnored(kept: false), at: source.pathComponents)
      }
    case .fail, .zero:
      run.fail(.typeMismatch(expected: rule.expected, found: "null"), at: source.pathComponents)
    }
  }

  /// A read that threw: a substituted fallback (``Attribute/unknownValues(as:)``) is set with a
  /// diagnostic, anything else recorded as an error. Out of line: the cast's generic metadata
  /// would otherwise be looked up on every call of `decode`.
  @inline(never)
  private func readFailed(
    _ error: any Error, payload: PayloadValue, in object: inout Object,
    _ patch: inout Patch<Object>, validates: Bool, run: inout MappingRun
  ) {
    if let substituted = error as? Substituted<Value> {
      set(substituted.value, in: &object, &patch, validates: validates, run: &run)
      run.note(
        .unknownValue(raw: substituted.raw, fallback: substituted.fallback),
        at: source.pathComponents)
      return
    }
    if emptyStringReadsAsNull(payload, run: run) {
      // `""` for a number, date or URL, read as `null` (MappingOptions.emptyStrings). Where
      // `null` would be an error and failures are skipped, it is skipped as what it is: a
      // value that does not convert.
      return readNull(&object, &patch, validates: validates, run: &run)
    }
    let failure = rule.transformFailure(error, payload: payload)
    guard run.context.attributeFailures == .skipWithDiagnostic else {
      return run.record(failure, at: source.pathComponents)
    }
    skip(failure, &object, &patch, run: &run)
  }

  /// Whether `payload`, which did not convert, is `""` read as `null`
  /// (``MappingOptions/emptyStrings``). Where `null` would be an error and failures are
  /// skipped, it is not: it is skipped as what it is, a value that does not convert.
  private func emptyStringReadsAsNull(_ payload: PayloadValue, run: borrowing MappingRun) -> Bool {
    isBlankReadAsNull(payload, run: run)
      && (nullReplacement != nil || rule.defaultValue != nil
        || run.context.nullIntoNonOptional != .fail
        || run.context.attributeFailures != .skipWithDiagnostic)
  }

  /// Whether `payload` is a blank string that ``MappingOptions/emptyStrings`` reads as `null`
  /// for this property's type, whatever is then done with that `null` (a non-optional property
  /// without a default skips it under ``AttributeFailurePolicy/skipWithDiagnostic``): such a
  /// value is found, as `null` is (RestKit's ).
  private func isBlankReadAsNull(_ payload: PayloadValue, run: borrowing MappingRun) -> Bool {
    emptyStringMayBeNull && run.context.emptyStrings == .asNull && payload.isBlankString
  }

  /// `null` (or `""` read as `null`): the property's `nil`, its default, or what the run's
  /// ``NullIntoNonOptional`` asks for.
  private func readNull(
    _ object: inout Object, _ patch: inout Patch<Object>, validates: Bool,
    run: inout MappingRun
  ) {
    if rule.ignoresNull {
      return run.note(.nullIgnored(kept: true), at: source.pathComponents)
    }
    if let nullReplacement,
      !nullReplacesNonOptional || run.context.nullIntoNonOptional != .keepCurrent
    {
      set(nullReplacement.value, in: &object, &patch, validates: validates, run: &run)
    } else if let defaultValue = rule.defaultValue {
      set(defaultValue(), in: &object, &patch, run: run)
    } else if nullReplacement != nil {
      // A `Node` under `.keepCurrent`: kept, as any non-optional property without a default.
      run.note(.nullIgnored(kept: true), at: source.pathComponents)
    } else {
      nullIntoNonOptional(&object, &patch, validates: validates, run: &run)
    }
  }

  /// A value that did not convert, under ``AttributeFailurePolicy/skipWithDiagnostic``: onto
  /// an existing instance the property keeps its value, unless the run assigns defaults for
  /// missing keys (``MissingKeyPolicy/assignDefaults``): then it falls back to the rule's
  /// default, or `nil` for an optional property, as RestKit did; a new object gets
  /// the rule's default, or keeps what `make()` gave it unless the value is required (then it
  /// stays an error). Each skip is a ``MappingDiagnostic/Kind/valueSkipped(_:)`` diagnostic
  /// per error.
  @inline(never)
  private func skip(
    _ failure: any Error, _ object: inout Object, _ patch: inout Patch<Object>,
    run: inout MappingRun
  ) {
    if run.ontoExisting, run.context.missingKeys.contains(.assignDefaults) {
      assignMissing(&object, &patch, run: &run)
    } else if !run.ontoExisting {
      if let defaultValue = rule.defaultValue {
        set(defaultValue(), in: &object, &patch, run: run)
      } else if absenceIsError {
        return run.record(failure, at: source.pathComponents)
      }
    }
    // The failure's errors (one per element for a collection), turned into diagnostics.
    let before = run.errors.count
    run.record(failure, at: source.pathComponents)
    let skipped = run.errors.kept(since: before).map {
      MappingDiagnostic(path: $0.path, .valueSkipped($0.kind))
    }
    run.errors.remove(since: before)
    for diagnostic in skipped { run.diagnostics.append(diagnostic) }
  }

  func sourceIsPresent(objectIndex: Int, run: inout MappingRun) -> Bool {
    var hint = _MemberHint(object: max(objectIndex, 0))
    if let index = source.resolve(in: run.tape, from: objectIndex, hint: &hint) {
      return !nullIsAbsent || run.tape[index].kind != .null
    }
    return fansOut && source.fanOutSlots(in: run.tape, from: objectIndex) != nil
  }

  func sourceIsFound(objectIndex: Int, run: inout MappingRun) -> Bool {
    guard run.context.attributeFailures == .skipWithDiagnostic else {
      return sourceIsPresent(objectIndex: objectIndex, run: &run)
    }
    var hint = _MemberHint(object: max(objectIndex, 0))
    guard let index = source.resolve(in: run.tape, from: objectIndex, hint: &hint) else {
      return fansOut && source.fanOutSlots(in: run.tape, from: objectIndex) != nil
    }
    guard run.tape[index].kind != .null else { return !nullIsAbsent }
    // A value too deeply nested for the stack left counts as found: mapping it fails.
    if _slowPath(nestingCost != 0), !run.hasStackRoom(forNestingAt: index, perLevel: nestingCost) {
      return true
    }
    // A value that does not convert is skipped, and RestKit does not count it as found
    // `{"age": {"wrong": "data"}}` alone is an unmappable representation.
    let payload = PayloadValue(run: run, index: index, context: valueContext(run))
    do {
      _ = try rule.read(payload)
      return true
    } catch is Substituted<Value> {
      return true
    } catch {
      return isBlankReadAsNull(payload, run: run)
    }
  }

  var absenceAppliesOntoExistingInstances: Bool { absenceAppliesOntoExisting }

  /// The value `decode` would set, read and converted exactly as it reads it (the rule's
  /// source, key convention, transform, coercion and date formats), without a model: a
  /// payload element's identity. Absent, `null` (and `""` read as `null`) or a value that does
  /// not convert is no identity; a substituted fallback (``Attribute/unknownValues(as:)``) is
  /// the value. When the run validates, the rule's validators run on it (they see the value
  /// alone): a replaced value is the identity, a rejected or failing one is none. A model that
  /// validates its values (``KeyValueValidating``) is read into a scratch model instead, since
  /// its hook is a method of the model.
  func payloadIdentity(objectIndex: Int, key: IdentityKey, run: inout MappingRun)
    -> PayloadIdentityRead
  {
    let validates = hasValidators && run.context.validates
    if validates, Object.self is any KeyValueValidating.Type { return .unsupported }
    var hint = _MemberHint(object: max(objectIndex, 0))
    guard let index = source.resolve(in: run.tape, from: objectIndex, hint: &hint) else {
      // A path across an array gathers its values into a collection: read into a model.
      return fansOut ? .unsupported : .value(nil)
    }
    guard run.tape[index].kind != .null else { return .value(nil) }
    if _slowPath(nestingCost != 0), !run.hasStackRoom(forNestingAt: index, perLevel: nestingCost) {
      return .value(nil)
    }
    let payload = PayloadValue(run: run, index: index, context: valueContext(run))
    var value: Value
    do {
      value = try rule.read(payload)
    } catch let substituted as Substituted<Value> {
      value = substituted.value
    } catch {
      return .value(nil)
    }
    if validates {
      for validator in rule.validators {
        guard (try? validator.body(&value)) == true else { return .value(nil) }
      }
    }
    return .value(key(value))
  }
}

/// Thrown by an attribute's read that substituted its fallback for an unknown enum value
/// (``Attribute/unknownValues(as:)``): the step sets `value` and notes the substitution.
struct Substituted<Value>: Error, @unchecked Sendable {
  // @unchecked: thrown and caught within one mapping run, on one thread.
  let value: Value
  let raw: String
  let fallback: String
}

/// A value held by reference: a rule's constant (what `null` becomes), tested for presence
/// without generic optional metadata.
final class Boxed<Value>: @unchecked Sendable {
  // @unchecked: immutable; only rules whose values are read concurrently hold one, and they
  // only read it.
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}

/// The contexts of a rule with its own date formats (``Attribute/dateFormats(_:)``), one per
/// coercion mode, built once with the rule's step.
final class OwnFormats: Sendable {
  let lenient: ValueContext
  let strict: ValueContext

  init(_ dateFormats: [DateFormat]) {
    (lenient, strict) = ValueContext.formatsContexts(dateFormats)
  }
}

extension PayloadValue {
  /// The values at `parts` of this object, in order; every failing part is reported at its
  /// path, and so is every missing (absent or `null`) one without `fallbacks`; with them, a
  /// missing part gives its fallback, or nothing when that is `nil`.
  func compoundValues<Wire: MappableValue>(
    _ parts: [SourcePath], as: Wire.Type, fallbacks: [Wire?]? = nil
  ) throws -> [Wire] {
    var values: [Wire] = []
    values.reserveCapacity(parts.count)
    var failures = NestedConversionFailures(limit: context.errorLimit)
    for (position, part) in parts.enumerated() {
      guard let found = part.resolve(in: tape, from: index), tape[found].kind != .null else {
        if let fallbacks {
          if position < fallbacks.count, let fallback = fallbacks[position] {
            values.append(fallback)
          }
        } else {
          failures.add(part.pathComponents, MappingError(.missingRequiredKey))
        }
        continue
      }
      do {
        values.append(try Wire(payload: sibling(at: found)))
      } catch {
        failures.add(part.pathComponents, error)
      }
    }
    guard failures.isEmpty else { throw failures }
    return values
  }
}

/// Whether `first` and `second` are equal values of an `Equatable` type; `false` for any other.
func areEqual(_ first: Any, _ second: Any) -> Bool {
  guard let first = first as? any Equatable else { return false }
  return first.isEqual(to: second)
}

extension Equatable {
  fileprivate func isEqual(to other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}

/// Whether `type`, or the type it wraps in an `Optional`, is one for which an empty string is
/// no value: an integer or floating-point number, `Decimal`, `Bool`, `Date`, `URL` or `UUID`
/// (``EmptyStringPolicy/asNull``).
func isScalarForEmptyStrings(_ type: Any.Type) -> Bool {
  let unwrapped = (type as? any OptionalTraitsProvider.Type)?.wrappedType ?? type
  return unwrapped is any BinaryInteger.Type || unwrapped is any BinaryFloatingPoint.Type
    || unwrapped == Decimal.self || unwrapped == Bool.self || unwrapped == Date.self
    || unwrapped == URL.self || unwrapped == UUID.self
}
