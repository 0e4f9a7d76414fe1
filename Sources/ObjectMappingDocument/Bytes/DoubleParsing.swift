/// Fast, correctly rounded `Double` from a decimal significand and exponent: the Eisel-Lemire
/// algorithm (Daniel Lemire, "Number Parsing at a Gigabyte per Second", 2021, and Noble Mushtak
/// and Daniel Lemire, "Fast Number Parsing Without Fallback", 2023).
///
/// `w × 10^q` for a non-zero `w` that holds every significant digit (at most 19) and `q` in
/// ``_EiselLemire/exponentRange``: the result is the correctly rounded double (round half to
/// even), or `nil` when it would be subnormal, so the caller falls back to `strtod`.
package enum _EiselLemire {
  /// The decimal exponents the power table covers; other exponents fall back to `strtod`.
  package static let exponentRange = -100...100

  @inline(__always)
  package static func double(significand w: UInt64, exponent q: Int, negative: Bool) -> Double? {
    guard w != 0, exponentRange.contains(q) else { return nil }
    let leadingZeros = w.leadingZeroBitCount
    let normalized = w << UInt64(leadingZeros)
    let index = 2 * (q - exponentRange.lowerBound)
    // 5^q as a 128-bit fixed-point number with its top bit set, high word first.
    let (powerHigh, powerLow) = unsafe _powersOfFive.withUnsafeBufferPointer { table in
      unsafe (table[index], table[index + 1])
    }
    var (high, low) = normalized.multipliedFullWidth(by: powerHigh)
    // 64 - 52 mantissa bits - 3 = 9 bits below the rounding position.
    let precisionMask: UInt64 = 0x1FF
    if high & precisionMask == precisionMask {
      let second = normalized.multipliedFullWidth(by: powerLow).high
      let (sum, carry) = low.addingReportingOverflow(second)
      low = sum
      if carry { high &+= 1 }
    }
    let upperBit = Int(high >> 63)
    let shift = UInt64(upperBit + 9)
    var mantissa = high >> shift
    // power(q) = floor(q × log2(10)) + 63, then the double's exponent bias (1023).
    var power2 = ((152_170 + 65_536) &* q) >> 16 + 63 + upperBit - leadingZeros + 1023
    guard power2 > 0 else { return nil }
    // Exactly halfway between two doubles (possible only when 5^q fits in 64 bits): round to
    // even instead of up.
    if low <= 1, q >= -4, q <= 23, mantissa & 3 == 1, mantissa << shift == high {
      mantissa &= ~1
    }
    mantissa += mantissa & 1
    mantissa >>= 1
    if mantissa >= (2 << 52) {
      mantissa = 1 << 52
      power2 += 1
    }
    mantissa &= ~(1 << 52)
    guard power2 < 0x7FF else { return negative ? -.infinity : .infinity }
    let bits = UInt64(power2) << 52 | mantissa | (negative ? 1 << 63 : 0)
    return Double(bitPattern: bits)
  }
}

/// Whether `text` is a JSON number (RFC 8259 §6): `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`.
///
/// Number text that does not come from the JSON reader (``Node/decimal(_:)-enum.case`` built in code) is
/// checked with this before it is mapped or written, so it can neither mislead the number
/// parser nor inject JSON into the output.
package func _isJSONNumber(_ text: String) -> Bool {
  if let valid = unsafe text.utf8.withContiguousStorageIfAvailable(_isJSONNumber) { return valid }
  return unsafe Array(text.utf8).withUnsafeBufferPointer(_isJSONNumber)
}

