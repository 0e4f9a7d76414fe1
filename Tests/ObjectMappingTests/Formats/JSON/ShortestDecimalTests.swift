import Foundation
import ObjectMappingDocument
import Testing

/// `_ShortestDecimal` (the Schubfach writer of doubles and floats) against the standard
/// library: the text must equal `description` byte for byte and read back bit for bit.
///
/// The default run checks a few hundred thousand values of each type, random and chosen
/// (subnormals, powers of two and ten with their neighbours, binade boundaries, the largest
/// and smallest, integers up to 2^53 and past it), plus the power table and the logarithm
/// approximations with exact integer arithmetic. Two opt-in runs check more:
///
/// - `OBJECT_MAPPING_SHORTEST_DOUBLES=N`: N million more random doubles (bit patterns, and
///   decimals of 1 to 17 digits).
/// - `OBJECT_MAPPING_EXHAUSTIVE_FLOATS=1`: every one of the 2^32 `Float` bit patterns, on all
///   cores. Build it optimized:
///   `OBJECT_MAPPING_EXHAUSTIVE_FLOATS=1 swift test -c release --filter ShortestDecimalTests`
///   (about 6 minutes on two cores; hours in a debug build).
@Suite struct ShortestDecimalTests {
  // MARK: - Helpers

  /// Checks one double: our text equals `description` and reads back as the same bits.
  @discardableResult
  private static func check(_ value: Double, sourceLocation: SourceLocation = #_sourceLocation)
    -> Bool
  {
    let text = _ShortestDecimal.text(value)
    let expected = value.description
    guard text == expected else {
      Issue.record(
        "\(value.bitPattern): wrote \(text), description is \(expected)",
        sourceLocation: sourceLocation)
      return false
    }
    guard value.isFinite else { return true }
    guard let parsed = Double(text), parsed.bitPattern == value.bitPattern else {
      Issue.record(
        "\(text) does not read back as \(value.bitPattern)", sourceLocation: sourceLocation)
      return false
    }
    return true
  }

  /// ``check(_:sourceLocation:)`` for a float.
  @discardableResult
  private static func check(_ value: Float, sourceLocation: SourceLocation = #_sourceLocation)
    -> Bool
  {
    let text = _ShortestDecimal.text(value)
    let expected = value.description
    guard text == expected else {
      Issue.record(
        "\(value.bitPattern): wrote \(text), description is \(expected)",
        sourceLocation: sourceLocation)
      return false
    }
    guard value.isFinite else { return true }
    guard let parsed = Float(text), parsed.bitPattern == value.bitPattern else {
      Issue.record(
        "\(text) does not read back as \(value.bitPattern)", sourceLocation: sourceLocation)
      return false
    }
    return true
  }

  /// Whether the text of `value` equals its `description`, without a `String` (for the large
  /// runs).
  private static func matchesDescription(_ value: Float, scratch: UnsafeMutablePointer<UInt8>)
    -> Bool
  {
    let count = _ShortestDecimal.write(value, to: scratch)
    var index = 0
    for byte in value.description.utf8 {
      guard index < count, scratch[index] == byte else { return false }
      index += 1
    }
    return index == count
  }

  // MARK: - The format

  private static let doubleTexts: [(Double, String)] = [
    (0.0, "0.0"), (-0.0, "-0.0"), (1.0, "1.0"), (-1.0, "-1.0"), (100.0, "100.0"), (0.1, "0.1"),
    (0.3, "0.3"), (1.0 / 3, "0.3333333333333333"), (123.456, "123.456"), (0.0001, "0.0001"),
    (0.000123, "0.000123"), (1e-5, "1e-05"), (9.999999999999999e-5, "9.999999999999999e-05"),
    (1e15, "1000000000000000.0"), (1e16, "1e+16"), (9_007_199_254_740_992, "9007199254740992.0"),
    (9_007_199_254_740_994, "9.007199254740994e+15"), (8.5e15, "8500000000000000.0"),
    (9.5e15, "9.5e+15"), (1.2345678901234568e17, "1.2345678901234568e+17"), (1e23, "1e+23"),
    (1e100, "1e+100"), (1.7976931348623157e308, "1.7976931348623157e+308"),
    (2.2250738585072014e-308, "2.2250738585072014e-308"), (Double.leastNonzeroMagnitude, "5e-324"),
    (-65.61361699999998, "-65.61361699999998"), (2.5e-5, "2.5e-05"), (16_777_216.0, "16777216.0"),
    (123_456_789.125, "123456789.125"), (1_234_567.5, "1234567.5"),
    (12_345_678_901.5, "12345678901.5"),
    (Double.nan, "nan"), (Double.infinity, "inf"), (-Double.infinity, "-inf"),
  ]

  @Test(arguments: doubleTexts)
  func doublesInDescriptionFormat(value: Double, text: String) {
    #expect(_ShortestDecimal.text(value) == text)
    #expect(value.description == text || value.isNaN)
  }

  private static let floatTexts: [(Float, String)] = [
    (0, "0.0"), (-0.0, "-0.0"), (0.1, "0.1"), (1 / 3, "0.33333334"),
    (16_777_216, "16777216.0"), (16_777_218, "1.6777218e+07"),
    (1e7, "10000000.0"), (1e-5, "1e-05"), (0.0001, "0.0001"),
    (Float.greatestFiniteMagnitude, "3.4028235e+38"), (Float.leastNormalMagnitude, "1.1754944e-38"),
    (Float.leastNonzeroMagnitude, "1e-45"), (Float(bitPattern: 20), "2.8e-44"),
    (Float.nan, "nan"), (-Float.infinity, "-inf"),
  ]

  @Test(arguments: floatTexts)
  func floatsInDescriptionFormatNotTheirDoubleExpansion(value: Float, text: String) {
    #expect(_ShortestDecimal.text(value) == text)
  }

  /// The writers print through it: `_JSONWriter.double`/`float` and `_appendShortestText`.
  @Test func writersUseTheShortestText() throws {
    var writer = _JSONWriter()
    writer.beginArray()
    try writer.double(-65.61361699999998)
    try writer.float(0.1)
    try writer.double(1e-7)
    try writer.float(3.4028235e38)
    writer.endArray()
    #expect(
      String(decoding: writer.bytes, as: UTF8.self)
        == "[-65.61361699999998,0.1,1e-07,3.4028235e+38]")
    #expect(throws: FormatError(.nonFiniteNumber(value: "nan"))) { try writer.float(.nan) }
    #expect(throws: FormatError(.nonFiniteNumber(value: "-inf"))) { try writer.float(-.infinity) }
    var bytes = Array("x=".utf8)
    _appendShortestText(of: 0.1 as Float, to: &bytes)
    bytes.append(UInt8(ascii: ","))
    _appendShortestText(of: 0.1 as Double, to: &bytes)
    bytes.append(UInt8(ascii: ","))
    _appendShortestText(of: Double(Float(0.1)), to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == "x=0.1,0.1,0.10000000149011612")
  }

  /// Without `pointZero`, the writer's text is `JSONEncoder`'s, in the same test: whole numbers
  /// without `.0` (`100`, `-0`), everything else as `description` (`9.5e+15`, `1e+16`, `0.1`).
  @Test func withoutPointZeroTheTextIsJSONEncoders() throws {
    var doubles: [Double] = [
      0, -0.0, 1, -1, 100, 0.1, 1e15, 9.5e15, 1e16, 9_007_199_254_740_992, 9_007_199_254_740_994,
      1e-7, 1e300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -65.61361699999998,
    ]
    var floats: [Float] = [
      0, -0.0, 1, 100, 0.1, 16_777_216, 16_777_218, 1e7, 2e7, .leastNonzeroMagnitude, 3.4e38,
    ]
    var generator = SplitMix64(seed: 0x7E50_E0C0_DE40_0038)
    for _ in 0..<10_000 {
      let double = Double(bitPattern: generator.next())
      if double.isFinite { doubles.append(double) }
      doubles.append(Double(Int64(bitPattern: generator.next()) >> (generator.next() % 64)))
      let float = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
      if float.isFinite { floats.append(float) }
      floats.append(Float(Int32(truncatingIfNeeded: generator.next()) >> (generator.next() % 32)))
    }
    let encoder = JSONEncoder()
    var writer = _JSONWriter()
    writer.beginArray()
    for value in doubles { try writer.double(value, pointZero: false) }
    for value in floats { try writer.float(value, pointZero: false) }
    writer.endArray()
    let foundation =
      try encoder.encode(doubles).dropLast() + [UInt8(ascii: ",")]
      + encoder.encode(floats).dropFirst()
    #expect(
      String(decoding: writer.bytes, as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
  }

  @Test func decimalsHaveNoTrailingZeros() {
    let cases: [(Double, UInt64, Int)] = [
      (1.0, 1, 0), (1e23, 1, 23), (-1200.0, 12, 2), (0.3, 3, -1),
      (.leastNonzeroMagnitude, 5, -324), (1.7976931348623157e308, 17_976_931_348_623_157, 292),
    ]
    for (value, significand, exponent) in cases {
      let decimal = _ShortestDecimal.decimal(value)
      #expect(decimal?.significand == significand && decimal?.exponent == exponent, "\(value)")
    }
    for value in [0.0, -0.0, .infinity, .nan] {
      #expect(_ShortestDecimal.decimal(value) == nil)
    }
  }

  // MARK: - Doubles

  @Test func randomDoubleBitPatterns() {
    var generator = SplitMix64(seed: 0x5C4B_FAC4_D0B1_E5E5)
    var checked = 0
    while checked < 200_000 {
      let value = Double(bitPattern: generator.next())
      guard value.isFinite else { continue }
      guard Self.check(value) else { return }
      checked += 1
    }
  }

  /// Short decimals (the values people write) and their neighbours: the shortest text must be
  /// the decimal itself.
  @Test func randomShortDecimalsAndTheirNeighbours() {
    var generator = SplitMix64(seed: 0x0D0C_1BA1_5EED_0017)
    for _ in 0..<30_000 {
      let digits = Int(generator.next() % 17) + 1
      var significand: UInt64 = generator.next() % 9 + 1
      for _ in 1..<digits { significand = significand * 10 + generator.next() % 10 }
      let exponent = Int(generator.next() % 600) - 320
      guard let value = Double("\(significand)e\(exponent)"), value.isFinite, value != 0 else {
        continue
      }
      guard Self.check(value), Self.check(value.nextUp), Self.check(-value.nextDown) else {
        return
      }
    }
  }

  @Test func subnormalsAndTheSmallestNormals() {
    for bits in UInt64(1)...20_000 {
      guard Self.check(Double(bitPattern: bits)) else { return }
    }
    let smallestNormal = Double.leastNormalMagnitude.bitPattern
    for bits in smallestNormal - 5_000...smallestNormal + 5_000 {
      guard Self.check(Double(bitPattern: bits)) else { return }
    }
    var generator = SplitMix64(seed: 0x50B_0000_0000_0001)
    for _ in 0..<20_000 {
      guard Self.check(Double(bitPattern: generator.next() % (1 << 52))) else { return }
    }
  }

  /// Every power of two (each the first value of its binade, whose rounding interval is
  /// lopsided) and its neighbours, with both signs.
  @Test func powersOfTwoAndBinadeBoundaries() {
    for exponent in -1074...1023 {
      let power = Double(sign: .plus, exponent: exponent, significand: 1)
      for value in [power, power.nextDown, power.nextUp, -power] {
        guard Self.check(value) else { return }
      }
    }
  }

  /// Every power of ten a double can hold and its neighbours.
  @Test func powersOfTenAndTheirNeighbours() {
    for exponent in -323...308 {
      guard let power = Double("1e\(exponent)"), power != 0, power.isFinite else { continue }
      for value in [power, power.nextDown, power.nextUp, -power] {
        guard Self.check(value) else { return }
      }
    }
  }

  @Test func theLargestDoubles() {
    let largest = Double.greatestFiniteMagnitude.bitPattern
    for bits in largest - 10_000...largest {
      guard Self.check(Double(bitPattern: bits)) else { return }
    }
  }

  /// Integers print as digits with `.0` up to 2^53 and in exponent form past it.
  @Test func integersUpToTwoToThe53AndPastIt() {
    for integer in 0...20_000 {
      guard Self.check(Double(integer)), Self.check(Double(-integer)) else { return }
    }
    let twoTo53: UInt64 = 1 << 53
    for integer in twoTo53 - 5_000...twoTo53 + 5_000 {
      guard Self.check(Double(integer)) else { return }
    }
    var generator = SplitMix64(seed: 0x1A7E_6E25_0000_0053)
    for _ in 0..<20_000 {
      let integer = generator.next() >> (generator.next() % 64)
      guard Self.check(Double(integer)) else { return }
    }
  }

  /// Opt-in: `OBJECT_MAPPING_SHORTEST_DOUBLES=N` checks N million random bit patterns and N
  /// million random short decimals.
  @Test(.enabled(if: ProcessInfo.processInfo.environment["OBJECT_MAPPING_SHORTEST_DOUBLES"] != nil))
  func manyMillionsOfDoubles() async {
    let millions =
      Int(ProcessInfo.processInfo.environment["OBJECT_MAPPING_SHORTEST_DOUBLES"] ?? "") ?? 10
    let failures = await withTaskGroup(of: Int.self) { group in
      let tasks = Swift.max(2, ProcessInfo.processInfo.activeProcessorCount)
      for task in 0..<tasks {
        group.addTask {
          var generator = SplitMix64(seed: 0xD0B1_E000 + UInt64(task))
          var failures = 0
          for _ in 0..<(millions * 1_000_000 / tasks) {
            let value = Double(bitPattern: generator.next())
            if value.isFinite && !Self.check(value) { failures += 1 }
            let digits = Int(generator.next() % 17) + 1
            var significand: UInt64 = generator.next() % 9 + 1
            for _ in 1..<digits { significand = significand * 10 + generator.next() % 10 }
            let scaled = Double(significand) * _exactPowerOfTen(Int(generator.next() % 44) - 22)
            if scaled.isFinite && !Self.check(scaled) { failures += 1 }
            if failures > 10 { return failures }
          }
          return failures
        }
      }
      return await group.reduce(0, +)
    }
    #expect(failures == 0)
  }

  // MARK: - Floats

  @Test func randomFloatsAndTheirEdges() {
    var generator = SplitMix64(seed: 0xF10A_7000_0000_0032)
    var checked = 0
    while checked < 200_000 {
      let value = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
      guard value.isFinite else { continue }
      guard Self.check(value) else { return }
      checked += 1
    }
    for bits in UInt32(0)...20_000 {
      guard Self.check(Float(bitPattern: bits)) else { return }
    }
    for exponent in -149...127 {
      let power = Float(sign: .plus, exponent: exponent, significand: 1)
      for value in [power, power.nextDown, power.nextUp, -power] {
        guard Self.check(value) else { return }
      }
    }
    for exponent in -45...38 {
      guard let power = Float("1e\(exponent)"), power != 0, power.isFinite else { continue }
      for value in [power, power.nextDown, power.nextUp] {
        guard Self.check(value) else { return }
      }
    }
    let largest = Float.greatestFiniteMagnitude.bitPattern
    for bits in largest - 5_000...largest {
      guard Self.check(Float(bitPattern: bits)) else { return }
    }
    for integer in (1 << 24) - 2_000...(1 << 24) + 2_000 {
      guard Self.check(Float(integer)) else { return }
    }
  }

  /// Opt-in (`OBJECT_MAPPING_EXHAUSTIVE_FLOATS=1`): all 2^32 bit patterns, the text compared
  /// with `description`, on every core.
  @Test(
    .enabled(if: ProcessInfo.processInfo.environment["OBJECT_MAPPING_EXHAUSTIVE_FLOATS"] == "1"))
  func everyFloat() async {
    let chunks = 256
    let failures = await withTaskGroup(of: [UInt32].self) { group in
      var next = 0
      var failures: [UInt32] = []
      let width = Swift.max(2, ProcessInfo.processInfo.activeProcessorCount)
      func addChunk() {
        let chunk = UInt32(next)
        next += 1
        group.addTask {
          let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
          defer { scratch.deallocate() }
          var failures: [UInt32] = []
          let first = chunk << 24
          for low in UInt32(0)...0xFF_FFFF {
            let bits = first | low
            if !Self.matchesDescription(Float(bitPattern: bits), scratch: scratch) {
              failures.append(bits)
              if failures.count > 10 { break }
            }
          }
          return failures
        }
      }
      for _ in 0..<width { addChunk() }
      for await found in group {
        failures += found
        if next < chunks { addChunk() }
      }
      return failures
    }
    #expect(
      failures.isEmpty, "first failures: \(failures.prefix(10).map { Float(bitPattern: $0) })")
  }

  // MARK: - The tables, with exact integer arithmetic

  /// Every power of ten in the table is `⌈10^-k × 2^s⌉` with `2^127 <= g < 2^128`.
  @Test func powerTableIsExact() {
    var checked = 0
    for k in -324...292 {
      let index = 2 * (k + 324)
      let g = BigNumber(words: [_shortestDecimalPowers[index + 1], _shortestDecimalPowers[index]])
      #expect(g.bitWidth == 128, "10^\(-k): not normalized")
      let n = -k
      let s = 127 - BigNumber.floorLog2PowerOfTen(n)
      if n >= 0 {
        let power = BigNumber.power(of: 10, n)
        if s >= 0 {
          #expect(g == power.shiftedLeft(s), "10^\(n)")
        } else {
          // ⌈10^n / 2^-s⌉: (g - 1) × 2^-s < 10^n <= g × 2^-s
          #expect(g.shiftedLeft(-s) >= power && g.minusOne.shiftedLeft(-s) < power, "10^\(n)")
        }
      } else {
        // ⌈2^s / 10^-n⌉: (g - 1) × 10^-n < 2^s <= g × 10^-n
        let divisor = BigNumber.power(of: 10, -n)
        let twoToS = BigNumber(words: [1]).shiftedLeft(s)
        #expect(g * divisor >= twoToS && g.minusOne * divisor < twoToS, "10^\(n)")
      }
      checked += 1
    }
    #expect(checked == 617)
    #expect(_shortestDecimalPowers.count == 2 * 617)
  }

  /// The multiply-and-shift logarithms the algorithm uses are exact over every exponent of a
  /// double, and the scaling shift stays in 1...4 (so the scaled values stay below 2^60).
  @Test func logarithmApproximationsAreExact() {
    for n in -400...400 {
      #expect((n * 913_124_641_741) >> 38 == BigNumber.floorLog2PowerOfTen(n), "log2(10^\(n))")
    }
    for q in -1074...971 {
      let k = (q * 661_971_961_083) >> 41
      // 10^k <= 2^q < 10^(k+1)
      #expect(
        BigNumber.compare(1, 0, k, 1, q, 0) != .greater
          && BigNumber.compare(1, q, 0, 1, 0, k + 1) == .less, "log10(2^\(q))")
      let shift = q + 1 + ((-k * 913_124_641_741) >> 38)
      #expect((1...4).contains(shift), "shift for 2^\(q)")
      guard q > -1074 else { continue }
      let lopsided = (q * 661_971_961_083 - 274_743_187_321) >> 41
      // 4 × 10^k <= 3 × 2^q < 4 × 10^(k+1)
      #expect(
        BigNumber.compare(4, 0, lopsided, 3, q, 0) != .greater
          && BigNumber.compare(3, q, 0, 4, 0, lopsided + 1) == .less, "log10(3/4 × 2^\(q))")
      let lopsidedShift = q + 1 + ((-lopsided * 913_124_641_741) >> 38)
      #expect((1...4).contains(lopsidedShift), "shift for 3/4 × 2^\(q)")
    }
  }
}

