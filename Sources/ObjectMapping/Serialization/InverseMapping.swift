/// The serializing direction of a mapping: object → payload.
///
/// Derived automatically by ``MappingProtocol/inverted()`` from every two-way rule:
/// attributes write their value back to their source key path (nested paths create the
/// intermediate objects), transforms run in reverse, relationships serialize their children
/// with the child mapping's own inverse. Rules that cannot be reversed — decode-only closures,
/// special sources such as ``SourcePath/root``, rules marked `decodeOnly()` — are left out and
/// listed in ``omitted``.
///
/// ```swift
/// let inverse = articleMapping.inverted()
/// let json = try inverse.serialize(article, as: .json)
/// let form = try inverse.rootKey("article").serialize(article, as: .formURLEncoded)
/// inverse.omitted   // [Attribute "score": it converts with a decode-only closure]
/// ```
///
/// An inverse is an immutable value; every customization returns a new one:
///
/// ```swift
/// let custom = articleMapping.inverted()
///   .removing("body")                       // by output key path…
///   .removing(\.tags)                       // …or by property
///   .renaming("title", to: "headline")
///   .adding("kind") { _ in "article" }      // a computed member
///   .nulls(.include)                        // write nil as null
/// ```
///
/// To make a customized inverse the one a mapping (and every relationship using it) serializes
/// with, use ``Mapping/customizingInverse(_:)``.
public struct InverseMapping<Object>: Sendable {
  var rules: [EncodingRule<Object>]
  var leftOut: [InverseOmission]
  var rootPath: [String] = []
  /// The mapping's own nil policy; `nil`: inherited from the parent mapping or the call.
  var nullPolicy: NullPolicy?
  /// How `Decimal` values are written (``decimals(_:)``, or the mapping's
  /// ``MappingOptions/decimals``); `nil`: the call's, else numbers.
  var decimalOutput: DecimalOutput?
  /// The mapping's own date format for writing; `nil`: inherited from the parent or the call.
  var dateFormat: DateFormat?
  /// The mapping's own groups; `nil`: inherited from the parent or the call.
  var groups: Set<String>?
  /// The mapping's own group matching; `nil`: inherited.
  var groupMatching: GroupMatching?
  /// The mapping's own nil policy for relationships (``MappingOptions/relationshipNulls``),
  /// which its relationships carry and the calls it is the root of follow; `nil`: not set.
  var relationshipNulls: NullPolicy?
  /// The mapping's own form options (``MappingOptions/form``), used when it is the root of a
  /// form body; `nil`: the call's, else the defaults.
  var form: FormEncodingOptions?
  private(set) var plan: InversePlan<Object>
  private var placementProblems: [InverseOmission]
  /// For dynamic mappings: writes an object with the case its runtime type selects.
  var dispatch: (@Sendable (Object, inout PayloadWriter, inout EncodingRun) -> Void)?
  /// For nested-key mappings: the key an object is written under.
  var keyEncoder: (@Sendable (Object) throws -> String)? {
    didSet { self = rebuilt() }
  }
  /// The mapping's own key convention, which reaches the child mappings that declare none
  /// (``KeyConvention``); `nil` when it declares none.
  var keyConvention: KeyConvention? {
    didSet { self = rebuilt() }
  }

  init(
    encodings: [RuleEncoding<Object>], nulls: NullPolicy?, dateFormat: DateFormat?,
    groups: Set<String>? = nil, groupMatching: GroupMatching? = nil,
    relationshipNulls: NullPolicy? = nil, form: FormEncodingOptions? = nil,
    decimals: DecimalOutput? = nil
  ) {
    self.decimalOutput = decimals
    self.groupMatching = groupMatching
    self.relationshipNulls = relationshipNulls
    self.form = form
    var rules: [EncodingRule<Object>] = []
    var leftOut: [InverseOmission] = []
    for encoding in encodings {
      switch encoding {
      case .rule(let rule): rules.append(rule)
      case .rules(let more): rules += more
      case .omitted(let omission): leftOut.append(omission)
      }
    }
    self.rules = rules
    self.leftOut = leftOut
    self.nullPolicy = nulls
    self.dateFormat = dateFormat
    self.groups = groups
    (plan, placementProblems) = InversePlan.build(
      rules: rules, nulls: nulls, dateFormat: dateFormat, groups: groups,
      groupMatching: groupMatching, dispatch: nil,
      keyEncoder: nil)
  }

  /// The inverse of a dynamic mapping: each object is written by the first case that serializes
  /// its exact runtime type, else by the first that accepts it.
  init(dispatchingTo encoders: [CaseEncoder<Object>], typeName: String) {
    self.init(encodings: [], nulls: nil, dateFormat: nil)
    dispatch = { object, writer, run in
      for exact in [true, false] {
        for encoder in encoders where encoder.encode(object, exact, &writer, &run) { return }
      }
      let found = "\(type(of: object as Any))"
      run.errors.append(
        MappingError(
          path: _jsonPointer(run.path),
          .notRepresentable(reason: "no case of DynamicMapping<\(typeName)> serializes a \(found)"))
      )
      writer.null()
    }
    self = rebuilt()
  }