/// Whether the bytes are a JSON number; see ``_isJSONNumber(_:)-(String)``.
package func _isJSONNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let base = text.baseAddress, !text.isEmpty else { return false }
  let end = text.count
  var index = 0
  if unsafe base[index] == UInt8(ascii: "-") { index += 1 }
  guard index < end else { return false }
  if unsafe base[index] == UInt8(ascii: "0") {
    index += 1
  } else {
    let start = index
    unsafe _skipDigits(base, &index, end)
    guard index > start else { return false }
  }
  if unsafe index < end && base[index] == UInt8(ascii: ".") {
    index += 1
    let start = index
    unsafe _skipDigits(base, &index, end)
    guard index > start else { return false }
  }
  if unsafe index < end && base[index] | 0x20 == UInt8(ascii: "e") {
    index += 1
    if unsafe index < end && (base[index] == UInt8(ascii: "-") || base[index] == UInt8(ascii: "+"))
    {
      index += 1
    }
    let start = index
    unsafe _skipDigits(base, &index, end)
    guard index > start else { return false }
  }
  return index == end
}

/// Moves `index` past the ASCII digits from `index` up to `end`, eight bytes at a time.
///
/// Every load stays inside `base[..<end]`: whole words while eight bytes remain, then the last
/// eight bytes of the text shifted so that the byte at `index` comes first (the bytes shifted
/// in are zero, which is not a digit); texts shorter than eight bytes go byte by byte.
@inline(__always)
package func _skipDigits(_ base: UnsafePointer<UInt8>, _ index: inout Int, _ end: Int) {
  while end - index >= 8 {
    let count = unsafe _leadingDigits(_word(base, at: index, end: end))
    index += count
    if count < 8 { return }
  }
  guard index < end else { return }
  if end >= 8 {
    unsafe index += _leadingDigits(_word(base, at: index, end: end))
  } else {
    while unsafe index < end && base[index] &- UInt8(ascii: "0") <= 9 { index += 1 }
  }
}

