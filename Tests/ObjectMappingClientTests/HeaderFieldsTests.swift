import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Testing

/// `HeaderFields`, the case-insensitive header type (issue 33), and the test support's gzip
/// bodies, checked by the real transport's decompression.
@Suite("HeaderFields and Gzip")
struct HeaderFieldsTests {
  @Test func namesAreComparedWithoutRegardToCase() {
    var fields: HeaderFields = ["Content-Type": "text/plain", "ETag": "\"1\""]
    #expect(fields["content-type"] == "text/plain" && fields["ETAG"] == "\"1\"")
    fields["CONTENT-TYPE"] = "application/json"
    #expect(fields.fields.map(\.name) == ["Content-Type", "ETag"])
    #expect(fields["Content-Type"] == "application/json")
    fields.append("a=1", for: "Set-Cookie")
    fields.append("b=2", for: "set-cookie")
    #expect(fields.values(for: "SET-COOKIE") == ["a=1", "b=2"])
    fields["set-cookie"] = "c=3"
    #expect(fields.values(for: "Set-Cookie") == ["c=3"])
    fields["etag"] = nil
    #expect(fields["ETag"] == nil && fields.fields.count == 2)
    #expect(fields.description == "Content-Type: application/json\nSet-Cookie: c=3")
  }

  @Test func mergingLetsTheArgumentWinInAnyCapitalisation() {
    let manager: HeaderFields = ["Authorization": "Bearer m", "Accept-Language": "fr", "X-A": "1"]
    let request: HeaderFields = ["authorization": "Bearer r", "x-a": "2"]
    let merged = manager.merging(request)
    #expect(merged["AUTHORIZATION"] == "Bearer r" && merged["X-A"] == "2")
    #expect(merged.values(for: "authorization") == ["Bearer r"])
    #expect(merged.fields.map(\.name) == ["Accept-Language", "authorization", "x-a"])
    let lower: HeaderFields = ["a": "1"]
    let upper: HeaderFields = ["A": "1"]
    let other: HeaderFields = ["a": "2"]
    #expect(lower == upper && lower != other)
    #expect(Set([lower, upper]).count == 1)
  }

  @Test func crc32MatchesTheTableAndTheCheckValue() {
    #expect(Gzip.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
    for count in [0, 1, 2, 7, 255, 256, 1_000, 65_537] {
      #expect(Gzip.crc32OfZeros(count: count) == Gzip.crc32([UInt8](repeating: 0, count: count)))
    }
  }

  @Test func gzipBodiesInflateThroughTheRealTransport() async throws {
    let text = Array((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
    let server = try LoopbackServer { request in
      let body: [UInt8]
      switch request.path {
      case "/stored": body = Gzip.stored(text)
      case "/empty": body = Gzip.stored([])
      default: body = Gzip.zeros(count: Int(request.path.dropFirst()) ?? 0)
      }
      return LoopbackServer.Response(status: 200, headers: ["Content-Encoding": "gzip"], body: body)
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    #expect(try await manager.send(.get, "/stored").body == Data(text))
    #expect(try await manager.send(.get, "/empty").body.isEmpty)
    for count in [1, 258, 259, 1_000_000] {
      let body = try await manager.send(.get, "/\(count)").body
      #expect(body.count == count && body.allSatisfy { $0 == 0 }, "\(count)")
    }
    #expect(Gzip.zeros(count: 1_000_000).count < 7_000)
  }
}