  /// An inverse that cannot serialize anything, and says why.
  init(leftOut omission: InverseOmission) {
    self.init(encodings: [.omitted(omission)], nulls: nil, dateFormat: nil)
    dispatch = { _, writer, run in
      run.errors.append(
        MappingError(path: _jsonPointer(run.path), .notRepresentable(reason: omission.description)))
      writer.null()
    }
    self = rebuilt()
  }

  private func rebuilt() -> Self {
    var copy = self
    (copy.plan, copy.placementProblems) = InversePlan.build(
      rules: rules, nulls: nullPolicy, dateFormat: dateFormat, groups: groups,
      groupMatching: groupMatching,
      dispatch: dispatch, keyEncoder: keyEncoder, keyConvention: keyConvention)
    return copy
  }

  /// The rules the inverse left out, each with the reason: one-way rules, special sources,
  /// rules marked `decodeOnly()`, and rules whose output key another rule already writes.
  public var omitted: [InverseOmission] { leftOut + placementProblems }

  /// The output key paths the inverse writes, in order (`["id", "title", "user.name"]`; a
  /// definition file's `@self` rule, which writes into the object itself or is the whole
  /// output, is `"@self"`).
  public var keyPaths: [String] {
    rules.filter { rule in
      !placementProblems.contains { $0.rule == rule.label }
    }.map { $0.placement == .member ? $0.path.joined(separator: ".") : "@self" }
  }

  // MARK: Customization

  /// The inverse without the rules that write `keyPath` (a dotted output key path).
  public func removing(_ keyPath: String) -> Self {
    let path = SourcePath(keyPath: keyPath).keys
    var copy = self
    copy.rules.removeAll { $0.path == path }
    return copy.rebuilt()
  }

  /// The inverse without the rules that read `property`.
  public func removing(_ property: PartialKeyPath<Object> & Sendable) -> Self {
    var copy = self
    copy.rules.removeAll { $0.property == property }
    return copy.rebuilt()
  }

  /// The inverse writing only the members at `keyPaths` (dotted output key paths): an allow-list
  /// for request bodies that send a small part of the model (a PATCH of a few fields).
  ///
  /// ```swift
  /// let patch = issueMapping.inverted().keeping("title", "state", "labels")
  /// try patch.serialize(issue, as: .json)   // {"title":…,"state":…,"labels":[…]}
  /// ```
  ///
  /// A key path keeps the member it names and, for a nested object, everything under it
  /// (`"user"` keeps `user.name` and `user.email`). Under the mapping's key convention a
  /// property name also names the key the convention writes (`"targetURL"` keeps
  /// `target_url`). A key path that no rule writes is listed in ``omitted`` (a misspelt
  /// allow-list would otherwise drop a field silently).
  public func keeping(_ keyPaths: String...) -> Self {
    keeping(keyPaths)
  }

  /// The variadic `keeping(_:)` with the key paths in an array.
  public func keeping(_ keyPaths: [String]) -> Self {
    let kept = keyPaths.map { SourcePath(keyPath: $0).keys }
    // Under the mapping's convention a property name names the key the convention writes too
    // (`keeping("targetURL")` keeps `target_url`).
    let conventional = kept.map { path in path.map { keyConvention?.key(for: $0) ?? $0 } }
    func isKept(_ rule: EncodingRule<Object>, _ position: Int) -> Bool {
      rule.path.starts(with: kept[position]) || rule.path.starts(with: conventional[position])
    }
    var copy = self
    copy.rules.removeAll { rule in
      !kept.indices.contains { isKept(rule, $0) }
    }
    for (position, text) in keyPaths.enumerated()
    where !rules.contains(where: { isKept($0, position) }) {
      copy.leftOut.append(
        InverseOmission(rule: "keeping(\"\(text)\")", reason: "no rule writes \"\(text)\""))
    }
    return copy.rebuilt()
  }

  /// The inverse writing only the rules that read `properties` (an allow-list by property).
  ///
  /// ```swift
  /// issueMapping.inverted().keeping(\Issue.title, \Issue.state)
  /// ```
  ///
  /// A property no rule reads is listed in ``omitted``.
  public func keeping(_ properties: PartialKeyPath<Object> & Sendable...) -> Self {
    var copy = self
    copy.rules.removeAll { rule in !properties.contains { $0 == rule.property } }
    for property in properties where !rules.contains(where: { $0.property == property }) {
      copy.leftOut.append(
        InverseOmission(rule: "keeping(\(property))", reason: "no rule reads this property"))
    }
    return copy.rebuilt()
  }

  /// The inverse writing what was written at `keyPath` at `newKeyPath` instead (both dotted).
  public func renaming(_ keyPath: String, to newKeyPath: String) -> Self {
    let path = SourcePath(keyPath: keyPath).keys
    let newPath = SourcePath(keyPath: newKeyPath).keys
    var copy = self
    for index in copy.rules.indices where copy.rules[index].path == path {
      copy.rules[index].path = newPath
    }
    return copy.rebuilt()
  }