/// `10^exponent` exactly, for `exponent` in -22...22.
private func _exactPowerOfTen(_ exponent: Int) -> Double {
  let power = (0..<abs(exponent)).reduce(1.0) { value, _ in value * 10 }
  return exponent < 0 ? 1 / power : power
}

/// A non-negative integer of any size, for checking the tables: 32-bit limbs, least
/// significant first, no leading zero limbs.
/// How two numbers compare.
private enum Order {
  case less, equal, greater
}

private struct BigNumber: Comparable {
  var limbs: [UInt32]

  init(limbs: [UInt32]) {
    self.limbs = limbs
    while self.limbs.last == 0 { self.limbs.removeLast() }
  }

  /// From 64-bit words, least significant first.
  init(words: [UInt64]) {
    self.init(limbs: words.flatMap { [UInt32(truncatingIfNeeded: $0), UInt32($0 >> 32)] })
  }

  /// 10^0 ... 10^400, computed once.
  static let powersOfTen: [BigNumber] = {
    var powers = [BigNumber(limbs: [1])]
    for _ in 0..<400 { powers.append(powers[powers.count - 1].times(10)) }
    return powers
  }()

  static func power(of base: UInt32, _ exponent: Int) -> BigNumber {
    precondition(base == 10 && exponent <= 400, "only the powers of ten the tests need")
    return powersOfTen[exponent]
  }

