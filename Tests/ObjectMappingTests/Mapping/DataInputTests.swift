import Foundation
import Testing

@testable import ObjectMapping

/// `map(_: Data)` and `mapCollection(_: Data)` scan the `Data`'s own bytes without copying them.
@Suite struct DataInputTests {
  @Test func slicesAndCollectionsMapFromTheirOwnBytes() throws {
    let bytes = Data(#"xx{"id": 3, "title": "T", "author": {"name": "Ann"}}"#.utf8)
    let slice = bytes[bytes.index(bytes.startIndex, offsetBy: 2)...]
    #expect(
      try articleMapping.map(slice)
        == Article(id: 3, title: "T", author: Author(name: "Ann")))
    let list = Data(#"[{"id": 1, "title": "a"}, {"id": 2, "title": "b\u00e9"}]"#.utf8)
    #expect(
      try articleMapping.mapCollection(list).map(\.title) == ["a", "bé"])
  }

  @Test func syntaxErrorsAndEmptyDataAreReported() {
    #expect(
      errorLines { try articleMapping.map(Data()) }
        == ["syntax error at line 1, column 1 (byte 0): expected a value, found end of input"])
    #expect(errorLines { try articleMapping.mapCollection(Data("[1,".utf8)) }.count == 1)
  }
}
