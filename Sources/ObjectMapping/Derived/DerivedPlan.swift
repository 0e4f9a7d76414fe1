import Foundation

/// Builds the plan of a mapping derived from a model's `Codable` conformance
/// (``Mapping/init(_:keys:overrides:)``): a one-case dynamic plan, like ``CodableMapping``'s,
/// whose case runs the model's `init(from:)` and `encode(to:)` with the mapping's convention
/// and overrides.
enum DerivedPlan {
  static func make<Object: Codable & SendableMetatype>(
    _ mapping: Mapping<Object>, derivation: Derivation<Object>
  ) -> _MappingPlan<Object> {
    let rules = mapping.expandedRules
    let (overrides, problems) = compileOverrides(rules)
    // Keyless overrides of a mapping without a convention of its own take the run's (the
    // call's or a parent mapping's): compiled again per convention, and kept.
    let rekeys =
      derivation.own == nil
      && rules.contains { ($0 as? any KeyDerivingRule)?.defaultKeyNames != nil }
    let formats = mapping.formats
    // Dates: the mapping's own formats when it sets them, else the run's (the call's, or the
    // library's default: ISO 8601, then epoch seconds).
    let ownFormats = mapping.dateFormatsAreExplicit ? formats : nil
    let overriddenNames = overrides.map(\.name)
    // The model's own members, written by its `encode(to:)` into the object the overrides
    // write (after them, skipping the coding keys they answer for), with the run's keys.
    var members = EncodingRule<Object>(
      path: [], property: \Object.self, label: "\(Object.self)'s encode(to:)", nulls: nil
    ) { value, writer, run, _ in
      let keys = derivation.keys(for: run.hasKeyConvention ? run.keyConvention : nil)
      // Dates in the format the run writes (the call's, the mapping's, else ISO 8601).
      let format = writer.dateFormat
      let settings =
        format == .iso8601
        ? keys.encoding : derivedEncoding(names: keys.names, dateFormat: format)
      do {
        // The overridden members are not encoded at all: the overrides write them, and a
        // member the model cannot encode (or whose encoding fails) is no error of the model's.
        try writer.node(try settings.node(of: value, skipping: overriddenNames))
      } catch {
        run.record(encodingMappingError(error), at: [])
        return false
      }
      return true
    }
    members.placement = .selfMembers
    var encodings: [RuleEncoding<Object>] = rules.compactMap { rule in
      guard var encoding = (rule as? any EncodableRule<Object>)?.encoding else { return nil }
      if let names = (rule as? any GroupedRule)?.groupNames, !names.isEmpty {
        encoding = encoding.grouped(names)
      }
      // A call's convention makes the keys of keyless overrides, as in a full mapping.
      if rekeys, let keys = (rule as? any KeyDerivingRule)?.defaultKeyNames {
        encoding = encoding.withDefaultKeys(keys)
      }
      return encoding
    }
    encodings.append(.rule(members))
    var inverse = InverseMapping(
      encodings: encodings, nulls: mapping.nullPolicy,
      dateFormat: mapping.dateFormatsAreExplicit ? formats.first : nil,
      groups: mapping.activeGroups, groupMatching: mapping.groupMatchingMode,
      relationshipNulls: mapping.relationshipNullPolicy, form: mapping.formOptions)
    // The convention reaches the child mappings of relationship overrides that declare none.
    if let own = derivation.own { inverse.keyConvention = own.names.convention }
    if let customize = mapping.inverseCustomization { inverse = customize(inverse) }
    let name = "\(Object.self)"
    let isClass = Object.self is AnyObject.Type
    let overridesCopy = overrides
    let ownConvention = derivation.own?.names.convention
    // The mapping's own settings (date formats, coercion, …) reach its overrides and their
    // child mappings, as a full mapping's reach its rules.
    let settings = mapping.decodeSettings
    let hasSettings = settings.setsDecodeSettings
    let decode: @Sendable (Int, inout MappingRun) -> Object? = { index, run in
      // The stack guards of a full mapping's objects (a recursion through relationship
      // overrides passes here once per level) and of a `CodableMapping` (the model's
      // `init(from:)` reads its nested members through the tape decoder, recursing as deep as
      // they nest): a stack too small is the `stackExhausted` error, not an overflow.
      guard StackSpace.here() >= run.stackFloor || run.hasStackLeft(),
        run.hasStackLeft(forNestingAt: index, perLevel: NestingCost.codable)
      else { return nil }
      let keys = derivation.keys(for: run.hasKeyConvention ? run.keyConvention : nil)
      let formats = ownFormats ?? run.context.dateFormats
      let options =
        formats == DateFormat.defaultFormats
        ? keys.decoding : derivedOptions(names: keys.names, formats: formats)
      var overridesCopy = overridesCopy
      if rekeys, run.hasKeyConvention, let convention = run.keyConvention,
        convention.name != .identity
      {
        overridesCopy = derivation.overrides(for: convention) {
          compileOverrides(Mapping<Object>.applying(convention, to: rules)).overrides
        }
      }
      guard hasSettings else {
        return decodeObject(
          Object.self, at: index, overrides: overridesCopy, convention: ownConvention,
          options: options, run: &run)
      }
      let inherited = run.context
      run.context = inherited.applying(settings)
      defer { run.context = inherited }
      return decodeObject(
        Object.self, at: index, overrides: overridesCopy, convention: ownConvention,
        options: options, run: &run)
    }
    let single = DynamicCase<Object>(
      name: name, decode: decode,
      // The model's `init(from:)` makes a whole value: it replaces an existing struct. A class
      // instance cannot be updated in place (its other references would keep the old values,
      // and `map(_:onto:)` of a class would silently change nothing): an error.
      update: isClass
        ? .refusing(
          "a mapping derived from \(name)'s Codable conformance makes new "
            + "instances with its init(from:) and cannot update an existing \(name) in "
            + "place; use the instance map(_:) returns, or write a full mapping")
        : .replacing,
      makeEncoder: { _ in CaseEncoder { _, _, _, _ in false } })
    let dispatch = DynamicDispatch(
      cases: [single], matchers: [nil], chooser: { _ in single }, fallback: nil,
      declineIsError: true)
    return _MappingPlan(dynamic: dispatch, inverse: inverse, problems: problems)
  }

