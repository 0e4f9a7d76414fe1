import Foundation

// The streaming verb: `elements(of:as:options:with:)` maps the elements of a payload as its
// bytes arrive. The name is a noun, as for a lazy view (`lines`, `bytes`): the call reads
// nothing; iterating the sequence it returns does.

extension MappingProtocol {
  /// The elements of a payload, mapped as its chunks of bytes arrive: a top-level array, an
  /// array under a key path, or JSON Lines, in memory bounded by the largest element.
  ///
  /// ```swift
  /// // A 1 GB export, read 64 KiB at a time:
  /// for try await article in articleMapping.elements(of: FileChunks(url)) {
  ///   try store.save(article)
  /// }
  ///
  /// // One page of a paginated API, and where the next one is:
  /// let page = articleMapping.elements(of: body, as: .array(at: "data"))
  /// for try await article in page { show(article) }
  /// let next = page.summary.envelope?["next"]
  /// ```
  ///
  /// Each element is the object `mapCollection` gives for it when mapping the whole payload
  /// (same options, same errors), whatever the chunks' boundaries; the first object is ready
  /// as soon as its bytes arrived. A payload that is not the array the layout names (an
  /// object, with ``StreamLayout/array``) is read whole, within the element size limit, and
  /// mapped as `mapCollection` maps it (an object is a collection of one). A rule that reads the
  /// whole payload (``SourcePath/payload``) cannot be served while streaming: the stream ends
  /// with an error that says so.
  ///
  /// - Parameters:
  ///   - chunks: Any asynchronous sequence of byte chunks (`Data`, `[UInt8]`, …): a
  ///     ``FileChunks`` file, a network body, a user's sequence.
  ///   - layout: Where the elements are (``StreamLayout/array`` by default).
  ///   - options: The element size limit, what a failing element does, the reader's options.
  ///   - mappingOptions: Settings for every element, as for `map(_:with:)`.
  /// - Returns: The elements, read as they are iterated (see ``StreamedElements``).
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  public func elements<Chunks: AsyncSequence>(
    of chunks: Chunks, as layout: StreamLayout = .array, options: StreamOptions = .standard,
    with mappingOptions: MappingOptions = .none
  ) -> StreamedElements<Object, Chunks> where Chunks.Element: ContiguousBytes {
    StreamedElements(
      source: chunks, layout: layout, options: options,
      reader: MappedElements(plan: _plan, options: mappingOptions))
  }

  /// The elements of a payload, mapped as its bytes arrive one at a time
  /// (`URLSession.AsyncBytes`, `FileHandle.AsyncBytes`, a user's sequence of `UInt8`), read as
  /// ``ByteChunks``; a source of chunks is faster.
  ///
  /// ```swift
  /// let (bytes, _) = try await URLSession.shared.bytes(from: feedURL)
  /// for try await event in eventMapping.elements(of: bytes, as: .jsonLines) { handle(event) }
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: Any asynchronous sequence of bytes.
  ///   - layout: Where the elements are (``StreamLayout/array`` by default).
  ///   - options: The element size limit, what a failing element does, the reader's options.
  ///   - mappingOptions: Settings for every element.
  /// - Returns: The elements, read as they are iterated.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  public func elements<Bytes: AsyncSequence>(
    of bytes: Bytes, as layout: StreamLayout = .array, options: StreamOptions = .standard,
    with mappingOptions: MappingOptions = .none
  ) -> StreamedElements<Object, ByteChunks<Bytes>> where Bytes.Element == UInt8 {
    elements(of: ByteChunks(bytes), as: layout, options: options, with: mappingOptions)
  }
}

/// Maps each element the stream reader finds with a mapping's plan: the engine's own element
/// step (`collectElement`, as `mapCollection` runs it), one run per batch, each element with
/// its own errors.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
struct MappedElements<Object>: ElementReading {
  let plan: _MappingPlan<Object>
  let options: MappingOptions

  var defaultReading: JSONReadingOptions { .strict }
  var errorLimit: Int { options.resolvedErrorLimit }