  /// The inverse with the serializing side of `rule` added after the existing rules. A rule
  /// without a key takes it from the mapping's key convention, as in the mapping
  /// (`adding(Attribute(\.mergeCommitSha))` writes `merge_commit_sha` under `.snakeCase`).
  ///
  /// ```swift
  /// inverse.adding(Attribute("summary", \.summary))
  /// ```
  public func adding(_ rule: some MappingRule<Object>) -> Self {
    var copy = self
    var rule: any MappingRule<Object> = rule
    // A rule without a key takes it from the mapping's convention, as in the mapping itself.
    if let keyConvention, let deriving = rule as? any KeyDerivingRule,
      let keyed = deriving.applyingKeyConvention(keyConvention) as? any MappingRule<Object>
    {
      rule = keyed
    }
    if let encodable = rule as? any EncodableRule<Object> {
      switch encodable.encoding {
      case .rule(let encoding): copy.rules.append(encoding)
      case .rules(let encodings): copy.rules += encodings
      case .omitted(let omission): copy.leftOut.append(omission)
      }
    }
    return copy.rebuilt()
  }

  /// The inverse with a computed member at `path` that stands in for a rule of its own at the
  /// same path when that rule writes nothing (its property is `nil`, or `null` it would
  /// write): a dynamic case's discriminator behind the case's own property. Without such a
  /// rule, ``adding(path:label:value:)``.
  func addingFallback<Value: MappableValue>(
    path: [String], label: String, value: @escaping @Sendable (Object) throws -> Value
  ) -> Self {
    let fallback = Self.computedRule(path: path, label: label, value: value)
    var copy = self
    if let own = rules.firstIndex(where: { $0.path == path && $0.placement == .member }) {
      copy.rules[own].step = EncodeStep(FallbackEncodeStep(copy.rules[own].step, fallback.step))
    } else {
      copy.rules.append(fallback)
    }
    return copy.rebuilt()
  }

  /// The inverse with a computed member at `path` (literal keys).
  func adding<Value: MappableValue>(
    path: [String], label: String, value: @escaping @Sendable (Object) throws -> Value
  ) -> Self {
    var copy = self
    copy.rules.append(Self.computedRule(path: path, label: label, value: value))
    return copy.rebuilt()
  }

  /// The rule writing `value(object)` at `path` (literal keys); a throw is an error at `path`.
  private static func computedRule<Value: MappableValue>(
    path: [String], label: String, value: @escaping @Sendable (Object) throws -> Value
  ) -> EncodingRule<Object> {
    EncodingRule<Object>(
      path: path, property: \Object.self as AnyKeyPath & Sendable, label: label, nulls: nil
    ) { [valueWriter = ValueWriter<Value>.mappable] object, writer, run, nulls in
      do {
        let computed = try value(object)
        return try withBorrowed(computed) {
          try valueWriter.write($0.erased, to: &writer, nulls: nulls)
        }
      } catch {
        run.record(error, at: path.map(_PathComponent.key))
        return false
      }
    }
  }

  /// The inverse with a computed member: `value` is called with the object being serialized.
  ///
  /// ```swift
  /// inverse.adding("kind") { _ in "article" }
  /// inverse.adding("word_count") { $0.body.split(separator: " ").count }
  /// ```
  @preconcurrency
  public func adding<Value: MappableValue>(
    _ keyPath: String, value: @escaping @Sendable (Object) throws -> Value
  ) -> Self {
    adding(path: SourcePath(keyPath: keyPath).keys, label: "added \"\(keyPath)\"", value: value)
  }

  /// The inverse wrapping its output in an object under `key` (dotted for several levels):
  /// `{"article": {...}}`, or `{"articles": [...]}` for a collection.
  public func rootKey(_ key: String) -> Self {
    var copy = self
    copy.rootPath = SourcePath(keyPath: key).keys
    return copy
  }

  /// The inverse writing `nil` properties as `null` (``NullPolicy/include``) or leaving them
  /// out (``NullPolicy/omit``, the default). An attribute's own policy wins.
  public func nulls(_ policy: NullPolicy) -> Self {
    var copy = self
    copy.nullPolicy = policy
    return copy.rebuilt()
  }

  /// The inverse writing `Decimal` values as numbers (the default) or as strings; a call's
  /// ``MappingOptions/decimals`` wins.
  public func decimals(_ output: DecimalOutput) -> Self {
    var copy = self
    copy.decimalOutput = output
    return copy
  }
}

extension InverseMapping {
  /// `object` as compact JSON bytes, with the call's `options` (the entry the public
  /// serializing verbs use to pass theirs).
  func encodedJSON(_ object: Object, options: MappingOptions) throws(MappingErrors) -> [UInt8] {
    var writer = try withPayloadWriter(to: .json, options: options) {
      plan.encode(object, to: &$0, run: &$1)
    }
    return writer.json.takeBytes()
  }

  /// `object` as a ``Node``, with the call's `options`.
  func encodedNode(_ object: Object, options: MappingOptions) throws(MappingErrors) -> Node {
    try withPayloadWriter(to: .node, options: options) { plan.encode(object, to: &$0, run: &$1) }
      .nodes.result
  }
}
