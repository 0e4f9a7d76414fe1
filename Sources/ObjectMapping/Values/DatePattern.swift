import Foundation

/// A compiled ``DateFormat/pattern(_:)``: Unicode date-field symbols read and written by hand,
/// with English names, in UTC unless the pattern has a zone field.
struct DatePattern {
  enum Token: Equatable {
    case literal([UInt8])
    /// A field this reader knows, repeated `count` times (`yyyy`).
    case field(Field, Int)
    /// A letter this reader does not know (a `Q` quarter, a `G` era): it matches no date and is
    /// written as it is.
    case unknown(Character, Int)
  }

  /// The field symbols the pattern reader reads and writes: the reading's and the writing's
  /// `switch`es are exhaustive over them, so the three cannot disagree.
  enum Field: Character, CaseIterable {
    case year = "y"
    case month = "M"
    case standaloneMonth = "L"
    case day = "d"
    case hour = "H"
    case hour12 = "h"
    case amPM = "a"
    case minute = "m"
    case second = "s"
    case fraction = "S"
    case weekday = "E"
    case offset = "Z"
    case isoOffset = "X"
    case isoOffsetWithoutZ = "x"
    case zoneName = "z"
  }

  let tokens: [Token]

  /// The field symbols this reader knows.
  static let symbols = Set(Field.allCases.map(\.rawValue))

  /// What is wrong with `pattern`, in words for a definition file's author; `nil` when it can
  /// be read: it is not empty, its quotes are closed, and its fields are ones this reader
  /// knows (a `QQQQ` quarter or `GGGG` era matched no date at all).
  static func problem(in pattern: String) -> String? {
    guard !pattern.isEmpty else { return "the date pattern is empty" }
    var quoted = false
    for character in pattern {
      if character == "'" {
        quoted.toggle()
      } else if !quoted, character.isASCII, character.isLetter, !symbols.contains(character) {
        return "the date pattern's field \"\(character)\" is not one this library reads "
          + "(\(symbols.sorted().map(String.init).joined(separator: ", ")))"
      }
    }
    return quoted ? "the date pattern has a quote that is not closed" : nil
  }

  init(_ pattern: String) {
    var tokens: [Token] = []
    var characters = Array(pattern)[...]
    var literal: [UInt8] = []
    func flush() {
      if !literal.isEmpty { tokens.append(.literal(literal)) }
      literal = []
    }
    while let character = characters.first {
      if character == "'" {
        characters = characters.dropFirst()
        if characters.first == "'" {
          literal.append(UInt8(ascii: "'"))
          characters = characters.dropFirst()
          continue
        }
        while let quoted = characters.first, quoted != "'" {
          literal.append(contentsOf: Array(String(quoted).utf8))
          characters = characters.dropFirst()
        }
        characters = characters.dropFirst()
      } else if character.isASCII, character.isLetter {
        flush()
        let run = characters.prefix { $0 == character }.count
        let field = Field(rawValue: character)
        tokens.append(field.map { .field($0, run) } ?? .unknown(character, run))
        characters = characters.dropFirst(run)
      } else {
        literal.append(contentsOf: Array(String(character).utf8))
        characters = characters.dropFirst()
      }
    }
    flush()
    self.tokens = tokens
  }

  func parse(_ text: String) -> DateFormat.ParseOutcome {
    var reader = DigitReader(Array(text.utf8))
    var year = 1970
    var month = 1
    var day = 1
    var hour = 0
    var minute = 0
    var second = 0
    var fraction = 0.0
    var offset = 0
    var pm: Bool?
    var twelveHour = false
    for token in tokens {
      switch token {
      case .literal(let bytes):
        for byte in bytes {
          guard reader.position < reader.bytes.count, reader.bytes[reader.position] == byte else {
            return .noMatch
          }
          reader.position += 1
        }
      case .unknown:
        return .noMatch
      case .field(let field, let count):
        switch field {
        case .year:
          if count == 2 {
            guard let value = reader.digits(exactly: 2) else { return .noMatch }
            year = value < 69 ? 2000 + value : 1900 + value
          } else {
            guard let value = reader.digits(min: max(count, 1), max: max(count, 4)) else {
              return .noMatch
            }
            year = value
          }
        case .month, .standaloneMonth:
          if count >= 3 {
            let names =
              count == 3 ? Civil.monthNames.map { String($0.prefix(3)) } : Civil.monthNames
            guard let index = reader.word(from: names) else { return .noMatch }
            month = index + 1
          } else {
            guard let value = reader.digits(min: count, max: 2) else { return .noMatch }
            month = value
          }
        case .day:
          guard let value = reader.digits(min: count, max: 2) else { return .noMatch }
          day = value
        case .hour:
          guard let value = reader.digits(min: count, max: 2) else { return .noMatch }
          hour = value
        case .hour12:
          guard let value = reader.digits(min: count, max: 2) else { return .noMatch }
          guard (1...12).contains(value) else { return .impossible("hour \(value) does not exist") }
          hour = value % 12
          twelveHour = true
        case .amPM:
          guard let index = reader.word(from: ["AM", "PM"]) else { return .noMatch }
          pm = index == 1
        case .minute:
          guard let value = reader.digits(min: count, max: 2) else { return .noMatch }
          minute = value
        case .second:
          guard let value = reader.digits(min: count, max: 2) else { return .noMatch }
          second = value
        case .fraction:
          guard let value = reader.fraction(min: count, max: count) else { return .noMatch }
          fraction = value
        case .weekday:
          let names =
            count >= 4 ? Civil.weekdayNames : Civil.weekdayNames.map { String($0.prefix(3)) }
          guard reader.word(from: names) != nil else { return .noMatch }
        case .offset, .isoOffset, .isoOffsetWithoutZ:
          if field == .isoOffset || (field == .offset && count == 5), reader.expect("Z") {
            offset = 0
            continue
          }
          guard let sign = reader.sign(), let hours = reader.digits(exactly: 2) else {
            return .noMatch
          }
          var minutes = 0
          if reader.expect(":") {
            guard let value = reader.digits(exactly: 2) else { return .noMatch }
            minutes = value
          } else if let value = reader.digits(exactly: 2) {
            minutes = value
          }
          offset = sign * (hours * 3600 + minutes * 60)
        case .zoneName:
          guard let zone = Self.zoneName(&reader) else { return .noMatch }
          offset = zone
        }
      }
    }
    guard reader.atEnd else { return .noMatch }
    if let pm, twelveHour, pm { hour += 12 }
    return Civil.make(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second,
      fraction: fraction, offsetSeconds: offset)
  }

