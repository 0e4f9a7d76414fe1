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

  /// Large enough (3.3 MB) that the scanner's tape and the result array are advised to use huge
  /// pages (`_adviseHugePages`): every object still maps exactly, in order.
  @Test func aPayloadWhoseStorageIsAdvisedToUseHugePagesMapsExactly() throws {
    struct Item: Equatable {
      var id = 0
      var name = ""
    }
    let mapping = Mapping(Item.init) {
      Attribute("id", \.id)
      Attribute("name", \.name)
    }
    let count = 110_000
    var text = "["
    for index in 0..<count {
      if index > 0 { text += "," }
      text += #"{"id":\#(index),"name":"item \#(index)"}"#
    }
    text += "]"
    let data = Data(text.utf8)
    #expect(data.count / 6 * 16 >= 8 << 20)
    let items = try mapping.mapCollection(data)
    #expect(items.count == count)
    #expect(
      items.enumerated().allSatisfy { $0.element == Item(id: $0.offset, name: "item \($0.offset)") }
    )
  }
}