/// The eight bytes from `index` as a little-endian word, read only inside `base[..<end]`
/// (which must hold at least eight bytes): the word at `index` while eight bytes remain, else
/// the last eight bytes shifted so that the byte at `index` comes first, with zeros (not digits)
/// shifted in after the text.
@inline(__always)
package func _word(_ base: UnsafePointer<UInt8>, at index: Int, end: Int) -> UInt64 {
  assert(end >= 8 && index < end, "a word read stays inside the text")
  if end - index >= 8 {
    return unsafe UInt64(
      littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
  }
  let last = unsafe UInt64(
    littleEndian: UnsafeRawPointer(base + end - 8).loadUnaligned(as: UInt64.self))
  return last &>> UInt64((8 - (end - index)) * 8)
}

/// How many of the eight bytes of `word`, lowest first, are ASCII digits before the first one
/// that is not.
///
/// A byte is a digit when its high nibble is 3 and adding 6 keeps it 3 (0x30...0x39). Adding 6
/// to every byte carries only out of a byte of 0xFA or more, not a digit, and only into the
/// bytes after it, so the first non-digit is always found.
@inline(__always)
package func _leadingDigits(_ word: UInt64) -> Int {
  let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
  let threes: UInt64 = 0x3030_3030_3030_3030
  let notDigits =
    ((word & highNibbles) ^ threes) | (((word &+ 0x0606_0606_0606_0606) & highNibbles) ^ threes)
  return notDigits.trailingZeroBitCount &>> 3
}

/// The value of the eight ASCII digits of `word`, the first (most significant) one in the lowest
/// byte; every byte must be a digit (`_leadingDigits(word) == 8`).
///
/// Three multiply-add steps combine neighbouring lanes: digit pairs into 16-bit lanes (at most
/// 99), those into 32-bit lanes (at most 9,999), and those into the value (at most 99,999,999).
/// No lane overflows into the next one the step keeps.
@inline(__always)
package func _eightDigitsValue(_ word: UInt64) -> UInt64 {
  var value = word & 0x0F0F_0F0F_0F0F_0F0F
  value = (value &* 10 &+ value &>> 8) & 0x00FF_00FF_00FF_00FF
  value = (value &* 100 &+ value &>> 16) & 0x0000_FFFF_0000_FFFF
  return (value &* 10_000 &+ value &>> 32) & 0xFFFF_FFFF
}

/// `.decimal("1e")`: how a ``Node/decimal(_:)-enum.case`` reads in an error message (text quoted and
/// shortened past 60 characters, as strings are).
package func _decimalForMessage(_ text: String) -> String {
  ".decimal(" + MessageText.quoted(text) + ")"
}

/// Whether the significand of JSON number text has a non-zero digit: a number that parses to
/// zero although this holds underflowed (`1e-400`), while `0.000e5` is exactly zero.
package func _hasNonZeroSignificand(_ text: some Sequence<UInt8>) -> Bool {
  for byte in text {
    if byte | 0x20 == UInt8(ascii: "e") { return false }
    if byte &- UInt8(ascii: "1") <= 8 { return true }
  }
  return false
}

/// 5^q for q in `_EiselLemire.exponentRange`, each as two words (high, low) of the 128-bit
/// value scaled so its top bit is set: truncated for q ≥ 0; for q < 0, ⌊2^b / 5^-q⌋ + 1 with b
/// chosen as in the papers above. Computed with exact integer arithmetic.
private let _powersOfFive: [UInt64] = [
  0xDFF9_7724_7029_7EBD, 0x5978_7E2B_93BC_56F7,  // 5^-100
  0x8BFB_EA76_C619_EF36, 0x57EB_4EDB_3C55_B65A,  // 5^-99
  0xAEFA_E514_77A0_6B03, 0xEDE6_2292_0B6B_23F1,  // 5^-98
  0xDAB9_9E59_9588_85C4, 0xE95F_AB36_8E45_ECED,  // 5^-97
  0x88B4_02F7_FD75_539B, 0x11DB_CB02_18EB_B414,  // 5^-96
  0xAAE1_03B5_FCD2_A881, 0xD652_BDC2_9F26_A119,  // 5^-95
  0xD599_44A3_7C07_52A2, 0x4BE7_6D33_46F0_495F,  // 5^-94
  0x857F_CAE6_2D84_93A5, 0x6F70_A440_0C56_2DDB,  // 5^-93
  0xA6DF_BD9F_B8E5_B88E, 0xCB4C_CD50_0F6B_B952,  // 5^-92
  0xD097_AD07_A71F_26B2, 0x7E20_00A4_1346_A7A7,  // 5^-91
  0x825E_CC24_C873_782F, 0x8ED4_0066_8C0C_28C8,  // 5^-90
  0xA2F6_7F2D_FA90_563B, 0x7289_0080_2F0F_32FA,  // 5^-89
  0xCBB4_1EF9_7934_6BCA, 0x4F2B_40A0_3AD2_FFB9,  // 5^-88
  0xFEA1_26B7_D781_86BC, 0xE2F6_10C8_4987_BFA8,  // 5^-87
  0x9F24_B832_E6B0_F436, 0x0DD9_CA7D_2DF4_D7C9,  // 5^-86
  0xC6ED_E63F_A05D_3143, 0x9150_3D1C_7972_0DBB,  // 5^-85
  0xF8A9_5FCF_8874_7D94, 0x75A4_4C63_97CE_912A,  // 5^-84
  0x9B69_DBE1_B548_CE7C, 0xC986_AFBE_3EE1_1ABA,  // 5^-83
  0xC244_52DA_229B_021B, 0xFBE8_5BAD_CE99_6168,  // 5^-82
  0xF2D5_6790_AB41_C2A2, 0xFAE2_7299_423F_B9C3,  // 5^-81
  0x97C5_60BA_6B09_19A5, 0xDCCD_879F_C967_D41A,  // 5^-80
  0xBDB6_B8E9_05CB_600F, 0x5400_E987_BBC1_C920,  // 5^-79
  0xED24_6723_473E_3813, 0x2901_23E9_AAB2_3B68,  // 5^-78
  0x9436_C076_0C86_E30B, 0xF9A0_B672_0AAF_6521,  // 5^-77
  0xB944_7093_8FA8_9BCE, 0xF808_E40E_8D5B_3E69,  // 5^-76
  0xE795_8CB8_7392_C2C2, 0xB60B_1D12_30B2_0E04,  // 5^-75
  0x90BD_77F3_483B_B9B9, 0xB1C6_F22B_5E6F_48C2,  // 5^-74
  0xB4EC_D5F0_1A4A_A828, 0x1E38_AEB6_360B_1AF3,  // 5^-73
  0xE228_0B6C_20DD_5232, 0x25C6_DA63_C38D_E1B0,  // 5^-72
  0x8D59_0723_948A_535F, 0x579C_487E_5A38_AD0E,  // 5^-71
  0xB0AF_48EC_79AC_E837, 0x2D83_5A9D_F0C6_D851,  // 5^-70
  0xDCDB_1B27_9818_2244, 0xF8E4_3145_6CF8_8E65,  // 5^-69
  0x8A08_F0F8_BF0F_156B, 0x1B8E_9ECB_641B_58FF,  // 5^-68
  0xAC8B_2D36_EED2_DAC5, 0xE272_467E_3D22_2F3F,  // 5^-67
  0xD7AD_F884_AA87_9177, 0x5B0E_D81D_CC6A_BB0F,  // 5^-66
  0x86CC_BB52_EA94_BAEA, 0x98E9_4712_9FC2_B4E9,  // 5^-65
  0xA87F_EA27_A539_E9A5, 0x3F23_98D7_47B3_6224,  // 5^-64
  0xD29F_E4B1_8E88_640E, 0x8EEC_7F0D_19A0_3AAD,  // 5^-63
  0x83A3_EEEE_F915_3E89, 0x1953_CF68_3004_24AC,  // 5^-62
  0xA48C_EAAA_B75A_8E2B, 0x5FA8_C342_3C05_2DD7,  // 5^-61
  0xCDB0_2555_6531_31B6, 0x3792_F412_CB06_794D,  // 5^-60
  0x808E_1755_5F3E_BF11, 0xE2BB_D88B_BEE4_0BD0,  // 5^-59
  0xA0B1_9D2A_B70E_6ED6, 0x5B6A_CEAE_AE9D_0EC4,  // 5^-58
  0xC8DE_0475_64D2_0A8B, 0xF245_825A_5A44_5275,  // 5^-57
  0xFB15_8592_BE06_8D2E, 0xEED6_E2F0_F0D5_6712,  // 5^-56
  0x9CED_737B_B6C4_183D, 0x5546_4DD6_9685_606B,  // 5^-55
  0xC428_D05A_A475_1E4C, 0xAA97_E14C_3C26_B886,  // 5^-54
  0xF533_0471_4D92_65DF, 0xD53D_D99F_4B30_66A8,  // 5^-53
  0x993F_E2C6_D07B_7FAB, 0xE546_A803_8EFE_4029,  // 5^-52
  0xBF8F_DB78_849A_5F96, 0xDE98_5204_72BD_D033,  // 5^-51
  0xEF73_D256_A5C0_F77C, 0x963E_6685_8F6D_4440,  // 5^-50
  0x95A8_6376_2798_9AAD, 0xDDE7_0013_79A4_4AA8,  // 5^-49
  0xBB12_7C53_B17E_C159, 0x5560_C018_580D_5D52,  // 5^-48
  0xE9D7_1B68_9DDE_71AF, 0xAAB8_F01E_6E10_B4A6,  // 5^-47
  0x9226_7121_62AB_070D, 0xCAB3_9613_04CA_70E8,  // 5^-46
  0xB6B0_0D69_BB55_C8D1, 0x3D60_7B97_C5FD_0D22,  // 5^-45
  0xE45C_10C4_2A2B_3B05, 0x8CB8_9A7D_B77C_506A,  // 5^-44
  0x8EB9_8A7A_9A5B_04E3, 0x77F3_608E_92AD_B242,  // 5^-43
  0xB267_ED19_40F1_C61C, 0x55F0_38B2_3759_1ED3,  // 5^-42
  0xDF01_E85F_912E_37A3, 0x6B6C_46DE_C52F_6688,  // 5^-41
  0x8B61_313B_BABC_E2C6, 0x2323_AC4B_3B3D_A015,  // 5^-40
  0xAE39_7D8A_A96C_1B77, 0xABEC_975E_0A0D_081A,  // 5^-39
  0xD9C7_DCED_53C7_2255, 0x96E7_BD35_8C90_4A21,  // 5^-38
  0x881C_EA14_545C_7575, 0x7E50_D641_77DA_2E54,  // 5^-37
  0xAA24_2499_6973_92D2, 0xDDE5_0BD1_D5D0_B9E9,  // 5^-36
  0xD4AD_2DBF_C3D0_7787, 0x955E_4EC6_4B44_E864,  // 5^-35
  0x84EC_3C97_DA62_4AB4, 0xBD5A_F13B_EF0B_113E,  // 5^-34
  0xA627_4BBD_D0FA_DD61, 0xECB1_AD8A_EACD_D58E,  // 5^-33
  0xCFB1_1EAD_4539_94BA, 0x67DE_18ED_A581_4AF2,  // 5^-32
  0x81CE_B32C_4B43_FCF4, 0x80EA_CF94_8770_CED7,  // 5^-31
  0xA242_5FF7_5E14_FC31, 0xA125_8379_A94D_028D,  // 5^-30
  0xCAD2_F7F5_359A_3B3E, 0x096E_E458_13A0_4330,  // 5^-29
  0xFD87_B5F2_8300_CA0D, 0x8BCA_9D6E_1888_53FC,  // 5^-28
  0x9E74_D1B7_91E0_7E48, 0x775E_A264_CF55_347E,  // 5^-27
  0xC612_0625_7658_9DDA, 0x9536_4AFE_032A_819E,  // 5^-26
  0xF796_87AE_D3EE_C551, 0x3A83_DDBD_83F5_2205,  // 5^-25
  0x9ABE_14CD_4475_3B52, 0xC492_6A96_7279_3543,  // 5^-24
  0xC16D_9A00_9592_8A27, 0x75B7_053C_0F17_8294,  // 5^-23
  0xF1C9_0080_BAF7_2CB1, 0x5324_C68B_12DD_6339,  // 5^-22
  0x971D_A050_74DA_7BEE, 0xD3F6_FC16_EBCA_5E04,  // 5^-21
  0xBCE5_0864_9211_1AEA, 0x88F4_BB1C_A6BC_F585,  // 5^-20
  0xEC1E_4A7D_B695_61A5, 0x2B31_E9E3_D06C_32E6,  // 5^-19
  0x9392_EE8E_921D_5D07, 0x3AFF_322E_6243_9FD0,  // 5^-18
  0xB877_AA32_36A4_B449, 0x09BE_FEB9_FAD4_87C3,  // 5^-17
  0xE695_94BE_C44D_E15B, 0x4C2E_BE68_7989_A9B4,  // 5^-16
  0x901D_7CF7_3AB0_ACD9, 0x0F9D_3701_4BF6_0A11,  // 5^-15
  0xB424_DC35_095C_D80F, 0x5384_84C1_9EF3_8C95,  // 5^-14
  0xE12E_1342_4BB4_0E13, 0x2865_A5F2_06B0_6FBA,  // 5^-13
  0x8CBC_CC09_6F50_88CB, 0xF93F_87B7_442E_45D4,  // 5^-12
  0xAFEB_FF0B_CB24_AAFE, 0xF78F_69A5_1539_D749,  // 5^-11
  0xDBE6_FECE_BDED_D5BE, 0xB573_440E_5A88_4D1C,  // 5^-10
  0x8970_5F41_36B4_A597, 0x3168_0A88_F895_3031,  // 5^-9
  0xABCC_7711_8461_CEFC, 0xFDC2_0D2B_36BA_7C3E,  // 5^-8
  0xD6BF_94D5_E57A_42BC, 0x3D32_9076_0469_1B4D,  // 5^-7
  0x8637_BD05_AF6C_69B5, 0xA63F_9A49_C2C1_B110,  // 5^-6
  0xA7C5_AC47_1B47_8423, 0x0FCF_80DC_3372_1D54,  // 5^-5
  0xD1B7_1758_E219_652B, 0xD3C3_6113_404E_A4A9,  // 5^-4
  0x8312_6E97_8D4F_DF3B, 0x645A_1CAC_0831_26EA,  // 5^-3
  0xA3D7_0A3D_70A3_D70A, 0x3D70_A3D7_0A3D_70A4,  // 5^-2
  0xCCCC_CCCC_CCCC_CCCC, 0xCCCC_CCCC_CCCC_CCCD,  // 5^-1
  0x8000_0000_0000_0000, 0x0000_0000_0000_0000,  // 5^0
  0xA000_0000_0000_0000, 0x0000_0000_0000_0000,  // 5^1
  0xC800_0000_0000_0000, 0x0000_0000_0000_0000,  // 5^2
  0xFA00_0000_0000_0000, 0x0000_0000_0000_0000,  // 5^3
  0x9C40_0000_0000_0000, 0x0000_0000_0000_0000,  // 5^4
  0xC350_0000_0000_0000, 0x0000_0000_0000_0000,  // 5^5
  0xF424_0000_0000_0000, 0x0000_0000_0000_0000,  // 5^6
  0x9896_8000_0000_0000, 0x0000_0000_0000_0000,  // 5^7
  0xBEBC_2000_0000_0000, 0x0000_0000_0000_0000,  // 5^8
  0xEE6B_2800_0000_0000, 0x0000_0000_0000_0000,  // 5^9
  0x9502_F900_0000_0000, 0x0000_0000_0000_0000,  // 5^10
  0xBA43_B740_0000_0000, 0x0000_0000_0000_0000,  // 5^11
  0xE8D4_A510_0000_0000, 0x0000_0000_0000_0000,  // 5^12
  0x9184_E72A_0000_0000, 0x0000_0000_0000_0000,  // 5^13
  0xB5E6_20F4_8000_0000, 0x0000_0000_0000_0000,  // 5^14
  0xE35F_A931_A000_0000, 0x0000_0000_0000_0000,  // 5^15
  0x8E1B_C9BF_0400_0000, 0x0000_0000_0000_0000,  // 5^16
  0xB1A2_BC2E_C500_0000, 0x0000_0000_0000_0000,  // 5^17
  0xDE0B_6B3A_7640_0000, 0x0000_0000_0000_0000,  // 5^18
  0x8AC7_2304_89E8_0000, 0x0000_0000_0000_0000,  // 5^19
  0xAD78_EBC5_AC62_0000, 0x0000_0000_0000_0000,  // 5^20
  0xD8D7_26B7_177A_8000, 0x0000_0000_0000_0000,  // 5^21
  0x8786_7832_6EAC_9000, 0x0000_0000_0000_0000,  // 5^22
  0xA968_163F_0A57_B400, 0x0000_0000_0000_0000,  // 5^23
  0xD3C2_1BCE_CCED_A100, 0x0000_0000_0000_0000,  // 5^24
  0x8459_5161_4014_84A0, 0x0000_0000_0000_0000,  // 5^25
  0xA56F_A5B9_9019_A5C8, 0x0000_0000_0000_0000,  // 5^26
  0xCECB_8F27_F420_0F3A, 0x0000_0000_0000_0000,  // 5^27
  0x813F_3978_F894_0984, 0x4000_0000_0000_0000,  // 5^28
  0xA18F_07D7_36B9_0BE5, 0x5000_0000_0000_0000,  // 5^29
  0xC9F2_C9CD_0467_4EDE, 0xA400_0000_0000_0000,  // 5^30
  0xFC6F_7C40_4581_2296, 0x4D00_0000_0000_0000,  // 5^31
  0x9DC5_ADA8_2B70_B59D, 0xF020_0000_0000_0000,  // 5^32
  0xC537_1912_364C_E305, 0x6C28_0000_0000_0000,  // 5^33
  0xF684_DF56_C3E0_1BC6, 0xC732_0000_0000_0000,  // 5^34
  0x9A13_0B96_3A6C_115C, 0x3C7F_4000_0000_0000,  // 5^35
  0xC097_CE7B_C907_15B3, 0x4B9F_1000_0000_0000,  // 5^36
  0xF0BD_C21A_BB48_DB20, 0x1E86_D400_0000_0000,  // 5^37
  0x9676_9950_B50D_88F4, 0x1314_4480_0000_0000,  // 5^38
  0xBC14_3FA4_E250_EB31, 0x17D9_55A0_0000_0000,  // 5^39
  0xEB19_4F8E_1AE5_25FD, 0x5DCF_AB08_0000_0000,  // 5^40
  0x92EF_D1B8_D0CF_37BE, 0x5AA1_CAE5_0000_0000,  // 5^41
  0xB7AB_C627_0503_05AD, 0xF14A_3D9E_4000_0000,  // 5^42
  0xE596_B7B0_C643_C719, 0x6D9C_CD05_D000_0000,  // 5^43
  0x8F7E_32CE_7BEA_5C6F, 0xE482_0023_A200_0000,  // 5^44
  0xB35D_BF82_1AE4_F38B, 0xDDA2_802C_8A80_0000,  // 5^45
  0xE035_2F62_A19E_306E, 0xD50B_2037_AD20_0000,  // 5^46
  0x8C21_3D9D_A502_DE45, 0x4526_F422_CC34_0000,  // 5^47
  0xAF29_8D05_0E43_95D6, 0x9670_B12B_7F41_0000,  // 5^48
  0xDAF3_F046_51D4_7B4C, 0x3C0C_DD76_5F11_4000,  // 5^49
  0x88D8_762B_F324_CD0F, 0xA588_0A69_FB6A_C800,  // 5^50
  0xAB0E_93B6_EFEE_0053, 0x8EEA_0D04_7A45_7A00,  // 5^51
  0xD5D2_38A4_ABE9_8068, 0x72A4_9045_98D6_D880,  // 5^52
  0x85A3_6366_EB71_F041, 0x47A6_DA2B_7F86_4750,  // 5^53
  0xA70C_3C40_A64E_6C51, 0x9990_90B6_5F67_D924,  // 5^54
  0xD0CF_4B50_CFE2_0765, 0xFFF4_B4E3_F741_CF6D,  // 5^55
  0x8281_8F12_81ED_449F, 0xBFF8_F10E_7A89_21A4,  // 5^56
  0xA321_F2D7_2268_95C7, 0xAFF7_2D52_192B_6A0D,  // 5^57
  0xCBEA_6F8C_EB02_BB39, 0x9BF4_F8A6_9F76_4490,  // 5^58
  0xFEE5_0B70_25C3_6A08, 0x02F2_36D0_4753_D5B4,  // 5^59
  0x9F4F_2726_179A_2245, 0x01D7_6242_2C94_6590,  // 5^60
  0xC722_F0EF_9D80_AAD6, 0x424D_3AD2_B7B9_7EF5,  // 5^61
  0xF8EB_AD2B_84E0_D58B, 0xD2E0_8987_65A7_DEB2,  // 5^62
  0x9B93_4C3B_330C_8577, 0x63CC_55F4_9F88_EB2F,  // 5^63
  0xC278_1F49_FFCF_A6D5, 0x3CBF_6B71_C76B_25FB,  // 5^64
  0xF316_271C_7FC3_908A, 0x8BEF_464E_3945_EF7A,  // 5^65
  0x97ED_D871_CFDA_3A56, 0x9775_8BF0_E3CB_B5AC,  // 5^66
  0xBDE9_4E8E_43D0_C8EC, 0x3D52_EEED_1CBE_A317,  // 5^67
  0xED63_A231_D4C4_FB27, 0x4CA7_AAA8_63EE_4BDD,  // 5^68
  0x945E_455F_24FB_1CF8, 0x8FE8_CAA9_3E74_EF6A,  // 5^69
  0xB975_D6B6_EE39_E436, 0xB3E2_FD53_8E12_2B44,  // 5^70
  0xE7D3_4C64_A9C8_5D44, 0x60DB_BCA8_7196_B616,  // 5^71
  0x90E4_0FBE_EA1D_3A4A, 0xBC89_55E9_46FE_31CD,  // 5^72
  0xB51D_13AE_A4A4_88DD, 0x6BAB_AB63_98BD_BE41,  // 5^73
  0xE264_589A_4DCD_AB14, 0xC696_963C_7EED_2DD1,  // 5^74
  0x8D7E_B760_70A0_8AEC, 0xFC1E_1DE5_CF54_3CA2,  // 5^75
  0xB0DE_6538_8CC8_ADA8, 0x3B25_A55F_4329_4BCB,  // 5^76
  0xDD15_FE86_AFFA_D912, 0x49EF_0EB7_13F3_9EBE,  // 5^77
  0x8A2D_BF14_2DFC_C7AB, 0x6E35_6932_6C78_4337,  // 5^78
  0xACB9_2ED9_397B_F996, 0x49C2_C37F_0796_5404,  // 5^79
  0xD7E7_7A8F_87DA_F7FB, 0xDC33_745E_C97B_E906,  // 5^80
  0x86F0_AC99_B4E8_DAFD, 0x69A0_28BB_3DED_71A3,  // 5^81
  0xA8AC_D7C0_2223_11BC, 0xC408_32EA_0D68_CE0C,  // 5^82
  0xD2D8_0DB0_2AAB_D62B, 0xF50A_3FA4_90C3_0190,  // 5^83
  0x83C7_088E_1AAB_65DB, 0x7926_67C6_DA79_E0FA,  // 5^84
  0xA4B8_CAB1_A156_3F52, 0x5770_01B8_9118_5938,  // 5^85
  0xCDE6_FD5E_09AB_CF26, 0xED4C_0226_B55E_6F86,  // 5^86
  0x80B0_5E5A_C60B_6178, 0x544F_8158_315B_05B4,  // 5^87
  0xA0DC_75F1_778E_39D6, 0x6963_61AE_3DB1_C721,  // 5^88
  0xC913_936D_D571_C84C, 0x03BC_3A19_CD1E_38E9,  // 5^89
  0xFB58_7849_4ACE_3A5F, 0x04AB_48A0_4065_C723,  // 5^90
  0x9D17_4B2D_CEC0_E47B, 0x62EB_0D64_283F_9C76,  // 5^91
  0xC45D_1DF9_4271_1D9A, 0x3BA5_D0BD_324F_8394,  // 5^92
  0xF574_6577_930D_6500, 0xCA8F_44EC_7EE3_6479,  // 5^93
  0x9968_BF6A_BBE8_5F20, 0x7E99_8B13_CF4E_1ECB,  // 5^94
  0xBFC2_EF45_6AE2_76E8, 0x9E3F_EDD8_C321_A67E,  // 5^95
  0xEFB3_AB16_C59B_14A2, 0xC5CF_E94E_F3EA_101E,  // 5^96
  0x95D0_4AEE_3B80_ECE5, 0xBBA1_F1D1_5872_4A12,  // 5^97
  0xBB44_5DA9_CA61_281F, 0x2A8A_6E45_AE8E_DC97,  // 5^98
  0xEA15_7514_3CF9_7226, 0xF52D_09D7_1A32_93BD,  // 5^99
  0x924D_692C_A61B_E758, 0x593C_2626_705F_9C56,  // 5^100
]
