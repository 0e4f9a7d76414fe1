import struct Foundation.Data

/// Scanning a payload in place, for the mapping layer: the bytes of a `Data` or of a native
/// `String` are borrowed for the call, never copied, and the view handed to `body` is valid only
/// during it (``_UnsafeTapeView``'s invariant). Callers name no pointer.
extension _Tape {
  /// Scans the JSON text in `data` in place and calls `body` with a view of its tape.
  ///
  /// - Throws: `FormatError` for invalid JSON; `body` is not called then.
  package static func scan<Result>(
    jsonData data: Data, options: JSONReadingOptions, _ body: (_UnsafeTapeView) -> Result
  ) throws(FormatError) -> Result {
    unsafe try data.withUnsafeBytes { raw in
      unsafe scanInPlace(raw.bindMemory(to: UInt8.self), options: options, body)
    }.get()
  }

  /// ``scan(jsonData:options:_:)`` for a string: a native string's UTF-8 is read in place, a
  /// bridged one is made native first.
  package static func scan<Result>(
    jsonString string: String, options: JSONReadingOptions, _ body: (_UnsafeTapeView) -> Result
  ) throws(FormatError) -> Result {
    var string = string
    return try string.withUTF8 { unsafe scanInPlace($0, options: options, body) }.get()
  }

  /// Scans the top-level array in `data` one element at a time (see
  /// ``_JSONScanner/scanArrayElements(_:options:_:)``): `body` gets each element's position, a
  /// view of its entries, and the byte offset where it ends, and returns `false` to stop.
  ///
  /// - Returns: `.notAnArray` when the document is not an array (nothing was reported).
  /// - Throws: `FormatError` for invalid JSON, possibly after some elements were reported.
  package static func scanElements(
    jsonData data: Data, options: JSONReadingOptions,
    _ body: (_ offset: Int, _ element: _UnsafeTapeView, _ end: Int, _ total: Int) -> Bool
  ) throws(FormatError) -> _JSONScanner.ElementScan {
    unsafe try data.withUnsafeBytes { raw in
      unsafe scanElementsInPlace(raw.bindMemory(to: UInt8.self), options: options, body)
    }.get()
  }

  /// ``scanElements(jsonData:options:_:)`` for a string.
  package static func scanElements(
    jsonString string: String, options: JSONReadingOptions,
    _ body: (_ offset: Int, _ element: _UnsafeTapeView, _ end: Int, _ total: Int) -> Bool
  ) throws(FormatError) -> _JSONScanner.ElementScan {
    var string = string
    return try string.withUTF8 { unsafe scanElementsInPlace($0, options: options, body) }.get()
  }

  fileprivate static func scanInPlace<Result>(
    _ bytes: UnsafeBufferPointer<UInt8>, options: JSONReadingOptions,
    _ body: (_UnsafeTapeView) -> Result
  ) -> Swift.Result<Result, FormatError> {
    let index: (entries: [_PackedEntry], longLengths: [_LongLength])
    do throws(FormatError) {
      index = unsafe try _JSONScanner.scan(bytes, options: options)
    } catch {
      return .failure(error)
    }
    // Long strings that repeat share one storage during the reading (``_SharedStrings``).
    return unsafe .success(
      index.entries.withUnsafeBufferPointer { entries in
        unsafe index.longLengths.withUnsafeBufferPointer { longLengths in
          unsafe _SharedStrings.with(documentSize: bytes.count) { sharedStrings in
            unsafe _UnsafeTapeView.with(
              entries: entries, bytes: bytes, longLengths: longLengths,
              sharedStrings: sharedStrings, body)
          }
        }
      })
  }

  fileprivate static func scanElementsInPlace(
    _ bytes: UnsafeBufferPointer<UInt8>, options: JSONReadingOptions,
    _ body: (_ offset: Int, _ element: _UnsafeTapeView, _ end: Int, _ total: Int) -> Bool
  ) -> Swift.Result<_JSONScanner.ElementScan, FormatError> {
    Swift.Result { () throws(FormatError) in
      unsafe try _JSONScanner.scanArrayElements(bytes, options: options) { offset, element, end in
        body(offset, element, end, bytes.count)
      }
    }
  }
}

/// JSON text to scan in place: the bytes of a `Data`, a byte array or a string, borrowed for
/// the scan and never copied (a bridged string is made native first). How the mapping layer
/// hands its inputs to the scanner without naming a pointer.
package enum _JSONText {
  case data(Data)
  case bytes([UInt8])
  case string(String)

  /// Scans the text and calls `body` with a view of its tape, valid during the call.
  ///
  /// - Throws: `FormatError` for invalid JSON; `body` is not called then.
  package func scan<Result>(options: JSONReadingOptions, _ body: (_UnsafeTapeView) -> Result)
    throws(FormatError) -> Result
  {
    unsafe try withBytes { unsafe _Tape.scanInPlace($0, options: options, body) }.get()
  }

  /// Scans a top-level array one element at a time (see
  /// ``_Tape/scanElements(jsonData:options:_:)``).
  package func scanElements(
    options: JSONReadingOptions,
    _ body: (_ offset: Int, _ element: _UnsafeTapeView, _ end: Int, _ total: Int) -> Bool
  ) throws(FormatError) -> _JSONScanner.ElementScan {
    unsafe try withBytes { unsafe _Tape.scanElementsInPlace($0, options: options, body) }.get()
  }

  /// Reads the text into a ``Node``: scanned in place, with the numbers packed while they are
  /// scanned (``_JSONScanner/scanPackingNumbers(_:options:reserving:_:)``).
  ///
  /// - Throws: `FormatError` for invalid JSON (see ``_JSONScanner``).
  package func node(options: JSONReadingOptions) throws(FormatError) -> Node {
    unsafe try withBytes { bytes in
      Swift.Result { () throws(FormatError) in
        unsafe try _JSONScanner.scanPackingNumbers(bytes, options: options) { view, numbers in
          unsafe view.document(packedNumbers: numbers)
        }
      }
    }.get()
  }

  private func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    switch self {
    case .data(let data):
      return unsafe data.withUnsafeBytes { unsafe body($0.bindMemory(to: UInt8.self)) }
    case .bytes(let bytes):
      return unsafe bytes.withUnsafeBufferPointer(body)
    case .string(var string):
      return string.withUTF8(body)
    }
  }
}

extension _UnsafeTapeView {
  /// A view of no entries and no bytes: a placeholder until a real view is set.
  @inlinable
  package static var empty: _UnsafeTapeView {
    unsafe _UnsafeTapeView(
      entries: UnsafeBufferPointer(start: nil, count: 0),
      bytes: UnsafeBufferPointer(start: nil, count: 0))
  }
}
