import Foundation
import ObjectMapping
import Testing

/// `SourcePath.metadata`: facts about the call (RestKit's `@metadata`) that mappings read,
/// passed with `MappingOptions(metadata:)` (issue 18).
@Suite("Metadata source")
struct MetadataSourceTests {
  struct Page: Equatable, Sendable {
    var items: [String] = []
    var number = 0
    var etag: String?
    var firstTag: String?
  }

  static let mapping = Mapping(Page.init) {
    Attribute("items", \.items)
    Attribute(SourcePath.metadata.appending("request.page"), \.number, default: 1)
    Attribute(SourcePath.metadata.appending("headers.etag"), \.etag)
    Attribute(SourcePath.metadata.appending("tags.0"), \.firstTag)
  }

  @Test func mappingsReadTheCallsMetadata() throws {
    let metadata: Node = [
      "request": ["page": 3], "headers": ["etag": "\"abc\""], "tags": ["t1", "t2"],
    ]
    let page = try Self.mapping.map(
      #"{"items": ["a"]}"#, with: MappingOptions(metadata: metadata))
    #expect(page == Page(items: ["a"], number: 3, etag: "\"abc\"", firstTag: "t1"))
    // Without metadata the sources are absent: defaults and nil.
    let plain = try Self.mapping.map(#"{"items": []}"#)
    #expect(plain == Page(items: [], number: 1, etag: nil, firstTag: nil))
    // A wrong type in the metadata is an error at the rule's property, like any other value.
    #expect(throws: MappingErrors.self) {
      try Self.mapping.map(
        #"{"items": []}"#, with: MappingOptions(metadata: ["request": ["page": "x"]]))
    }
  }

  @Test func theInverseWritesNothingForMetadata() throws {
    let json = String(
      decoding: try Self.mapping.serialize(Page(items: ["a"], number: 3, etag: "e")),
      as: UTF8.self)
    #expect(json == #"{"items":["a"]}"#)
    #expect(SourcePath.metadata.appending("request.page").description == "@metadata.request.page")
  }
}
