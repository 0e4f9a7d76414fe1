import Testing

@testable import ObjectMappingDocument

/// The value tracker's fast scan (``JSONValueTracker/scan(_:from:to:)``, eight bytes at a
/// time) against the tracker followed byte by byte (``JSONValueTracker/step(_:)``), which it
/// stands for when the stream reader cuts an array into elements: the same first byte that
/// ends the value or is an error, whatever chunks the bytes arrive in.
@Suite struct StreamingTrackerTests {
  /// What following a value gave: where it ended or failed, and how; or the state it was left
  /// in when the bytes ran out.
  enum Outcome: Equatable {
    case stopped(at: Int, step: String)
    case open(inString: Bool, depth: Int)
  }

  /// The tracker followed byte by byte.
  static func byteByByte(_ bytes: [UInt8], comments: Bool, depthLimit: Int) -> Outcome {
    var tracker = JSONValueTracker(allowsComments: comments, depthLimit: depthLimit)
    let first = tracker.begin(bytes[0])
    if first != .inside { return .stopped(at: 0, step: "\(first)") }
    for position in 1..<bytes.count {
      let step = tracker.step(bytes[position])
      if step != .inside { return .stopped(at: position, step: "\(step)") }
    }
    return .open(inString: tracker.inString, depth: tracker.depth)
  }

  /// The tracker as the stream reader runs it: the fast scan over each chunk, and a byte by
  /// byte step where the scan leaves one.
  static func scanned(_ bytes: [UInt8], comments: Bool, depthLimit: Int, chunkSize: Int)
    -> Outcome
  {
    var tracker = JSONValueTracker(allowsComments: comments, depthLimit: depthLimit)
    let first = tracker.begin(bytes[0])
    if first != .inside { return .stopped(at: 0, step: "\(first)") }
    var start = 1
    while start < bytes.count {
      // Each chunk is an array of its own: reading past its end is caught by the sanitizers.
      let chunk = Array(bytes[start..<min(bytes.count, start + chunkSize)])
      let stop: Outcome? = chunk.withUnsafeBytes { input in
        var index = 0
        while index < input.count {
          var (next, step) = tracker.scan(input, from: index, to: input.count)
          if step == .inside {
            guard next < input.count else { return nil }
            step = tracker.step(input[next])
            next += 1
          }
          if step != .inside { return .stopped(at: start + next - 1, step: "\(step)") }
          index = next
        }
        return nil
      }
      if let stop { return stop }
      start += chunk.count
    }
    return .open(inString: tracker.inString, depth: tracker.depth)
  }

  /// Bytes that matter to the tracker, and some that look like them (`Y`, `_`, `y`, DEL share
  /// the brackets' bit pattern but one), in values of every length.
  static let alphabet: [UInt8] =
    Array("\"\"\\\\[]{}[]{}/*:,YZ_y ab1".utf8)
    + [0x7F, 0x0A, 0x0D, 0x09, 0x01, 0x1F, 0xC3, 0xA9]

  /// A seeded generator (SplitMix64), so a failure names its input.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  @Test func theScanStopsWhereFollowingByteByByteStops() {
    var generator = Generator(state: 40)
    var checked = 0
    for length in [2, 7, 8, 9, 15, 16, 17, 31, 64, 200] {
      for _ in 0..<300 {
        var bytes = [[UInt8(ascii: "["), UInt8(ascii: "{")].randomElement(using: &generator)!]
        for _ in 1..<length {
          bytes.append(Self.alphabet.randomElement(using: &generator)!)
        }
        for comments in [false, true] {
          for depthLimit in [2, 64] {
            let expected = Self.byteByByte(bytes, comments: comments, depthLimit: depthLimit)
            for chunkSize in [1, 3, 8, 13, 1 << 10] {
              let got = Self.scanned(
                bytes, comments: comments, depthLimit: depthLimit, chunkSize: chunkSize)
              #expect(
                got == expected,
                "\(bytes) comments \(comments) depth \(depthLimit) chunks \(chunkSize)")
              checked += 1
            }
          }
        }
      }
    }
    #expect(checked == 10 * 300 * 2 * 2 * 5)
  }

  @Test func valuesEndAtTheirClosingBracketWhateverTheirStrings() {
    let text = #"{"a":"x\"]}","b":[1,{"c":"\\"}],"d":"é}\u005d"} ,"#
    let bytes = Array(text.utf8)
    let end = Array(#"{"a":"x\"]}","b":[1,{"c":"\\"}],"d":"é}\u005d"}"#.utf8).count - 1
    for chunkSize in 1...bytes.count {
      #expect(
        Self.scanned(bytes, comments: false, depthLimit: 64, chunkSize: chunkSize)
          == .stopped(at: end, step: "endsAfter"), "chunks \(chunkSize)")
    }
  }

  @Test func aControlCharacterInAStringIsAnAnomalyWhereItIs() {
    let bytes = Array(#"["abcdefghijklmnop"#.utf8) + [0x0A] + Array(#"q"]"#.utf8)
    for chunkSize in [1, 4, 8, 64] {
      #expect(
        Self.scanned(bytes, comments: false, depthLimit: 64, chunkSize: chunkSize)
          == .stopped(at: 18, step: "anomaly"), "chunks \(chunkSize)")
    }
  }

  @Test func aBracketClosingTheWrongContainerOrPastTheDepthLimitIsAnAnomaly() {
    let mismatched = Array(#"[{"a":1]}"#.utf8)
    #expect(
      Self.scanned(mismatched, comments: false, depthLimit: 64, chunkSize: 64)
        == .stopped(at: 7, step: "anomaly"))
    let deep = Array("[[[[1]]]]".utf8)
    #expect(
      Self.scanned(deep, comments: false, depthLimit: 3, chunkSize: 64)
        == .stopped(at: 3, step: "anomaly"))
  }
}