  func readBatch(_ state: ElementStreamState<Object>) -> _StreamBatchOutcome {
    do {
      try plan.checkDefinition()
    } catch {
      state.fail(error)
      return .stopped
    }
    var run = MappingRun(tape: .empty, root: plan, options: options)
    run.readsElementsAlone = true
    let skips = state.options.onElementFailure == .skip
    let arrayPath = state.arrayPath
    let limit = state.errorLimit
    // The count and the elements made stay local for the batch (a class's stored property is
    // checked for exclusive access at each use): the count joins the summary before the stream
    // fails and at the end of the batch.
    var counted = 0
    func failing(_ error: MappingErrors) -> Bool {
      state.summary.elementCount += counted
      counted = 0
      state.fail(error)
      return false
    }
    let outcome = state.withReady { ready in
      state.reader.read { item in
        switch item {
        case .element(let index, let view, _):
          counted += 1
          run.read(view)
          run.path.truncate(to: 0)
          run.path.push(arrayPath)
          run.path.append(.index(index))
          run.errors = CappedList(limit: limit)
          // One identity map per element: a stream's memory does not grow with its elements.
          if !run.identityMap.instances.isEmpty { run.identityMap.instances.removeAll() }
          plan.collectElement(at: 0, into: &ready, run: &run)
          run.applyMerges()
          if run.needsWholePayload {
            return failing(
              MappingErrors([
                MappingError(
                  path: _jsonPointer(run.path),
                  .invalidDefinition(
                    message: "a rule reads the whole payload (SourcePath.payload), which a "
                      + "stream does not keep: map the payload whole, or read the value from "
                      + "the stream's envelope"))
              ]))
          }
          guard !run.errors.isEmpty else { return true }
          guard skips else { return failing(MappingErrors(run.errors)) }
          run.dropErrors(since: 0)
          state.summary.skippedCount += 1
          return true
        case .failedElement(let index, let error):
          counted += 1
          guard skips else { return failing(MappingErrors([MappingError(error)])) }
          state.skip(
            MappingDiagnostic(
              path: _jsonPointer(state.elementPath(index)),
              .skippedElement(reason: MappingError(error).kind.description)))
          return true
        }
      }
    }
    state.summary.elementCount += counted
    state.diagnostics += run.diagnostics
    return outcome
  }

  func readWhole(_ end: _StreamEnd, _ state: ElementStreamState<Object>) throws {
    let mapping = PlanMapping(plan: MappingPlan(plan))
    let collected: Collected<Object>
    switch end {
    case .streamed:
      return
    case .document(let bytes):
      collected = try mapping.collectObjects(
        MappingInput(source: .bytes(bytes, state.reading)), options: options
      ).get()
    case .envelope(let document):
      let value = try state.value(atKeyPathIn: document)
      var found = try mapping.collectObjects(MappingInput(source: .node(value)), options: options)
        .get()
      let prefix = _jsonPointer(state.arrayPath)
      found.errors = CappedList(
        found.errors.kept.map { MappingError(path: prefix + $0.path, $0.kind) },
        limit: found.errors.limit)
      found.diagnostics = CappedList(
        found.diagnostics.kept.map { MappingDiagnostic(path: prefix + $0.path, $0.kind) },
        limit: found.diagnostics.limit)
      collected = found
    }
    state.diagnostics += collected.diagnostics
    state.summary.elementCount += collected.objects.count
    if !collected.errors.isEmpty {
      guard state.options.onElementFailure == .skip else {
        throw MappingErrors(collected.errors)
      }
      for error in collected.errors.kept {
        state.summary.elementCount += 1
        state.skip(MappingDiagnostic(path: error.path, .skippedElement(reason: error.description)))
      }
    }
    state.deliver(contentsOf: collected.objects)
  }

}

extension ElementStreamState {
  /// The value at the layout's key path in `document` (object members only, the first of equal
  /// keys), or the error that nothing is there.
  func value(atKeyPathIn document: Node) throws(MappingErrors) -> Node {
    var value = document
    for key in layout.keys ?? [] {
      guard case .object = value, let member = value[key] else {
        var topLevelKeys: [String]?
        if case .object(let members) = document { topLevelKeys = members.map(\.key) }
        throw MappingErrors([
          MappingError(.nothingFound(searched: [layout.keyPath], topLevelKeys: topLevelKeys))
        ])
      }
      value = member
    }
    return value
  }
}

/// A mapping made of a plan, to call the verbs the plan's mapping would.
struct PlanMapping<Object>: MappingProtocol {
  let plan: MappingPlan<Object>
}
