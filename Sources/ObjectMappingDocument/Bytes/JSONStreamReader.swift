import protocol Foundation.ContiguousBytes

/// An element the stream reader hands to its caller.
package enum _StreamItem {
  /// A complete, valid element: its position among the elements, its scanned entries (valid
  /// during the call) and its bytes.
  case element(index: Int, view: _UnsafeTapeView, bytes: _ElementBytes)
  /// A JSON Lines line that is not one valid JSON value (or is longer than the limit): the
  /// stream can go on at the next line.
  case failedElement(index: Int, error: FormatError)
}

/// The bytes of a streamed element, valid only during the reader's call that reports them (as
/// its tape view is): the caller copies them out (``array``) or not at all.
@safe package struct _ElementBytes {
  private let buffer: UnsafeRawBufferPointer

  init(buffer: UnsafeRawBufferPointer) {
    unsafe self.buffer = buffer
  }

  /// A copy of the element's bytes.
  package var array: [UInt8] { unsafe Array(buffer) }
}

/// How reading a batch ended.
package enum _StreamBatchOutcome {
  /// Every complete element was reported: feed more input (or ``_JSONStreamReader/finish()``).
  case more
  /// The caller's body asked to stop.
  case stopped
  /// The payload is not valid here: the stream ends with this error.
  case failed(FormatError)
  /// The payload was read to its end.
  case finished(_StreamEnd)
}

/// What is left once a payload was read to its end.
package enum _StreamEnd {
  /// The elements were all reported. `envelope` is the document with the array emptied, for an
  /// array under a key path; `nil` for a top-level array and JSON Lines.
  case streamed(envelope: Node?)
  /// The payload is not a top-level array (layout ``StreamLayout/array``): these are its bytes,
  /// to map whole.
  case document([UInt8])
  /// No array was streamed at the key path: the whole document (with whatever is at the key
  /// path, or nothing), to map the value at the key path from.
  case envelope(Node)
}