  /// The zones a `z` field names, as `NSDateFormatter` read them: `UTC`, `GMT` and `Z`, each
  /// maybe followed by an offset (`GMT-7`, `GMT+05:30`), the zones of North America's
  /// abbreviations (`PST`, `EDT`, …), and a numeric offset (`-07:00`, `-0700`, `+05`), which
  /// CSMapper's `yyyy-MM-dd'T'HH:mm:sszzzz` read in `2013-11-01T07:20:20-07:00`.
  private static let zoneAbbreviations: [(name: String, hours: Int)] = [
    ("UTC", 0), ("GMT", 0), ("UT", 0), ("Z", 0), ("EST", -5), ("EDT", -4), ("CST", -6),
    ("CDT", -5), ("MST", -7), ("MDT", -6), ("PST", -8), ("PDT", -7), ("AKST", -9), ("AKDT", -8),
    ("HST", -10),
  ]

  /// The offset in seconds of the zone at the reader (see ``zoneAbbreviations``); `nil` when
  /// none is there.
  private static func zoneName(_ reader: inout DigitReader) -> Int? {
    var base = 0
    var named = false
    if let index = reader.word(from: zoneAbbreviations.map(\.name)) {
      base = zoneAbbreviations[index].hours * 3600
      named = true
      // Only UTC and GMT take an offset after the name (`GMT-7`).
      guard index < 2 else { return base }
    }
    guard let sign = reader.sign() else { return named ? base : nil }
    guard let hours = reader.digits(min: 1, max: 2), hours <= 23 else { return nil }
    var minutes = 0
    if reader.expect(":") {
      guard let value = reader.digits(exactly: 2) else { return nil }
      minutes = value
    } else if let value = reader.digits(exactly: 2) {
      minutes = value
    }
    guard minutes < 60 else { return nil }
    return base + sign * (hours * 3600 + minutes * 60)
  }

  /// The date written with the pattern, in UTC.
  ///
  /// - Throws: ``ConversionFailure/notRepresentable(_:reason:)`` for a date outside the years
  ///   0000 through 9999.
  func format(_ date: Date) throws -> String {
    let f = try Civil.fields(of: date)
    var output = ""
    for token in tokens {
      switch token {
      case .literal(let bytes): output += String(decoding: bytes, as: UTF8.self)
      case .unknown(let symbol, let count):
        output += String(repeating: symbol, count: count)
      case .field(let field, let count):
        switch field {
        case .year: output += count == 2 ? Civil.pad(f.year % 100, 2) : Civil.pad(f.year, count)
        case .month, .standaloneMonth:
          if count >= 4 {
            output += Civil.monthNames[f.month - 1]
          } else if count == 3 {
            output += String(Civil.monthNames[f.month - 1].prefix(3))
          } else {
            output += Civil.pad(f.month, count)
          }
        case .day: output += Civil.pad(f.day, count)
        case .hour: output += Civil.pad(f.hour, count)
        case .hour12: output += Civil.pad(f.hour % 12 == 0 ? 12 : f.hour % 12, count)
        case .amPM: output += f.hour < 12 ? "AM" : "PM"
        case .minute: output += Civil.pad(f.minute, count)
        case .second: output += Civil.pad(f.second, count)
        case .fraction:
          // Microseconds, cut or padded with zeros to `count` digits.
          let micros = Civil.pad(f.fraction, 6)
          output +=
            count <= 6
            ? String(micros.prefix(count)) : micros + String(repeating: "0", count: count - 6)
        case .weekday:
          let name = Civil.weekdayNames[((f.days % 7) + 7) % 7]
          output += count >= 4 ? name : String(name.prefix(3))
        case .offset: output += count == 5 ? "Z" : "+0000"
        case .isoOffset: output += "Z"
        case .isoOffsetWithoutZ: output += "+00"
        case .zoneName: output += "GMT"
        }
      }
    }
    return output
  }
}

extension DateFormat {
  /// What is wrong with a ``pattern(_:)``'s text, or `nil` (see `DatePattern.problem(in:)`):
  /// for loaders of definition files, which report it where the pattern is written.
  package static func patternProblem(_ pattern: String) -> String? {
    DatePattern.problem(in: pattern)
  }
}
