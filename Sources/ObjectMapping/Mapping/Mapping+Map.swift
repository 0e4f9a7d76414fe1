import Foundation

// The decoding verbs that make new objects: `map` and `mapCollection`, each taking one input
// (`Data`, `String`, `[UInt8]`, `Node`, `[String: Any]`, `[[String: Any]]` or a ``MappingInput``:
// `.json(_:reading:)` for reader options, `.foundation(_:)` for any parsed Foundation value) and
// ``MappingOptions``. Issue 37
// removed the `Any` and `options: JSONReadingOptions` overloads that only converted their input.

extension MappingProtocol {
  /// Maps a payload that is one object.
  ///
  /// JSON is scanned once into a flat index that the mapping reads lazily; no `Node` tree is
  /// built.
  ///
  /// ```swift
  /// let article = try articleMapping.map(jsonData)
  /// let strict = try articleMapping.map(jsonData, with: MappingOptions(coercion: .strict))
  /// let draft = try articleMapping.map(.json(text, reading: .lenient))
  /// ```
  ///
  /// - Parameters:
  ///   - input: The payload: `Data`, `[UInt8]` or `String` (JSON), a `Node`, a Foundation
  ///     `[String: Any]` or `[[String: Any]]`, or any ``MappingInput``.
  ///   - options: Settings for this call, reaching every child mapping unless it sets its own
  ///     (see ``MappingOptions``).
  /// - Returns: The mapped object.
  /// - Throws: ``MappingErrors``: the payload cannot be read (a syntax error with its line and
  ///   column), or every mapping problem of the payload with its path.
  public func map(_ input: some MappingInputConvertible, with options: MappingOptions = .none)
    throws(MappingErrors) -> Object
  {
    try input.mappingInput.withView { mapResult(view: $0, with: options) }.get()
  }

  /// Maps a payload that is an array of objects (a single object maps as a one-element array).
  ///
  /// A top-level JSON array is mapped as it is read, an element at a time, so a large payload
  /// needs no index of its own size: memory is the payload plus the objects (a 289 MB array of
  /// 1M articles peaks at 862 MB, objects included). The outcome is the same as mapping a whole
  /// index: the same objects, errors (a syntax error anywhere fails the call) and partial
  /// results.
  ///
  /// ```swift
  /// let articles = try articleMapping.mapCollection(jsonData)
  /// ```
  ///
  /// - Parameters:
  ///   - input: The payload (see `map(_:with:)`).
  ///   - options: Settings for this call, reaching every element and child mapping.
  /// - Returns: The mapped objects in payload order.
  /// - Throws: ``MappingErrors`` with every failing element's errors; when `Object` is
  ///   `Sendable`, the valid elements are in ``MappingErrors/partialResult(as:)`` (`[Object]`).
  public func mapCollection(
    _ input: some MappingInputConvertible, with options: MappingOptions = .none
  ) throws(MappingErrors) -> [Object] {
    try collectObjects(input.mappingInput, options: options).flatMap(\.allOrNothing).get()
  }

  /// Maps a payload that is an array of objects with collection options: with
  /// ``CollectionOptions/skippingInvalidElements`` the valid elements are kept and the others'
  /// errors returned with them, not thrown (SPEC §3).
  ///
  /// The elements are mapped as `mapCollection(_:with:)` maps them (a top-level JSON array
  /// streamed, a single object as a one-element collection); only what happens to a failing
  /// element differs.
  ///
  /// ```swift
  /// let mapped = try authorMapping.mapCollection(json, options: .skippingInvalidElements)
  /// mapped.objects   // the valid authors, in payload order
  /// mapped.errors    // ["/1/email: expected a string, found an array"]
  /// ```
  ///
  /// - Parameters:
  ///   - input: The payload (see `map(_:with:)`).
  ///   - collectionOptions: What happens to elements that fail.
  ///   - options: Settings for this call, reaching every element and child mapping.
  /// - Returns: The valid elements, with the errors and diagnostics of the run.
  /// - Throws: ``MappingErrors`` when the payload cannot be read or is not a collection of
  ///   objects, or, without ``CollectionOptions/skippingInvalidElements``, with every element's
  ///   errors when any element fails (and no partial result, whatever the model: the spelling
  ///   without options keeps a `Sendable` model's valid elements in the error).
  public func mapCollection(
    _ input: some MappingInputConvertible, options collectionOptions: CollectionOptions,
    with options: MappingOptions = .none
  ) throws(MappingErrors) -> MappedCollection<Object> {
    try collectObjects(input.mappingInput, options: options)
      .flatMap { $0.collection(options: collectionOptions) }.get()
  }
}

// MARK: The engine's entry points

extension MappingProtocol {
  /// Maps every element of a collection payload with the call's `options`: a top-level JSON
  /// array is streamed (``collectValid(json:options:)``), anything else reads a whole index.
  func collectObjects(_ input: MappingInput, options: MappingOptions) -> Result<
    Collected<Object>, MappingErrors
  > {
    let collected: Result<Collected<Object>, MappingErrors>
    do throws(MappingErrors) {
      collected = try input.read(
        json: { bytes, reading in collectValid(json: bytes, options: reading, with: options) },
        node: { document in
          do throws(MappingErrors) {
            return try _Tape.checked(node: document).withView {
              collectValid(view: $0, with: options)
            }
          } catch {
            return .failure(error)
          }
        })
    } catch {
      return .failure(error)
    }
    return collected
  }

  /// The writes that map a scanned payload onto `existing` with the call's `options`.
  func collectExisting(view: _UnsafeTapeView, onto existing: Object, options: MappingOptions)
    -> ExistingOutcome<Object>
  {
    pendingUpdate(view: view, onto: existing, with: options)
  }
}

// MARK: Partial results of Sendable models

extension MappingProtocol where Object: Sendable {
  /// Maps a payload that is an array of objects, as the general `mapCollection(_:with:)` does,
  /// and keeps the valid elements in the error when some fail.
  ///
  /// The compiler picks this spelling whenever `Object` is `Sendable`: the valid elements travel
  /// in the thrown ``MappingErrors`` (which is `Sendable`, and may reach another task), so only
  /// a `Sendable` model's elements may. A model that is not `Sendable` maps the same way, and
  /// its error has no partial result (make the model `Sendable`, or map through a whole-payload
  /// ``Mapper`` route, whose ``MappingResult`` is returned, not thrown).
  ///
  /// ```swift
  /// do {
  ///   let articles = try articleMapping.mapCollection(jsonData)
  /// } catch let failure {
  ///   let valid = failure.partialResult(as: [Article].self) ?? []
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - input: The payload (see `map(_:with:)`).
  ///   - options: Settings for this call, reaching every element and child mapping.
  /// - Returns: The mapped objects in payload order.
  /// - Throws: ``MappingErrors`` with every failing element's errors and the valid elements as
  ///   ``MappingErrors/partialResult(as:)`` (`[Object]`).
  public func mapCollection(
    _ input: some MappingInputConvertible, with options: MappingOptions = .none
  ) throws(MappingErrors) -> [Object] {
    try collectObjects(input.mappingInput, options: options)
      .flatMap(\.allOrNothingKeepingPartialResult).get()
  }
}