  /// The overrides `rules` compile to, in order, and the problems of those that cannot be one.
  static func compileOverrides<Object>(_ rules: [any MappingRule<Object>]) -> (
    overrides: [DerivedOverride], problems: [String]
  ) {
    var problems: [String] = []
    var overrides: [DerivedOverride] = []
    for rule in rules {
      guard let overriding = rule as? any DerivedOverriding else {
        let shown = (rule as? any DecodingRule<Object>).map { "\(type(of: $0)) \"\($0.source)\"" }
        problems.append(
          "\(shown ?? "\(type(of: rule))") cannot override a member of a mapping derived from "
            + "\(Object.self)'s Codable conformance; overrides are Attribute and Relationship "
            + "rules (or write a full Mapping(\(Object.self).init))")
        continue
      }
      switch overriding.derivedOverride() {
      case .success(let override):
        if overrides.contains(where: { $0.name == override.name }) {
          problems.append("two rules override \(override.name); keep one")
        }
        overrides.append(override)
      case .failure(let problem):
        problems.append(problem.message)
      }
    }
    return (overrides, problems)
  }

  /// Maps the object at `index`: reads every override, then runs the model's `init(from:)`.
  static func decodeObject<Object: Decodable>(
    _ type: Object.Type, at index: Int, overrides: [DerivedOverride],
    convention: KeyConvention?, options: DecodingOptions, run: inout MappingRun
  ) -> Object? {
    guard run.tape[index].kind == .object else {
      run.fail(.typeMismatch(expected: "an object", found: run.foundDescription(at: index)))
      return nil
    }
    let before = run.errors.count
    var outcomes: [OverrideOutcome] = []
    outcomes.reserveCapacity(overrides.count)
    if let convention, !overrides.isEmpty {
      // The mapping's convention reaches the child mappings of relationship overrides.
      let outer = run.keyConvention
      run.keyConvention = convention
      for override in overrides { outcomes.append(override.evaluate(index, &run)) }
      run.keyConvention = outer
    } else {
      for override in overrides { outcomes.append(override.evaluate(index, &run)) }
    }
    let payload = PayloadValue(run: run, index: index, context: run.context)
    payload.checkLifetime()
    var found: [MappingError] = []
    let object = CodableReading.run(tape: payload.tape, options: options) { reading in
      var decoder = DerivedDecoder(
        TapeDecoder(reading, index: index, parent: nil, key: nil), overrides: overrides,
        outcomes: outcomes)
      var object: Object?
      do {
        object = try Object(from: decoder)
      } catch {
        decoder.collected.append(error)
      }
      if !decoder.collected.isEmpty, decoder.collected.allSatisfy(isMemberError) {
        // Members' errors only: read the object again, each error thrown where `JSONDecoder`
        // throws it. A model that catches them (`try? c.decode(Int.self, …) ?? -1`, "a number
        // or a string") makes its object, as with `JSONDecoder`; one that lets them through
        // fails with every error of the first reading, not only the first.
        let strict = DerivedDecoder(
          TapeDecoder(reading, index: index, parent: nil, key: nil), overrides: overrides,
          outcomes: outcomes, throwsMemberErrors: true)
        if let caught = try? Object(from: strict) {
          object = caught
          decoder = strict
        }
      }
      for error in decoder.collected {
        switch error {
        case is AlreadyRecorded:
          continue
        case let absent as OverrideAbsent:
          found.append(
            MappingError(
              path: _jsonPointer(overrides[absent.position].path), .missingRequiredKey))
        case let mismatch as OverrideTypeMismatch:
          let override = overrides[mismatch.position]
          found.append(
            MappingError(
              .invalidDefinition(
                message: "\(override.rule) gives a \(mismatch.given) for \(override.name), "
                  + "where \(Object.self)'s init(from:) reads a \(mismatch.asked)")))
        default:
          found.append(reading.mappingError(error, root: index))
        }
      }
      for (position, override) in overrides.enumerated()
      where object != nil && !decoder.asked[position] {
        if case .notApplied = outcomes[position] { continue }
        // A model may read a member for some objects only (a circle's radius, not a square's).
        // Skipping it loses nothing when this object has no value there; a value the model
        // did not use is an error, as it is when the model never reads the member at all.
        guard holdsValue(at: override.path, in: index, of: payload.tape) else { continue }
        found.append(
          MappingError(
            path: _jsonPointer(override.path),
            .invalidDefinition(
              message: "\(override.rule) overrides \(override.name), which "
                + "\(Object.self)'s init(from:) did not read for this object; name a property "
                + "its Codable conformance decodes")))
      }
      return object
    }
    for error in found { run.record(error) }
    return run.errors.count == before ? object : nil
  }
}