  /// ⌊log2(10^n)⌋ for any integer `n`: the bit length of 10^n less one, or, for negative `n`,
  /// minus the bit length of 10^-n - 1.
  static func floorLog2PowerOfTen(_ n: Int) -> Int {
    n >= 0 ? power(of: 10, n).bitWidth - 1 : -power(of: 10, -n).minusOne.bitWidth
  }

  /// Compares `a × 2^a2 × 10^a10` with `b × 2^b2 × 10^b10` (any signs of the exponents).
  static func compare(
    _ a: UInt32, _ a2: Int, _ a10: Int, _ b: UInt32, _ b2: Int, _ b10: Int
  ) -> Order {
    let low2 = Swift.min(a2, b2, 0)
    let low10 = Swift.min(a10, b10, 0)
    let left = BigNumber(limbs: [a]).shiftedLeft(a2 - low2) * power(of: 10, a10 - low10)
    let right = BigNumber(limbs: [b]).shiftedLeft(b2 - low2) * power(of: 10, b10 - low10)
    return left < right ? .less : left == right ? .equal : .greater
  }

  var bitWidth: Int {
    guard let last = limbs.last else { return 0 }
    return (limbs.count - 1) * 32 + (32 - last.leadingZeroBitCount)
  }

  var minusOne: BigNumber {
    var result = limbs
    var index = 0
    while result[index] == 0 {
      result[index] = .max
      index += 1
    }
    result[index] -= 1
    return BigNumber(limbs: result)
  }

