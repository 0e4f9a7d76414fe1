import Foundation

/// The elements of a payload, mapped (or decoded) as its bytes arrive: what
/// `mapping.elements(of:as:options:with:)` and `FastJSONDecoder.elements(_:of:as:options:)`
/// return.
///
/// ```swift
/// let articles = articleMapping.elements(of: FileChunks(url), as: .array)
/// for try await article in articles {
///   index(article)               // the first article arrives after its own bytes are read
/// }
/// articles.summary.elementCount  // 1,000,000
/// ```
///
/// Nothing is read until the sequence is iterated, and then only as fast as the loop takes
/// elements (a chunk at a time): memory is bounded by the largest element and one chunk's
/// elements, not by the payload. Each element is the object mapping the whole payload would
/// give for it, with the same options and the same errors.
///
/// - **Errors** end the iteration, once the elements before them were delivered: a syntax
///   error is ``MappingErrors`` with its byte offset, line and column in the whole payload; an
///   element that does not map is ``MappingErrors`` with the element's errors at their paths
///   (`/1234/author`, `/data/1234/author` under a key path), unless
///   ``ElementFailurePolicy/skip`` leaves it out; an error of the source (a `URLError`, a file
///   error) is rethrown as it is; a cancelled task ends with `CancellationError`.
/// - **Stopping early** (`break`, a thrown error, a cancelled task) releases the source's
///   iterator, which closes the source: a ``FileChunks`` file, the manager's connection.
/// - **One pass**: a sequence reads its source each time it is iterated; its ``summary``
///   describes the last iteration.
///
/// It is `Sendable` when its source is; the iterator is not (iterate it in one task).
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct StreamedElements<Element, Source: AsyncSequence>: AsyncSequence
where Source.Element: ContiguousBytes {
  /// Errors end the stream: ``MappingErrors``, the source's own errors, `CancellationError`.
  public typealias Failure = any Error

  let source: Source
  let layout: StreamLayout
  let options: StreamOptions
  let reader: any ElementReading<Element>
  let summaryBox = StreamSummaryBox()

  init(
    source: Source, layout: StreamLayout, options: StreamOptions,
    reader: any ElementReading<Element>
  ) {
    self.source = source
    self.layout = layout
    self.options = options
    self.reader = reader
  }

  /// What the last iteration read: counts, skipped elements, diagnostics, and at the end the
  /// members around a streamed array (``StreamSummary/envelope``).
  public var summary: StreamSummary { summaryBox.value }

  /// An iterator that reads the source from its start.
  public func makeAsyncIterator() -> Iterator {
    let reading = options.reading ?? reader.defaultReading
    return Iterator(
      source: source.makeAsyncIterator(),
      state: ElementStreamState(
        reader: _JSONStreamReader(
          layout: layout, options: reading, maximumElementSize: options.maximumElementSize),
        elements: reader, layout: layout, options: options, reading: reading, box: summaryBox))
  }

  /// Reads the source as elements are asked for.
  public struct Iterator: AsyncIteratorProtocol {
    private var source: Source.AsyncIterator?
    private let state: ElementStreamState<Element>
    /// The chunk being consumed, and how far.
    private var chunk: Source.Element?
    private var chunkOffset = 0
    /// The elements of the last batch read, last first: each is moved out (`popLast()`, no copy)
    /// as it is delivered, in the caller's specialized code, without a call into the stream's
    /// state (which is generic, not specialized for the caller's element).
    @usableFromInline var ready: [Element] = []

    init(source: Source.AsyncIterator, state: ElementStreamState<Element>) {
      self.source = source
      self.state = state
    }

    /// The next element, or `nil` at the end of the payload.
    ///
    /// - Returns: The element.
    /// - Throws: ``MappingErrors`` (syntax, an element that does not map), the source's error,
    ///   or `CancellationError`; then the stream is over.
    @inlinable
    public mutating func next() async throws -> Element? {
      try await next(isolation: nil)
    }

    /// The next element, read in the caller's isolation.
    ///
    /// - Parameter actor: The caller's actor.
    /// - Returns: The element, or `nil` at the end of the payload.
    /// - Throws: As ``next()``.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error)
      -> Element?
    {
      // The elements of a batch are handed out here, in the caller's specialized code; the
      // stream is read again once they are all taken.
      if let element = ready.popLast() { return element }
      guard try await readNextBatch(isolation: actor) else { return nil }
      ready.reverse()
      return ready.popLast()
    }

    /// Reads the source until a batch of elements is in ``ready`` (in payload order); `false` at
    /// the end of the payload.
    @usableFromInline
    mutating func readNextBatch(isolation actor: isolated (any Actor)?) async throws(any Error)
      -> Bool
    {
      while true {
        if state.takeReady(into: &ready) { return true }
        if state.isOver {
          release()
          if let error = state.takeError() { throw error }
          return false
        }
        // Before each batch, not only before each chunk: a chunk may hold the whole payload,
        // and a cancelled consumer gets at most the batch it was handed.
        if Task.isCancelled {
          state.fail(CancellationError())
          continue
        }
        if state.reader.isReady {
          state.readBatch()
          continue
        }
        if feedPendingBytes() { continue }
        guard var iterator = source.take(), !state.inputEnded else {
          state.finishInput()
          continue
        }
        do {
          if let next = try await iterator.next(isolation: actor) {
            chunk = next
            chunkOffset = 0
          } else {
            state.finishInput()
          }
          source = iterator
        } catch {
          state.fail(error)
        }
      }
    }

    /// Hands the bytes of the current chunk to the reader; `false` when there are none.
    private mutating func feedPendingBytes() -> Bool {
      guard let current = chunk else { return false }
      let (offset, exhausted) = state.consume(current, from: chunkOffset)
      chunkOffset = offset
      if exhausted { chunk = nil }
      return true
    }

    /// Lets go of the source (which closes it), the pending bytes and the elements delivered.
    private mutating func release() {
      source = nil
      chunk = nil
      ready = []
    }
  }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension StreamedElements: Sendable where Source: Sendable {}

/// Turns the elements the stream reader finds into values: a mapping's objects, a decoder's
/// values.
protocol ElementReading<Element>: Sendable {
  associatedtype Element
  /// The reader options when the stream's options name none.
  var defaultReading: JSONReadingOptions { get }
  /// How many errors and diagnostics one element keeps (``MappingOptions/errorLimit``).
  var errorLimit: Int { get }
  /// Reads the stream reader's ready batch into `state`.
  func readBatch(_ state: ElementStreamState<Element>) -> _StreamBatchOutcome
  /// The values of what the payload's end left to read whole (a payload that is not the
  /// layout's array, or the value at a key path), appended to `state`.
  func readWhole(_ end: _StreamEnd, _ state: ElementStreamState<Element>) throws
}

/// One iteration of a stream: the reader, the elements ready to be delivered, the error that
/// ends it, and its summary.
final class ElementStreamState<Element> {
  var reader: _JSONStreamReader
  let elements: any ElementReading<Element>
  let layout: StreamLayout
  let options: StreamOptions
  let reading: JSONReadingOptions
  /// The path of the streamed array (`/data`), which each element's continues.
  let arrayPath: [_PathComponent]
  private let box: StreamSummaryBox
  private var ready: [Element] = []
  private var readIndex = 0
  private var error: (any Error)?
  /// No more elements will be made.
  private(set) var isOver = false
  /// The source ended.
  private(set) var inputEnded = false
  var summary = StreamSummary()
  /// The diagnostics, kept up to the error limit of the task that iterates.
  var diagnostics: CappedList<MappingDiagnostic>
  /// The error limit of each element's run.
  let errorLimit: Int

  init(
    reader: _JSONStreamReader, elements: any ElementReading<Element>, layout: StreamLayout,
    options: StreamOptions, reading: JSONReadingOptions, box: StreamSummaryBox
  ) {
    self.reader = reader
    self.elements = elements
    self.layout = layout
    self.options = options
    self.reading = reading
    self.box = box
    arrayPath = (layout.keys ?? []).map { .key($0) }
    errorLimit = elements.errorLimit
    diagnostics = CappedList(limit: errorLimit)
    box.update(summary)
  }

  /// The next element ready to be delivered.
  func nextReady() -> Element? {
    guard readIndex < ready.count else {
      if readIndex > 0 {
        ready.removeAll(keepingCapacity: true)
        readIndex = 0
      }
      return nil
    }
    defer { readIndex += 1 }
    return ready[readIndex]
  }

  /// Moves the elements ready to be delivered into `elements` (whose own are dropped); `false`
  /// when there are none.
  func takeReady(into elements: inout [Element]) -> Bool {
    guard readIndex < ready.count else { return false }
    elements.removeAll(keepingCapacity: true)
    if readIndex > 0 {
      ready.removeFirst(readIndex)
      readIndex = 0
    }
    swap(&elements, &ready)
    return true
  }

  /// Adds a value, in payload order.
  func deliver(_ element: consuming Element) {
    ready.append(element)
  }

  /// Adds the values of `elements`.
  func deliver(contentsOf elements: [Element]) {
    ready.append(contentsOf: elements)
  }

  /// The elements made so far, for the mapping engine to append to.
  func withReady<Result>(_ body: (inout [Element]) -> Result) -> Result {
    body(&ready)
  }

  /// Counts an element that was left out, with `diagnostic`.
  func skip(_ diagnostic: @autoclosure () -> MappingDiagnostic) {
    summary.skippedCount += 1
    diagnostics.append(diagnostic())
  }

  func consume(_ chunk: some ContiguousBytes, from offset: Int) -> (offset: Int, exhausted: Bool) {
    reader.consume(chunk, from: offset)
  }

  /// The source ended.
  func finishInput() {
    inputEnded = true
    reader.finish()
  }

  /// Reads the reader's ready batch.
  func readBatch() {
    let outcome = elements.readBatch(self)
    switch outcome {
    case .more:
      break
    case .stopped:
      isOver = true
    case .failed(let error):
      fail(MappingErrors([MappingError(error)]))
    case .finished(let end):
      switch end {
      case .streamed(let envelope):
        summary.envelope = envelope
      case .document, .envelope:
        if case .envelope(let node) = end { summary.envelope = node }
        do {
          try elements.readWhole(end, self)
        } catch {
          fail(error)
          return
        }
      }
      summary.isComplete = true
      isOver = true
    }
    publish()
  }

  /// Ends the stream with `error` (the first one wins), once the elements made are delivered.
  func fail(_ error: any Error) {
    if self.error == nil, !isOver { self.error = error }
    isOver = true
    publish()
  }

  /// The error that ended the stream, once.
  func takeError() -> (any Error)? {
    defer { error = nil }
    return error
  }

  /// Makes the summary visible to the sequence.
  func publish() {
    summary.diagnostics = diagnostics.kept
    summary.omittedDiagnosticCount = diagnostics.omittedCount
    box.update(summary)
  }

  /// The JSON Pointer of element `index`.
  func elementPath(_ index: Int) -> [_PathComponent] {
    arrayPath + [.index(index)]
  }
}