/// Whether the object at `index` holds a value other than `null` at `path`; `true` for an
/// empty path (an override reading the object itself, or its key).
func holdsValue(at path: [_PathComponent], in index: Int, of tape: _UnsafeTapeView) -> Bool {
  var current = index
  for component in path {
    switch component {
    case .key(let key):
      guard let member = tape.member(of: current, named: key) else { return false }
      current = member
    case .index:
      return true
    }
  }
  return tape[current].kind != .null
}

/// The decoding options of a derived mapping: its convention's keys, dates read with
/// `formats`.
func derivedOptions(names: PayloadKeyNames, formats: [DateFormat]) -> DecodingOptions {
  var options = DecodingOptions()
  // The identity convention looks coding keys up as they are, as FastJSONDecoder does.
  if names.convention.name != .identity { options.payloadKeys = names }
  options.dateDecodingStrategy = .custom { decoder in try derivedDate(decoder, formats) }
  return options
}

/// The encoding settings of a derived mapping: its convention's keys, dates in `dateFormat`.
func derivedEncoding(names: PayloadKeyNames, dateFormat: DateFormat)
  -> NodeEncodingSettings
{
  let encoder = FastJSONEncoder()
  encoder.keyEncodingStrategy = .custom { path in
    guard let key = path.last else { return AnyCodingKey(stringValue: "") }
    // An `[Int: V]`'s key (the standard library writes it as its number, with that integer
    // value) is data, as a `[String: V]`'s keys are: written as it is, as the decoder reads it.
    if let number = key.intValue, key.stringValue == String(number) { return key }
    return AnyCodingKey(stringValue: names.payloadKey(for: key.stringValue))
  }
  encoder.dateEncodingStrategy = .custom { date, encoder in
    var container = encoder.singleValueContainer()
    try container.encode(try dateFormat.format(date))
  }
  return encoder.settings
}

/// A date read by a derived mapping's model: with the mapping's date formats, as attributes
/// read them.
private func derivedDate(_ decoder: any Decoder, _ formats: [DateFormat]) throws -> Date {
  guard let decoder = decoder as? TapeDecoder else {
    return try Date(from: decoder)
  }
  let payload = PayloadValue(
    tape: decoder.reading.tape, index: decoder.index, context: .default,
    token: decoder.reading.token)
  do {
    return try Date.read(payload, formats: formats)
  } catch {
    throw DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: decoder.codingPath, debugDescription: "\(error)", underlyingError: error))
  }
}

/// Whether `error`, collected by a derived decoder, is a member's own (a payload value that did
/// not decode), not an override's (recorded in the run already, absent or of the wrong type).
private func isMemberError(_ error: any Error) -> Bool {
  !(error is AlreadyRecorded || error is OverrideAbsent || error is OverrideTypeMismatch)
}