  func times(_ factor: UInt32) -> BigNumber {
    var result: [UInt32] = []
    var carry: UInt64 = 0
    for limb in limbs {
      let product = UInt64(limb) * UInt64(factor) + carry
      result.append(UInt32(truncatingIfNeeded: product))
      carry = product >> 32
    }
    if carry != 0 { result.append(UInt32(carry)) }
    return BigNumber(limbs: result)
  }

  func shiftedLeft(_ bits: Int) -> BigNumber {
    var result = [UInt32](repeating: 0, count: bits / 32)
    let shift = UInt32(bits % 32)
    var carry: UInt32 = 0
    for limb in limbs {
      result.append(limb << shift | carry)
      carry = shift == 0 ? 0 : limb >> (32 - shift)
    }
    result.append(carry)
    return BigNumber(limbs: result)
  }

  static func * (left: BigNumber, right: BigNumber) -> BigNumber {
    var result = [UInt32](repeating: 0, count: left.limbs.count + right.limbs.count + 1)
    for (i, a) in left.limbs.enumerated() {
      var carry: UInt64 = 0
      for (j, b) in right.limbs.enumerated() {
        let sum = UInt64(a) * UInt64(b) + UInt64(result[i + j]) + carry
        result[i + j] = UInt32(truncatingIfNeeded: sum)
        carry = sum >> 32
      }
      var index = i + right.limbs.count
      while carry != 0 {
        let sum = UInt64(result[index]) + carry
        result[index] = UInt32(truncatingIfNeeded: sum)
        carry = sum >> 32
        index += 1
      }
    }
    return BigNumber(limbs: result)
  }

  static func < (left: BigNumber, right: BigNumber) -> Bool {
    guard left.limbs.count == right.limbs.count else { return left.limbs.count < right.limbs.count }
    for index in stride(from: left.limbs.count - 1, through: 0, by: -1)
    where left.limbs[index] != right.limbs[index] {
      return left.limbs[index] < right.limbs[index]
    }
    return false
  }
}
