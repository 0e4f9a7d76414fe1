import Dispatch
import Foundation
import ObjectMapping

/// Streams the input with `elements(of:as:)`, split into chunks at points drawn from the input
/// itself (a fixed seed per input: a replay splits it the same way), and checks it against the
/// whole payload. As a top-level array, the elements are those of `mapCollection` on the whole
/// payload, or its error ends the stream (after the elements before it); as an array under a key
/// path and as JSON Lines, every chunking gives what one whole chunk gives. Strict reading, and
/// a lenient reading with a small depth limit and duplicate keys rejected; then a small element
/// size limit, fed a byte at a time.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStreamReader(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  let seed = bytes.reduce(UInt64(0xCBF2_9CE4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
  var random = SplitMix(state: seed)

  /// `precondition` that prints its message in release builds too.
  func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
  }

  let readings = [
    JSONReadingOptions.strict,
    JSONReadingOptions(
      maximumDepth: 4, allowsComments: true, allowsTrailingCommas: true,
      allowsByteOrderMark: true, rejectsDuplicateKeys: true),
  ]
  for reading in readings {
    let options = StreamOptions(reading: reading)
    for layout in [StreamLayout.array, .array(at: "data"), .jsonLines] {
      let whole = outcome(of: [bytes], layout: layout, options: options)
      if layout == .array {
        let expected: String
        do {
          let values = try ValueBox.mapping.mapCollection(.json(bytes, reading: reading))
          expected = values.map { "\($0.value)" }.joined(separator: "\n")
        } catch {
          expected = "error: \(error)"
        }
        let agrees =
          whole == expected
          || (expected.hasPrefix("error: ")
            && whole.split(separator: "\n").last.map(String.init)
              == expected)
        require(agrees, "one chunk gave\n\(whole)\nthe whole payload\n\(expected)")
      }
      for _ in 0..<3 {
        var chunks: [[UInt8]] = []
        var position = 0
        while position < bytes.count {
          let size = Int(random.next() % 9) + 1
          chunks.append(Array(bytes[position..<min(bytes.count, position + size)]))
          position += size
        }
        let split = outcome(of: chunks, layout: layout, options: options)
        require(split == whole, "\(layout) in chunks gave\n\(split)\nin one chunk\n\(whole)")
      }
    }
  }
  let limited = StreamOptions(maximumElementSize: 16)
  for layout in [StreamLayout.array, .jsonLines] {
    let once = outcome(of: [bytes], layout: layout, options: limited)
    let bytewise = outcome(of: bytes.map { [$0] }, layout: layout, options: limited)
    require(once == bytewise, "with a limit, bytes gave\n\(bytewise)\none chunk\n\(once)")
  }
  return 0
}

/// Any JSON value, as it is.
struct ValueBox: Sendable {
  var value: Node = .null
  static let mapping = Mapping(ValueBox.init) { Attribute(.root, \.value) }
}

/// The elements streamed from `chunks`, one per line, then the error that ended the stream.
func outcome(of chunks: [[UInt8]], layout: StreamLayout, options: StreamOptions) -> String {
  let waiter = Waiter()
  Task {
    var lines: [String] = []
    do {
      for try await element in ValueBox.mapping.elements(
        of: Chunks(chunks: chunks), as: layout, options: options)
      {
        lines.append("\(element.value)")
      }
    } catch {
      lines.append("error: \(error)")
    }
    waiter.finish(lines.joined(separator: "\n"))
  }
  return waiter.wait()
}

/// Chunks given in turn.
struct Chunks: AsyncSequence, Sendable {
  let chunks: [[UInt8]]
  func makeAsyncIterator() -> Iterator { Iterator(chunks: chunks) }
  struct Iterator: AsyncIteratorProtocol {
    let chunks: [[UInt8]]
    var index = 0
    mutating func next() async -> [UInt8]? {
      guard index < chunks.count else { return nil }
      defer { index += 1 }
      return chunks[index]
    }
  }
}

/// SplitMix64: the chunk sizes, from the input's hash.
struct SplitMix {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The text an async task produced, waited for (a fuzz target's entry point is synchronous).
final class Waiter: @unchecked Sendable {
  // @unchecked: `text` is written by the task before `done` is signalled and read after the
  // wait returns.
  private var text = ""
  private let done = DispatchSemaphore(value: 0)

  func finish(_ text: String) {
    self.text = text
    done.signal()
  }

  func wait() -> String {
    done.wait()
    return text
  }
}
