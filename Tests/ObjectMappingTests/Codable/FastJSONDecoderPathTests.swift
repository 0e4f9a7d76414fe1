import Foundation
import ObjectMapping
import Testing

/// The coding paths `FastJSONDecoder` hands to models are `JSONDecoder`'s, at every kind of
/// nesting (issue 20: the decoder keeps the path as a chain and builds the array only when a
/// model or an error asks for it).
@Suite("FastJSONDecoder coding paths")
struct FastJSONDecoderPathTests {
  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// A path as text: a key by its name, an index as `#n` (`JSONDecoder` names index keys
  /// "Index n"; both give the index as `intValue`).
  static func render(_ path: [any CodingKey]) -> String {
    path.map { key in key.intValue.map { "#\($0)" } ?? key.stringValue }.joined(separator: "/")
  }

  /// Records the paths it sees: its decoder's, its container's, and a value's.
  struct Leaf: Decodable, Equatable {
    var decoderPath: String
    var containerPath: String
    var value: Int

    init(from decoder: any Decoder) throws {
      decoderPath = render(decoder.codingPath)
      let container = try decoder.container(keyedBy: Key.self)
      containerPath = render(container.codingPath)
      value = try container.decode(Int.self, forKey: Key("v"))
    }
  }

  /// A value read through a single-value container, holding a leaf.
  struct Wrapped: Decodable, Equatable {
    var path: String
    var leaf: Leaf

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      path = render(container.codingPath)
      leaf = try container.decode(Leaf.self)
    }
  }

  struct Root: Decodable, Equatable {
    var one: Leaf
    var list: [Leaf]
    var grid: [[Leaf]]
    var byName: [String: Leaf]
    var nestedPaths: [String]
    var unkeyedPaths: [String]
    var superPath: String
    var single: Wrapped
    var optional: Leaf?

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Key.self)
      one = try container.decode(Leaf.self, forKey: Key("one"))
      list = try container.decode([Leaf].self, forKey: Key("list"))
      grid = try container.decode([[Leaf]].self, forKey: Key("grid"))
      byName = try container.decode([String: Leaf].self, forKey: Key("byName"))
      let nested = try container.nestedContainer(keyedBy: Key.self, forKey: Key("nested"))
      var items = try nested.nestedUnkeyedContainer(forKey: Key("items"))
      nestedPaths = [render(nested.codingPath), render(items.codingPath)]
      var paths: [String] = []
      while !items.isAtEnd {
        var inner = try items.nestedUnkeyedContainer()
        paths.append(render(inner.codingPath))
        while !inner.isAtEnd { paths.append(try inner.decode(Leaf.self).decoderPath) }
      }
      unkeyedPaths = paths
      superPath = render(try container.superDecoder(forKey: Key("one")).codingPath)
      single = try container.decode(Wrapped.self, forKey: Key("single"))
      optional = try container.decodeIfPresent(Leaf.self, forKey: Key("optional"))
    }
  }

  static let payload = """
    {"one": {"v": 1}, "list": [{"v": 2}, {"v": 3}], "grid": [[{"v": 4}], [{"v": 5}, {"v": 6}]],
     "byName": {"ann": {"v": 7}}, "nested": {"items": [[{"v": 8}], [], [{"v": 9}]]},
     "single": {"v": 10}, "optional": {"v": 11}}
    """

  @Test func modelsSeeJSONDecodersPathsAtEveryLevel() throws {
    let fast = try FastJSONDecoder().decode(Root.self, from: Self.payload)
    let foundation = try JSONDecoder().decode(Root.self, from: Data(Self.payload.utf8))
    #expect(fast == foundation)
    // Spelled out, so the test also fails if both were wrong the same way.
    #expect(fast.one.decoderPath == "one" && fast.one.containerPath == "one")
    #expect(fast.list.map(\.decoderPath) == ["list/#0", "list/#1"])
    #expect(
      fast.grid.flatMap { $0.map(\.containerPath) } == ["grid/#0/#0", "grid/#1/#0", "grid/#1/#1"])
    #expect(fast.byName["ann"]?.decoderPath == "byName/ann")
    #expect(fast.nestedPaths == ["nested", "nested/items"])
    #expect(
      fast.unkeyedPaths == [
        "nested/items/#0", "nested/items/#0/#0", "nested/items/#1", "nested/items/#2",
        "nested/items/#2/#0",
      ])
    #expect(fast.superPath == "one")
    #expect(fast.single.path == "single" && fast.single.leaf.decoderPath == "single")
    #expect(fast.optional?.containerPath == "optional")
  }

  @Test func errorsDeepInsideArraysNameTheirPath() throws {
    let decoder = FastJSONDecoder()
    decoder.errorReporting = .mappingErrors
    let bad = Self.payload.replacingOccurrences(of: #"{"v": 6}"#, with: #"{"v": "six"}"#)
    let error = #expect(throws: MappingErrors.self) {
      try decoder.decode(Root.self, from: bad)
    }
    #expect(error?.errors.map(\.path) == ["/grid/1/1/v"])
    let missing = Self.payload.replacingOccurrences(of: #"[{"v": 9}]"#, with: #"[{"w": 9}]"#)
    let absent = #expect(throws: MappingErrors.self) {
      try decoder.decode(Root.self, from: missing)
    }
    #expect(absent?.errors.map(\.path) == ["/nested/items/2/0/v"])
  }

  @Test func aCustomKeyStrategySeesThePathOfEachKey() throws {
    let seen = Locked<Set<String>>([])
    let decoder = FastJSONDecoder()
    decoder.keyDecodingStrategy = .custom { path in
      seen.withLock { _ = $0.insert(FastJSONDecoderPathTests.render(path)) }
      return path[path.count - 1]
    }
    _ = try decoder.decode(Root.self, from: Self.payload)
    let foundationSeen = Locked<Set<String>>([])
    let foundation = JSONDecoder()
    foundation.keyDecodingStrategy = .custom { path in
      foundationSeen.withLock { _ = $0.insert(FastJSONDecoderPathTests.render(path)) }
      return path[path.count - 1]
    }
    _ = try foundation.decode(Root.self, from: Data(Self.payload.utf8))
    let ours = seen.withLock { $0 }
    #expect(ours.contains("grid/#1/#1/v") && ours.contains("nested/items"))
    #expect(ours == foundationSeen.withLock { $0 })
  }
}