/// Reads JSON elements out of a byte stream as its bytes arrive, in memory bounded by the
/// largest element: the elements of a top-level array, of an array under a key path, or the
/// lines of JSON Lines (``StreamLayout``).
///
/// It works in two passes over each byte, both bounded: a loose pass (``JSONValueTracker``)
/// finds where elements end, whatever chunk boundaries fall in (inside multi-byte characters,
/// escapes, numbers, comments), and copies the bytes of the array into a *batch*; the scanner
/// (``_JSONScanner/scanArrayElements(_:options:_:)``) then reads the batch as the array it is
/// a part of. A batch is a `[` followed by the stream's own bytes, verbatim (after the first
/// batch, a stand-in element `""` takes the place of the elements already read), so every byte
/// of the array, whitespace, commas and comments included, is validated in its real context,
/// and every syntax error is the one, at the location (byte offset, line and column of the
/// whole stream), that reading the whole payload reports. The bytes around the array (its
/// *envelope*: the key path's objects, whitespace, what follows) are kept and scanned as the
/// document they form with the array emptied.
///
/// Memory: the batch holds at most the elements of one chunk (capped at ``batchElementLimit``
/// elements and ``batchByteLimit`` bytes) plus the element in progress, which may not pass the
/// element size limit; the envelope may not pass it either.
///
/// Invariants: the batch's bytes are exactly `[`, the stand-in, and the stream's bytes from
/// ``batchLocation`` on; element ranges and ``cut`` are positions in it, never past its end;
/// a region (batch or envelope) never starts between a `\r` and its `\n`, so locations
/// computed per region add up to the stream's.
package struct _JSONStreamReader {
  /// Elements per batch: enough to make the scan and the mapping run's setup cheap per element.
  package static let batchElementLimit = 1_024
  /// Bytes per batch.
  package static let batchByteLimit = 1 << 20

  // MARK: Configuration

  private let options: JSONReadingOptions
  /// The options a batch is scanned with: the depth limit moved by the array's own depth (a
  /// batch's `[` stands for the streamed array).
  private let batchOptions: JSONReadingOptions
  private let limit: Int
  /// The key path, as UTF-8 keys; `nil` for JSON Lines.
  private let keys: [[UInt8]]?
  private let layout: StreamLayout
  /// The path of the streamed array (`/data`), which element paths continue.
  private let arrayPath: [_PathComponent]

  // MARK: Phase

  private enum Phase {
    /// Reading the envelope (before or after the array, or the whole document).
    case envelope
    /// Reading the array's contents into the batch.
    case array
    /// Reading JSON Lines.
    case lines
    /// An error was found: taking up to 4 more bytes (so a message can show the character at
    /// the error) before the reader stops.
    case failing(remaining: Int, inBatch: Bool)
    /// Nothing more is read.
    case stopped
  }

  private var phase: Phase
  /// The stream offset of the next byte to consume.
  private var offset = 0
  /// ``finish()`` was called.
  private var ended = false
  /// The reader reported its last outcome.
  private var done = false

  // MARK: The batch

  private var batch: [UInt8] = [JSONByte.openBracket]
  /// Where the stream's bytes begin in ``batch``: 1, or 3 after the stand-in `""`.
  private var contentStart = 1
  /// The stream location of `batch[contentStart]`.
  private var batchLocation = TextLocation(offset: 0, line: 1, column: 1)
  /// The complete elements in the batch (JSON Lines: also failed lines, empty).
  private var elements: [Range<Int>] = []
  /// JSON Lines: each element's stream location and its failure, if the reader found one.
  private var lineStarts: [TextLocation] = []
  private var lineFailures: [Int: FormatError] = [:]
  /// The batch position after the last complete element (arrays).
  private var cut = 1
  /// The position among all elements of the batch's first element.
  private var firstIndex = 0
  /// Why the batch ends short of more input.
  private enum Terminal {
    /// The array's closing `]` is at this batch position.
    case closed(Int)
    /// An error is in the batch's bytes (an anomaly with its lookahead, or the end of input).
    case error
    /// The bytes since the last element passed the element size limit.
    case tooLarge(elementStart: Int?)
  }
  private var terminal: Terminal?
  /// JSON Lines: the next element of the batch to report (reading resumes after a failed line).
  private var readCursor = 0

  // MARK: Following the array's contents

  private var tracker: JSONValueTracker
  /// Inside an element (else between elements).
  private var inValue = false
  /// The batch position of the element in progress.
  private var valueStart = 0
  /// The comment being skipped between elements.
  private var gapComment = JSONValueTracker.Comment.none

  // MARK: JSON Lines

  private enum LineState {
    /// Before the line's value: whitespace.
    case start
    /// In the line's value, up to its line feed.
    case value
    /// Skipping the rest of a line that passed the size limit.
    case discard
  }
  private var lineState = LineState.start
  /// The stream location where the current line's value starts.
  private var lineLocation = TextLocation(offset: 0, line: 1, column: 1)
  /// Set by ``fail(_:)``: the stream ends with it once the elements before it are read.
  private var failure: FormatError?
  /// A `\r` ended the last chunk: a `\n` first in the next one belongs to it.
  private var pendingReturn = false

  // MARK: The envelope

  private var envelope: [UInt8] = []
  /// The envelope's bytes up to and including the array's `[`, once the array started.
  private var prefixCount: Int?
  /// The stream location of the array's `]`.
  private var closeLocation: TextLocation?
  private enum Navigation {
    case document
    case byteOrderMark(Int)
    case key
    case inKey
    case afterKey
    case value(matched: Bool)
    case skipping
    case afterValue
    case trailing
    /// The document is read whole (it is not what the layout streams).
    case whole
  }
  private var navigation = Navigation.document
  /// The key path's objects entered so far.
  private var pathDepth = 0
  /// Whether the member for the key path was already seen at each depth (the first wins).
  private var seenKey: [Bool] = []
  private var keyBytes: [UInt8] = []
  private var keyEscaped = false
  private var keyHasEscape = false
  private var envelopeComment = JSONValueTracker.Comment.none
  /// The envelope's skipped member value.
  private var skipper: JSONValueTracker

  /// A reader for `layout` with `options`, no element larger than `maximumElementSize` bytes.
  package init(layout: StreamLayout, options: JSONReadingOptions, maximumElementSize: Int) {
    self.layout = layout
    self.options = options
    limit = Swift.max(1, maximumElementSize)
    let elementDepth: Int
    if let keys = layout.keys {
      self.keys = keys.map { Array($0.utf8) }
      arrayPath = keys.map { .key($0) }
      elementDepth = keys.count + 1
      phase = .envelope
    } else {
      self.keys = nil
      arrayPath = []
      elementDepth = 0
      phase = .lines
    }
    var batchOptions = options
    // The batch's `[` is at depth 1 and stands for the array at depth `elementDepth - 1`.
    let shift = elementDepth - 1
    if shift > 0 {
      batchOptions.maximumDepth = Swift.max(0, options.maximumDepth - shift)
    } else if shift < 0 {
      batchOptions.maximumDepth =
        options.maximumDepth == Int.max ? Int.max : options.maximumDepth + 1
    }
    batchOptions.allowsByteOrderMark = false
    self.batchOptions = batchOptions
    let elementBudget =
      options.maximumDepth == Int.max ? Int.max : Swift.max(0, options.maximumDepth - elementDepth)
    tracker = JSONValueTracker(
      allowsComments: options.allowsComments, depthLimit: elementBudget)
    skipper = JSONValueTracker(allowsComments: options.allowsComments, depthLimit: 0)
  }

  // MARK: - Feeding

  /// Whether ``read(_:)`` has something to do: complete elements, an error, or the end.
  package var isReady: Bool {
    guard !done else { return false }
    if case .failing = phase, !ended { return false }
    if ended || terminal != nil || !elements.isEmpty || failure != nil { return true }
    if case .stopped = phase { return true }
    return false
  }

  /// Consumes bytes of `input` from `start` on, until it ends, a batch is full or the reader
  /// stops; returns the index of the first byte not consumed. Call ``read(_:)`` when
  /// ``isReady``.
  /// Reads `chunk` from `start` until the batch is full or the chunk ends; returns where it
  /// stopped and whether that is the chunk's end.
  package mutating func consume<Chunk: ContiguousBytes>(
    _ chunk: Chunk, from start: Int
  ) -> (offset: Int, exhausted: Bool) {
    unsafe chunk.withUnsafeBytes { input in
      let offset = unsafe consume(input, from: start)
      return (offset, offset >= input.count)
    }
  }

  package mutating func consume(_ input: UnsafeRawBufferPointer, from start: Int) -> Int {
    var index = start
    while index < input.count {
      let before = index
      switch phase {
      case .envelope:
        index = unsafe consumeEnvelope(input, from: index)
      case .array:
        guard terminal == nil, !isBatchFull else { return index }
        index = unsafe consumeArray(input, from: index)
      case .lines:
        guard !isBatchFull else { return index }
        index = unsafe consumeLines(input, from: index)
      case .failing(let remaining, let inBatch):
        let count = Swift.min(remaining, input.count - index)
        let bytes = unsafe UnsafeRawBufferPointer(rebasing: input[index..<index + count])
        if inBatch {
          unsafe batch.append(contentsOf: bytes)
        } else {
          unsafe envelope.append(contentsOf: bytes)
        }
        index += count
        phase =
          remaining == count ? .stopped : .failing(remaining: remaining - count, inBatch: inBatch)
      case .stopped:
        return index
      }
      offset += index - before
      if index == before { return index }
    }
    return index
  }

  private var isBatchFull: Bool {
    elements.count >= Self.batchElementLimit || cut - contentStart >= Self.batchByteLimit
  }

  /// The input ended.
  package mutating func finish() {
    guard !ended else { return }
    ended = true
    switch phase {
    case .array:
      // Inside the array: the scanner names what is missing ("found end of input").
      terminal = .error
      phase = .stopped
    case .lines:
      if lineState == .value { endLine(at: batch.count) }
      lineState = .start
    case .failing:
      phase = .stopped
    case .envelope, .stopped:
      break
    }
  }

  // MARK: - The envelope

  private mutating func consumeEnvelope(_ input: UnsafeRawBufferPointer, from start: Int) -> Int {
    var index = start
    let end = input.count
    var segment = index
    @inline(__always) func flush() {
      unsafe envelope.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[segment..<index]))
      segment = index
    }
    defer { flush() }
    while index < end {
      // The envelope is bounded like an element.
      guard envelope.count + (index - segment) <= limit else {
        flush()
        failEnvelopeTooLarge()
        return index
      }
      let byte = unsafe input[index]
      switch navigation {
      case .whole:
        index = Swift.min(end, index + (limit + 1 - (envelope.count + (index - segment))))
        continue
      case .skipping:
        switch skipper.step(byte) {
        case .inside:
          index += 1
          continue
        case .endsAfter:
          index += 1
          navigation = .afterValue
          continue
        case .endsBefore:
          navigation = .afterValue
        case .anomaly:
          index += 1
          flush()
          startFailing(inBatch: false)
          return index
        }
      case .inKey:
        index += 1
        if keyEscaped {
          keyEscaped = false
          keyBytes.append(byte)
        } else if byte == JSONByte.backslash {
          keyEscaped = true
          keyHasEscape = true
          keyBytes.append(byte)
        } else if byte == JSONByte.quote {
          navigation = .afterKey
        } else if byte < 0x20 {
          flush()
          startFailing(inBatch: false)
          return index
        } else {
          keyBytes.append(byte)
        }
        continue
      case .byteOrderMark(let matched):
        index += 1
        guard byte == (matched == 1 ? 0xBB : 0xBF) else {
          flush()
          startFailing(inBatch: false)
          return index
        }
        if matched < 2 {
          navigation = .byteOrderMark(matched + 1)
        } else if options.allowsByteOrderMark {
          navigation = .document
        } else {
          flush()
          startFailing(inBatch: false)
          return index
        }
        continue
      default:
        break
      }
      // Whitespace and comments between the envelope's tokens.
      if envelopeComment != .none {
        index += 1
        if !JSONValueTracker.follow(&envelopeComment, byte) {
          flush()
          startFailing(inBatch: false)
          return index
        }
        continue
      }
      if JSONByte.isWhitespace(byte) {
        index += 1
        continue
      }
      if byte == JSONByte.slash, options.allowsComments {
        envelopeComment = .slash
        index += 1
        continue
      }
      let step = step(envelope: byte, atStart: offset + (index - start) == 0)
      index += 1
      switch step {
      case .next:
        break
      case .beginArray:
        flush()
        beginArray()
        return index
      case .anomaly:
        flush()
        startFailing(inBatch: false)
        return index
      }
    }
    return index
  }

  private enum EnvelopeStep {
    case next, beginArray, anomaly
  }

  /// Follows the envelope with a byte that is not whitespace or a comment.
  private mutating func step(envelope byte: UInt8, atStart: Bool) -> EnvelopeStep {
    guard let keys else { return .anomaly }
    switch navigation {
    case .document:
      if atStart, byte == 0xEF {
        navigation = .byteOrderMark(1)
        return .next
      }
      if keys.isEmpty, byte == JSONByte.openBracket {
        return options.maximumDepth >= 1 ? .beginArray : .anomaly
      }
      if !keys.isEmpty, byte == JSONByte.openBrace {
        return enterPathObject()
      }
      navigation = .whole
      return .next
    case .key:
      if byte == JSONByte.quote {
        keyBytes.removeAll(keepingCapacity: true)
        keyEscaped = false
        keyHasEscape = false
        navigation = .inKey
        return .next
      }
      if byte == JSONByte.closeBrace { return leavePathObject() }
      return .anomaly
    case .afterKey:
      guard byte == JSONByte.colon else { return .anomaly }
      let level = pathDepth - 1
      var matched = false
      if !seenKey[level], keyMatches(keys[level]) {
        seenKey[level] = true
        matched = true
      }
      navigation = .value(matched: matched)
      return .next
    case .value(let matched):
      if matched, pathDepth < keys.count, byte == JSONByte.openBrace {
        return enterPathObject()
      }
      if matched, pathDepth == keys.count, byte == JSONByte.openBracket {
        return pathDepth < options.maximumDepth ? .beginArray : .anomaly
      }
      skipper.depthLimit =
        options.maximumDepth == Int.max ? Int.max : Swift.max(0, options.maximumDepth - pathDepth)
      guard skipper.begin(byte) != .anomaly else { return .anomaly }
      navigation = .skipping
      return .next
    case .afterValue:
      if byte == JSONByte.comma {
        navigation = .key
        return .next
      }
      if byte == JSONByte.closeBrace { return leavePathObject() }
      return .anomaly
    case .trailing:
      return .anomaly
    case .byteOrderMark, .inKey, .skipping, .whole:
      return .next  // handled by the caller
    }
  }

  private mutating func enterPathObject() -> EnvelopeStep {
    guard pathDepth < options.maximumDepth else { return .anomaly }
    pathDepth += 1
    if seenKey.count < pathDepth { seenKey.append(false) }
    seenKey[pathDepth - 1] = false
    navigation = .key
    return .next
  }

  private mutating func leavePathObject() -> EnvelopeStep {
    pathDepth -= 1
    navigation = pathDepth == 0 ? .trailing : .afterValue
    return .next
  }

  /// Whether the key just read is `key` (decoded text, compared by UTF-8 bytes).
  private func keyMatches(_ key: [UInt8]) -> Bool {
    guard keyHasEscape else { return keyBytes == key }
    // An escaped key is decoded by the reader; an invalid one matches nothing (the envelope's
    // scan reports it).
    var quoted = [JSONByte.quote]
    quoted += keyBytes
    quoted.append(JSONByte.quote)
    guard let tape = try? _Tape(json: quoted, options: options),
      case .string(let text) = tape.node(at: 0)
    else { return false }
    return Array(text.utf8) == key
  }

  /// The array at the key path begins: the envelope so far (through `[`) must be valid, then
  /// the array's contents go to the batch.
  private mutating func beginArray() {
    prefixCount = envelope.count
    if let error = envelopeError(before: envelope.count) {
      fail(error)
      return
    }
    batchLocation = Self.location(of: envelope.count, in: envelope)
    phase = .array
    batch = [JSONByte.openBracket]
    contentStart = 1
    cut = 1
  }

  /// The scanner's first error in the envelope read as a document, at its stream location.
  private func envelopeScanError() -> FormatError? {
    let error: FormatError? = unsafe envelope.withUnsafeBufferPointer { buffer in
      do throws(FormatError) {
        _ = unsafe try _JSONScanner.scan(buffer, options: options)
        return nil
      } catch {
        return error
      }
    }
    return error.map { translatedEnvelopeError($0) }
  }

  /// The first error in the envelope's first `count` bytes, when it is before their end.
  private func envelopeError(before count: Int) -> FormatError? {
    let error: FormatError? = unsafe envelope.withUnsafeBufferPointer { buffer in
      do throws(FormatError) {
        _ = unsafe try _JSONScanner.scan(
          UnsafeBufferPointer(rebasing: buffer[0..<count]), options: options)
        return nil
      } catch {
        return error
      }
    }
    guard let error, let location = error.location, location.offset < count else { return nil }
    return translatedEnvelopeError(error)
  }

  private mutating func failEnvelopeTooLarge() {
    if let error = envelopeError(before: envelope.count) {
      fail(error)
      return
    }
    let what: String
    if case .whole = navigation, layout.keys?.isEmpty == true {
      what = "the payload is not an array, so it is read whole, and it is"
    } else if case .whole = navigation {
      what = "the payload is not an object, so it is read whole, and it is"
    } else if prefixCount == nil {
      what = "the payload before the array at \(MessageText.quoted(layout.keyPath)) is"
    } else {
      what = "the payload around the streamed array is"
    }
    fail(
      FormatError(
        .syntax(
          message: "\(what) larger than the element size limit of "
            + "\(MessageText.grouped(limit)) bytes",
          location: envelopeLocation(of: envelope.count))))
  }

  /// Ends the stream with `error` once the elements before it are read.
  private mutating func fail(_ error: FormatError) {
    failure = error
    phase = .stopped
  }

  /// Takes up to 4 more bytes (a message shows the whole character at the error), then stops:
  /// the batch or the envelope holds an error.
  private mutating func startFailing(inBatch: Bool) {
    phase = ended ? .stopped : .failing(remaining: 4, inBatch: inBatch)
    if inBatch { terminal = .error }
  }

  // MARK: - The array

  private mutating func consumeArray(_ input: UnsafeRawBufferPointer, from start: Int) -> Int {
    var index = start
    let end = input.count
    var segment = index
    @inline(__always) func flush() {
      unsafe batch.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[segment..<index]))
      segment = index
    }
    defer { flush() }
    while index < end {
      // The bytes since the last complete element may not pass the limit.
      let room = limit - (batch.count + (index - segment) - cut)
      guard room > 0 else {
        flush()
        terminal = .tooLarge(elementStart: inValue ? valueStart : nil)
        phase = .stopped
        return index
      }
      let stop = Swift.min(end, index + room)
      while index < stop {
        if inValue {
          var step: JSONValueTracker.Step
          (index, step) = unsafe tracker.scan(input, from: index, to: stop)
          if step == .inside {
            // The bytes up to `stop` were followed, or the one at `index` needs a closer look.
            guard index < stop else { break }
            step = unsafe tracker.step(input[index])
          } else {
            // The scan stopped after the byte that ended the value or is an error.
            index -= 1
          }
          switch step {
          case .inside:
            index += 1
          case .endsAfter:
            index += 1
            inValue = false
            cut = batch.count + (index - segment)
            elements.append(valueStart..<cut)
            if isBatchFull { return index }
          case .endsBefore:
            // The byte is read again, between elements.
            inValue = false
            cut = batch.count + (index - segment)
            elements.append(valueStart..<cut)
          case .anomaly:
            index += 1
            flush()
            startFailing(inBatch: true)
            return index
          }
          continue
        }
        let byte = unsafe input[index]
        if gapComment != .none {
          index += 1
          guard JSONValueTracker.follow(&gapComment, byte) else {
            flush()
            startFailing(inBatch: true)
            return index
          }
          continue
        }
        switch byte {
        case JSONByte.space, JSONByte.newline, JSONByte.carriageReturn, JSONByte.tab,
          JSONByte.comma:
          index += 1
        case JSONByte.closeBracket:
          let close = batch.count + (index - segment)
          index += 1
          flush()
          terminal = .closed(close)
          envelope.append(JSONByte.closeBracket)
          return index
        case JSONByte.closeBrace:
          index += 1
          flush()
          startFailing(inBatch: true)
          return index
        case JSONByte.slash where options.allowsComments:
          gapComment = .slash
          index += 1
        default:
          valueStart = batch.count + (index - segment)
          index += 1
          guard tracker.begin(byte) != .anomaly else {
            flush()
            startFailing(inBatch: true)
            return index
          }
          inValue = true
        }
      }
    }
    return index
  }

  // MARK: - JSON Lines

  private mutating func consumeLines(_ input: UnsafeRawBufferPointer, from start: Int) -> Int {
    var index = start
    let end = input.count
    var segment = index
    @inline(__always) func flush() {
      if lineState == .value {
        unsafe batch.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[segment..<index]))
      }
      segment = index
    }
    defer { flush() }
    while index < end {
      let byte = unsafe input[index]
      if pendingReturn {
        // A `\r` ended the last chunk: a line break of its own unless this is its `\n`.
        pendingReturn = false
        if byte != JSONByte.newline, lineState != .start { lineBreaks += 1 }
        if byte == JSONByte.newline, lineState == .start {
          index += 1
          segment = index
          continue
        }
      }
      switch lineState {
      case .start:
        index += 1
        segment = index
        switch byte {
        case JSONByte.space, JSONByte.tab:
          column += 1
        case JSONByte.newline:
          line += 1
          column = 1
        case JSONByte.carriageReturn:
          line += 1
          column = 1
          if index < end {
            if unsafe input[index] == JSONByte.newline {
              index += 1
              segment = index
            }
          } else {
            pendingReturn = true
          }
        default:
          // The line's value starts here (a byte order mark too: the line is then read alone).
          index -= 1
          segment = index
          lineState = .value
          valueStart = batch.count
          lineBreaks = 0
          lineLocation = TextLocation(offset: offset + (index - start), line: line, column: column)
        }
      case .value, .discard:
        // Up to the line feed; a lone `\r` inside is a line break for locations.
        while index < end {
          let byte = unsafe input[index]
          if byte == JSONByte.newline { break }
          if byte == JSONByte.carriageReturn {
            if index + 1 < end {
              if unsafe input[index + 1] != JSONByte.newline { lineBreaks += 1 }
            } else {
              pendingReturn = true
            }
          }
          index += 1
        }
        if lineState == .value, batch.count + (index - segment) - valueStart > limit {
          // The line passed the limit: what it holds so far decides the error (4 more bytes
          // show the character at an error), and the rest of the line is skipped.
          let keep = Swift.max(0, limit + 4 - (batch.count - valueStart))
          unsafe batch.append(
            contentsOf: UnsafeRawBufferPointer(
              rebasing: input[segment..<Swift.min(index, segment + keep)]))
          segment = index
          lineTooLong()
        }
        guard index < end else { continue }
        flush()
        index += 1
        segment = index
        pendingReturn = false
        if lineState == .value { endLine(at: batch.count) }
        lineState = .start
        line += lineBreaks + 1
        column = 1
        lineBreaks = 0
        if isBatchFull { return index }
      }
    }
    return index
  }

  /// The line and column of the next JSON Lines byte, while between values.
  private var line = 1
  private var column = 1
  /// The lone `\r`s in the current line's value.
  private var lineBreaks = 0

  /// The current line's value ends at batch position `end` (its `\n`, or the end of input).
  private mutating func endLine(at end: Int) {
    let range = valueStart..<end
    if options.allowsComments, Self.isBlank(batch[range]) {
      batch.removeSubrange(range)
      return
    }
    elements.append(range)
    lineStarts.append(lineLocation)
    batch.append(JSONByte.newline)
    batch.append(JSONByte.comma)
    cut = batch.count
  }

  /// The most bytes after an error's location that can decide it (a surrogate pair's 12).
  static let errorLookAhead = 12

  /// The current line passed the size limit: it fails with the first error in what it holds
  /// (when the bytes before the limit decide it), or with the limit, and the rest of the line
  /// is skipped.
  private mutating func lineTooLong() {
    let range = valueStart..<batch.count
    let index = firstIndex + elements.count
    let error: FormatError = unsafe batch.withUnsafeBufferPointer { buffer in
      let bytes = unsafe UnsafeBufferPointer(rebasing: buffer[range])
      // Only an error the held bytes decide whatever follows counts: one at least 12 bytes
      // (the longest look-ahead of an error, a `\ud83d\ude39` pair) before the limit. Closer
      // to the limit, the end of what is held can make one up (a high surrogate whose pair was
      // cut off), and what is held past the limit depends on the chunks.
      if let error = unsafe Self.documentError(bytes, options: options), let at = error.location,
        at.offset + Self.errorLookAhead <= limit, at.offset < bytes.count
      {
        return translated(error, base: lineLocation, skipping: 0, element: index)
      }
      return FormatError(
        path: _jsonPointer([_PathComponent.index(index)]),
        .syntax(
          message: "the line is larger than the element size limit of "
            + "\(MessageText.grouped(limit)) bytes",
          location: lineLocation))
    }
    batch.removeSubrange(range)
    lineFailures[elements.count] = error
    elements.append(batch.count..<batch.count)
    lineStarts.append(lineLocation)
    batch.append(JSONByte.newline)
    batch.append(JSONByte.comma)
    cut = batch.count
    lineState = .discard
  }

  /// Whether `bytes` (a line from its first non-blank byte, comments allowed) hold only
  /// whitespace and complete comments.
  private static func isBlank(_ bytes: ArraySlice<UInt8>) -> Bool {
    var comment = JSONValueTracker.Comment.none
    for byte in bytes {
      if comment != .none {
        guard JSONValueTracker.follow(&comment, byte) else { return false }
      } else if byte == JSONByte.slash {
        comment = .slash
      } else if !JSONByte.isWhitespace(byte) {
        return false
      }
    }
    return comment == .none || comment == .line
  }

  // MARK: - Reading a batch

  /// Reports the batch's elements (and failed lines) to `body`, which returns `false` to stop,
  /// and says how the batch ended.
  package mutating func read(_ body: (_StreamItem) -> Bool) -> _StreamBatchOutcome {
    guard !done else { return .stopped }
    if keys == nil { return readLines(body) }
    if !elements.isEmpty || terminal != nil {
      let outcome = readArrayBatch(body)
      guard case .more = outcome else {
        done = true
        return outcome
      }
    }
    if let failure {
      done = true
      return .failed(failure)
    }
    if case .stopped = phase {
      // An error in the envelope.
      if let error = envelopeScanError() {
        done = true
        return .failed(error)
      }
      // Not expected: the envelope is valid after all. Read the rest whole.
      navigation = .whole
      phase = .envelope
    }
    if ended, case .envelope = phase {
      done = true
      return finishEnvelope()
    }
    return .more
  }

  /// The end of the payload: the envelope read as a document.
  private mutating func finishEnvelope() -> _StreamBatchOutcome {
    if prefixCount == nil, layout.keys?.isEmpty == true {
      // Not an array: the whole payload, for the caller to map as it maps any payload.
      if let error = envelopeScanError() { return .failed(error) }
      return .finished(.document(envelope))
    }
    let node: Node
    do throws(FormatError) {
      node = try _Tape(json: envelope, options: options).node(at: 0)
    } catch {
      return .failed(translatedEnvelopeError(error))
    }
    if prefixCount != nil {
      return .finished(.streamed(envelope: layout.keys?.isEmpty == true ? Node?.none : node))
    }
    return .finished(.envelope(node))
  }

  private mutating func readArrayBatch(_ body: (_StreamItem) -> Bool) -> _StreamBatchOutcome {
    let standIn = contentStart == 3
    let scanEnd: Int
    var closes = false
    switch terminal {
    case nil:
      scanEnd = cut
      closes = true
    case .closed(let position):
      scanEnd = position + 1
    case .error, .tooLarge:
      scanEnd = batch.count
    }
    var stoppedByBody = false
    var thrown: FormatError?
    let savedByte: UInt8? = closes && scanEnd < batch.count ? batch[scanEnd] : nil
    if closes {
      if scanEnd < batch.count {
        batch[scanEnd] = JSONByte.closeBracket
      } else {
        batch.append(JSONByte.closeBracket)
      }
    }
    let firstIndex = self.firstIndex
    let elements = self.elements
    let options = batchOptions
    unsafe batch.withUnsafeBufferPointer { buffer in
      let scanned = unsafe UnsafeBufferPointer(
        rebasing: buffer[0..<(closes ? scanEnd + 1 : scanEnd)])
      do throws(FormatError) {
        _ = unsafe try _JSONScanner.scanArrayElements(scanned, options: options) {
          offset, view, end in
          let slot = standIn ? offset - 1 : offset
          guard slot >= 0 else { return true }
          guard slot < elements.count, end == elements[slot].upperBound else {
            // Not the element the reader cut (a token such as `12x`): the scanner names the
            // error next.
            return true
          }
          let range = elements[slot]
          let bytes = unsafe UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[range]))
          if unsafe body(
            .element(index: firstIndex + slot, view: view, bytes: _ElementBytes(buffer: bytes)))
          {
            return true
          }
          stoppedByBody = true
          return false
        }
      } catch {
        thrown = error
      }
    }
    if closes {
      if let savedByte { batch[scanEnd] = savedByte } else { batch.removeLast() }
    }
    if stoppedByBody { return .stopped }
    if var error = thrown {
      if closes, let location = error.location, location.offset == scanEnd, scanEnd < batch.count {
        // The error is at the `]` put after the batch's last element (a number or a literal
        // cut short: `1.`): the same scan with the byte that really follows it.
        error = unsafe batch.withUnsafeBufferPointer { buffer in
          do throws(FormatError) {
            _ = unsafe try _JSONScanner.scanArrayElements(
              UnsafeBufferPointer(rebasing: buffer[0..<scanEnd + 1]), options: options
            ) { _, _, _ in true }
            return error
          } catch {
            return error
          }
        }
      }
      if case .tooLarge(let elementStart) = terminal, let location = error.location,
        location.offset >= scanEnd
      {
        return .failed(tooLargeError(elementStart: elementStart))
      }
      return .failed(translatedBatchError(error))
    }
    switch terminal {
    case .error:
      // Not expected: the scanner found no error where the reader stopped.
      return .failed(
        FormatError(.syntax(message: "invalid JSON", location: streamLocation(ofBatch: scanEnd))))
    case .tooLarge(let elementStart):
      return .failed(tooLargeError(elementStart: elementStart))
    case .closed(let position):
      closeLocation = streamLocation(ofBatch: position)
      phase = .envelope
      if let keys, !keys.isEmpty {
        pathDepth = keys.count
        navigation = .afterValue
      } else {
        navigation = .trailing
      }
      terminal = nil
      self.elements = []
      batch = []
      return .more
    case nil:
      compact()
      return .more
    }
  }

  /// Starts the next batch with the bytes after the last complete element.
  private mutating func compact() {
    batchLocation = streamLocation(ofBatch: cut)
    firstIndex += elements.count
    // The stand-in for the elements read is `""`: nothing that follows can become part of it
    // (a `0` would: `0.5`), and it opens no container (the depth limit may allow none).
    var next: [UInt8] = [JSONByte.openBracket, JSONByte.quote, JSONByte.quote]
    next.reserveCapacity(Swift.max(batch.count - cut + 3, Swift.min(batch.capacity, 1 << 16)))
    next.append(contentsOf: batch[cut...])
    valueStart += 3 - cut
    batch = next
    contentStart = 3
    cut = 3
    elements.removeAll(keepingCapacity: true)
  }

  private func tooLargeError(elementStart: Int?) -> FormatError {
    FormatError(
      path: _jsonPointer(arrayPath + [.index(firstIndex + elements.count)]),
      .syntax(
        message: "the element is larger than the element size limit of "
          + "\(MessageText.grouped(limit)) bytes",
        location: streamLocation(ofBatch: elementStart ?? cut)))
  }

  // MARK: - Reading JSON Lines

  private mutating func readLines(_ body: (_StreamItem) -> Bool) -> _StreamBatchOutcome {
    while readCursor < elements.count {
      if let failure = lineFailures[readCursor] {
        let index = firstIndex + readCursor
        readCursor += 1
        guard body(.failedElement(index: index, error: failure)) else {
          done = true
          return .stopped
        }
        continue
      }
      // The lines up to the next failed one, scanned as one array.
      var stop = readCursor
      while stop < elements.count, lineFailures[stop] == nil { stop += 1 }
      let first = readCursor
      let slotStart = elements[first].lowerBound - 1
      let closeAt = elements[stop - 1].upperBound + 1
      let savedStart = batch[slotStart]
      let savedClose = batch[closeAt]
      batch[slotStart] = JSONByte.openBracket
      batch[closeAt] = JSONByte.closeBracket
      var anomaly: Int?
      var stopped = false
      // How many lines of the scan were delivered: the next one is the value in progress.
      var delivered = 0
      let firstIndex = self.firstIndex
      let elements = self.elements
      let options = batchOptions
      unsafe batch.withUnsafeBufferPointer { buffer in
        let scanned = unsafe UnsafeBufferPointer(rebasing: buffer[slotStart...closeAt])
        do throws(FormatError) {
          _ = unsafe try _JSONScanner.scanArrayElements(scanned, options: options) {
            offset, view, end in
            let slot = first + offset
            guard slot < stop else {
              anomaly = slot
              return false
            }
            let range = elements[slot]
            // Only whitespace may follow the value on its line; anything else is read again
            // as the line's own document.
            var after = slotStart + end
            while after < range.upperBound, unsafe JSONByte.isWhitespace(buffer[after]) {
              after += 1
            }
            guard after == range.upperBound else {
              anomaly = slot
              return false
            }
            let bytes = unsafe UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[range]))
            guard
              unsafe body(
                .element(index: firstIndex + slot, view: view, bytes: _ElementBytes(buffer: bytes)))
            else {
              stopped = true
              return false
            }
            delivered = offset + 1
            return true
          }
        } catch {
          // The value in progress failed: its line is read again as its own document. The error
          // may lie on a later line (a value left open runs on through the lines after it), so
          // the line is the first one not delivered, not the one holding the error.
          if first + delivered < stop {
            anomaly = first + delivered
          } else {
            let position = slotStart + (error.location?.offset ?? 0)
            var slot = first
            while slot + 1 < stop, elements[slot + 1].lowerBound <= position { slot += 1 }
            anomaly = slot
          }
        }
      }
      batch[slotStart] = savedStart
      batch[closeAt] = savedClose
      if stopped {
        done = true
        return .stopped
      }
      if let slot = anomaly {
        readCursor = slot + 1
        guard readLineAlone(slot, body) else {
          done = true
          return .stopped
        }
      } else {
        readCursor = stop
      }
    }
    // The batch is read: the next one starts with the line in progress.
    let kept = lineState == .value ? Array(batch[valueStart...]) : []
    firstIndex += elements.count
    elements.removeAll(keepingCapacity: true)
    lineStarts.removeAll(keepingCapacity: true)
    lineFailures.removeAll()
    readCursor = 0
    batch.removeAll(keepingCapacity: true)
    batch.append(JSONByte.openBracket)
    valueStart = batch.count
    batch += kept
    cut = 1
    if ended {
      done = true
      return .finished(.streamed(envelope: nil))
    }
    return .more
  }

  /// Reads line `slot` as the document it is: its value, or its first error.
  private func readLineAlone(_ slot: Int, _ body: (_StreamItem) -> Bool) -> Bool {
    let range = elements[slot]
    let index = firstIndex + slot
    let location = lineStarts[slot]
    return unsafe batch.withUnsafeBufferPointer { buffer in
      let bytes = unsafe UnsafeBufferPointer(rebasing: buffer[range])
      let scanned: (entries: [_PackedEntry], longLengths: [_LongLength])
      do throws(FormatError) {
        scanned = unsafe try _JSONScanner.scan(bytes, options: options)
      } catch {
        return body(
          .failedElement(
            index: index, error: translated(error, base: location, skipping: 0, element: index)))
      }
      return unsafe scanned.entries.withUnsafeBufferPointer { entries in
        unsafe scanned.longLengths.withUnsafeBufferPointer { longLengths in
          unsafe _UnsafeTapeView.with(entries: entries, bytes: bytes, longLengths: longLengths) {
            view in
            unsafe body(
              .element(
                index: index, view: view,
                bytes: _ElementBytes(buffer: UnsafeRawBufferPointer(bytes))))
          }
        }
      }
    }
  }

  /// The first error of `bytes` read as one document, if any.
  private static func documentError(
    _ bytes: UnsafeBufferPointer<UInt8>, options: JSONReadingOptions
  ) -> FormatError? {
    do throws(FormatError) {
      _ = unsafe try _JSONScanner.scan(bytes, options: options)
      return nil
    } catch {
      return error
    }
  }

  // MARK: - Locations and errors

  /// The stream location of batch position `position`.
  private func streamLocation(ofBatch position: Int) -> TextLocation {
    let relative = unsafe batch.withUnsafeBufferPointer { buffer in
      unsafe Self.advance(
        TextLocation(offset: 0, line: 1, column: 1),
        over: UnsafeBufferPointer(
          rebasing: buffer[contentStart..<Swift.max(contentStart, position)]))
    }
    return Self.combine(batchLocation, relative, skipping: 0)
  }

  /// The stream location of envelope position `position`.
  private func envelopeLocation(of position: Int) -> TextLocation {
    guard let prefixCount, position >= prefixCount, let closeLocation else {
      return Self.location(of: position, in: envelope)
    }
    let relative = unsafe envelope.withUnsafeBufferPointer { buffer in
      unsafe Self.advance(
        TextLocation(offset: 0, line: 1, column: 1),
        over: UnsafeBufferPointer(rebasing: buffer[prefixCount..<position]))
    }
    return Self.combine(closeLocation, relative, skipping: 0)
  }

  /// An error the scanner found in the envelope, at its stream location.
  private func translatedEnvelopeError(_ error: FormatError) -> FormatError {
    error.mapLocations { relative in
      // The scanner's location is over the whole envelope: before the array it is the
      // stream's; after it, it continues from the array's `]`.
      guard let prefixCount, closeLocation != nil, relative.offset >= prefixCount else {
        return relative
      }
      return envelopeLocation(of: relative.offset)
    } lineColumn: { line, column in
      guard let prefixCount, let closeLocation else { return (line, column) }
      let split = Self.location(of: prefixCount, in: envelope)
      guard line > split.line || (line == split.line && column > split.column) else {
        return (line, column)
      }
      let relative = TextLocation(
        offset: 0, line: line - split.line + 1,
        column: line == split.line ? column - split.column + 1 : column)
      let mapped = Self.combine(closeLocation, relative, skipping: 0)
      return (mapped.line, mapped.column)
    }.withDepthLimit(options.maximumDepth)
  }

  /// An error the scanner found in the batch, at its stream location and with its element's
  /// path.
  private func translatedBatchError(_ error: FormatError) -> FormatError {
    var error = error
    let standIn = contentStart == 3
    if !error.path.isEmpty {
      // A duplicate key's path starts with the element's position in the batch.
      let segments = error.path.split(
        separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
      if segments.count >= 2, let position = Int(segments[1]) {
        let index = firstIndex + position - (standIn ? 1 : 0)
        let rest = segments.count > 2 ? "/" + segments[2] : ""
        error.path = _jsonPointer(arrayPath + [.index(index)]) + rest
      }
    }
    return translated(error, base: batchLocation, skipping: contentStart, element: nil)
  }

  /// `error`, found by the scanner in a buffer whose `skipping` first (ASCII) bytes are not the
  /// stream's and whose next byte is at stream location `base`, at its stream location; with
  /// `element`, its path continues the element's.
  private func translated(
    _ error: FormatError, base: TextLocation, skipping: Int, element: Int?
  ) -> FormatError {
    var error = error.mapLocations {
      Self.combine(base, $0, skipping: skipping)
    } lineColumn: {
      line, column in
      let mapped = Self.combine(
        base, TextLocation(offset: skipping, line: line, column: column), skipping: skipping)
      return (mapped.line, mapped.column)
    }.withDepthLimit(options.maximumDepth)
    if let element {
      error.path = _jsonPointer(arrayPath + [.index(element)]) + error.path
    }
    return error
  }

  /// `relative`, a location in a buffer whose first `skipping` ASCII bytes come before the
  /// stream's byte at `base`, as a stream location.
  private static func combine(_ base: TextLocation, _ relative: TextLocation, skipping: Int)
    -> TextLocation
  {
    let offset = base.offset + relative.offset - skipping
    guard relative.line == 1 else {
      return TextLocation(
        offset: offset, line: base.line + relative.line - 1, column: relative.column)
    }
    return TextLocation(
      offset: offset, line: base.line, column: base.column + relative.column - 1 - skipping)
  }

  /// The location after `bytes`, which begin at `start` (line breaks as the scanner counts
  /// them: `\n`, `\r\n`, `\r`; columns in Unicode scalars).
  package static func advance(_ start: TextLocation, over bytes: UnsafeBufferPointer<UInt8>)
    -> TextLocation
  {
    let count = bytes.count
    // The common case, bytes without `\r`, eight bytes at a time: this runs over every batch,
    // and a byte-at-a-time loop cost as much as a tenth of streaming an array.
    let whole = unsafe Self.byteCounts(bytes)
    if whole.returns == 0 {
      var scalars = count - whole.continuations
      if whole.lineFeeds > 0 {
        var lastLine = count
        while lastLine > 0, unsafe bytes[lastLine - 1] != JSONByte.newline { lastLine -= 1 }
        let tail = unsafe UnsafeBufferPointer(rebasing: bytes[lastLine...])
        scalars = unsafe tail.count - Self.byteCounts(tail).continuations
      }
      return TextLocation(
        offset: start.offset + count, line: start.line + whole.lineFeeds,
        column: (whole.lineFeeds > 0 ? 1 : start.column) + scalars)
    }
    var line = start.line
    var column = start.column
    var index = 0
    while index < count {
      let byte = unsafe bytes[index]
      if byte == JSONByte.newline {
        line += 1
        column = 1
      } else if byte == JSONByte.carriageReturn {
        if unsafe index + 1 < count && bytes[index + 1] == JSONByte.newline { index += 1 }
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
      index += 1
    }
    return TextLocation(offset: start.offset + count, line: line, column: column)
  }

  /// How many line feeds, carriage returns and UTF-8 continuation bytes `bytes` hold, counted a
  /// word at a time.
  static func byteCounts(_ bytes: UnsafeBufferPointer<UInt8>)
    -> (lineFeeds: Int, returns: Int, continuations: Int)
  {
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let high: UInt64 = 0x8080_8080_8080_8080
    /// The high bit of each byte of `word` that is zero.
    @inline(__always) func zeros(_ word: UInt64) -> UInt64 {
      ~(((word & low) &+ low) | word | low)
    }
    var lineFeeds = 0
    var returns = 0
    var continuations = 0
    var index = 0
    let count = bytes.count
    /// The sum of the eight byte lanes of `word`.
    @inline(__always) func lanes(_ word: UInt64) -> Int {
      Int(truncatingIfNeeded: (word &* 0x0101_0101_0101_0101) >> 56)
    }
    if let base = bytes.baseAddress {
      let raw = unsafe UnsafeRawPointer(base)
      @inline(__always) func word(_ offset: Int) -> UInt64 {
        unsafe raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      }
      while index + 8 <= count {
        // Each byte lane counts up to 31 words (a lane sum under 256), then they are added up.
        var feedLanes: UInt64 = 0
        var returnLanes: UInt64 = 0
        var continuationLanes: UInt64 = 0
        var words = 0
        while words < 31, index + 8 <= count {
          if index + 32 <= count {
            // Most blocks of 32 bytes hold none of these bytes (each byte under 0x80 and from
            // 0x0E on): skipped with one test.
            let (w0, w1, w2, w3) = (
              word(index), word(index + 8), word(index + 16), word(index + 24)
            )
            let atLeast0E =
              ((w0 & low) &+ 0x7272_7272_7272_7272) & ((w1 & low) &+ 0x7272_7272_7272_7272)
              & ((w2 & low) &+ 0x7272_7272_7272_7272) & ((w3 & low) &+ 0x7272_7272_7272_7272)
            if (w0 | w1 | w2 | w3 | ~atLeast0E) & high == 0 {
              index += 32
              continue
            }
          }
          let word = word(index)
          index += 8
          words += 1
          feedLanes &+= zeros(word ^ 0x0A0A_0A0A_0A0A_0A0A) >> 7
          returnLanes &+= zeros(word ^ 0x0D0D_0D0D_0D0D_0D0D) >> 7
          continuationLanes &+= (word & ~(word << 1) & high) >> 7
        }
        lineFeeds &+= lanes(feedLanes)
        returns &+= lanes(returnLanes)
        continuations &+= lanes(continuationLanes)
      }
    }
    while index < count {
      let byte = unsafe bytes[index]
      if byte == JSONByte.newline { lineFeeds += 1 }
      if byte == JSONByte.carriageReturn { returns += 1 }
      if byte & 0xC0 == 0x80 { continuations += 1 }
      index += 1
    }
    return (lineFeeds, returns, continuations)
  }

  /// The location of `position` in `bytes`, read from their start (a leading byte order mark
  /// is not counted in columns).
  private static func location(of position: Int, in bytes: [UInt8]) -> TextLocation {
    unsafe bytes.withUnsafeBufferPointer { unsafe _JSONScanner.location(of: position, in: $0) }
  }
}

extension FormatError {
  /// The location the error's kind carries, if any.
  package var location: TextLocation? {
    switch kind {
    case .syntax(_, let location), .depthLimitExceeded(_, let location),
      .invalidUTF8(let location):
      return location
    case .nonFiniteNumber, .invalidNumber, .notRepresentable:
      return nil
    }
  }

  /// The error with its location moved by `transform`, and the "(first at line L, column C)"
  /// of a duplicate key's message by `lineColumn`.
  fileprivate func mapLocations(
    _ transform: (TextLocation) -> TextLocation,
    lineColumn: (Int, Int) -> (Int, Int)
  ) -> FormatError {
    var error = self
    switch kind {
    case .syntax(let message, let location):
      error.kind = .syntax(
        message: Self.mapFirstAt(in: message, lineColumn), location: transform(location))
    case .depthLimitExceeded(let limit, let location):
      error.kind = .depthLimitExceeded(limit: limit, location: transform(location))
    case .invalidUTF8(let location):
      error.kind = .invalidUTF8(location: transform(location))
    case .nonFiniteNumber, .invalidNumber, .notRepresentable:
      break
    }
    return error
  }

  /// The error with a depth limit of `limit` (a batch is scanned with the limit moved).
  fileprivate func withDepthLimit(_ limit: Int) -> FormatError {
    guard case .depthLimitExceeded(_, let location) = kind else { return self }
    var error = self
    error.kind = .depthLimitExceeded(limit: limit, location: location)
    return error
  }

  private static func mapFirstAt(in message: String, _ lineColumn: (Int, Int) -> (Int, Int))
    -> String
  {
    let marker = "(first at line "
    guard let start = message.range(of: marker) else { return message }
    let rest = message[start.upperBound...]
    let digits = rest.prefix { $0.isNumber }
    let afterLine = rest.dropFirst(digits.count)
    guard let line = Int(digits), afterLine.hasPrefix(", column ") else { return message }
    let columnText = afterLine.dropFirst(", column ".count)
    let columnDigits = columnText.prefix { $0.isNumber }
    guard let column = Int(columnDigits), columnText.dropFirst(columnDigits.count).hasPrefix(")")
    else { return message }
    let (newLine, newColumn) = lineColumn(line, column)
    return String(message[..<start.lowerBound]) + marker + "\(newLine), column \(newColumn)"
      + String(columnText.dropFirst(columnDigits.count))
  }
}

extension String {
  /// The range of the first occurrence of `text`.
  fileprivate func range(of text: String) -> Range<String.Index>? {
    var index = startIndex
    while index < endIndex {
      if self[index...].hasPrefix(text) { return index..<self.index(index, offsetBy: text.count) }
      index = self.index(after: index)
    }
    return nil
  }
}
