import ObjectMapping
import Testing

@Suite("Mapper trace and concurrency")
struct MapperTraceTests {
  @Test("The trace lists each route matched and each missing key, with paths")
  func trace() throws {
    let provider = MappingProvider {
      Route("user", Shop.userMapping)
      Route("products", Shop.productMapping)
      Route("human", Shop.userMapping)
    }
    let payload = """
      {"user": {"email": "a@b.c"}, "products": [{"id": 1, "name": "Laptop"}, {"name": "Pen"}],
       "errors": ["slow down"]}
      """
    let result = try Mapper(provider, trace: true).map(payload)
    let trace = try #require(result.trace)
    #expect(
      trace.map(\.description) == [
        #"/user: route matched "user""#,
        "/user/name: missing key",
        #"/products: route matched "products""#,
        "/products/1/id: missing key",
        #"/errors: route matched "errors""#,
      ])
    #expect(trace.first == MappingTraceEvent(path: "/user", .routeMatched(keyPath: "user")))
    #expect(
      result.errors.map(\.description) == [
        "/user/name: required value is missing", "/products/1/id: required value is missing",
      ])
  }

  @Test("A key path through an array is traced per value reached; the whole payload as /")
  func traceThroughArrays() throws {
    let provider = MappingProvider(errorRoutes: []) {
      Route("human", Shop.userMapping)
      Route("", Shop.noteMapping)
    }
    let result = try Mapper(provider, trace: true).map(
      #"[{"human": {"name": "Ann"}, "text": "a"}, {"human": {"name": "Bob"}, "text": "b"}]"#)
    #expect(
      result.trace?.map(\.description) == [
        #"/0/human: route matched "human""#,
        #"/1/human: route matched "human""#,
        "/: route matched the whole payload",
      ])
  }

  @Test("No trace unless asked for")
  func noTrace() throws {
    let result = try Mapper(Shop.provider).map(Shop.productsAndCategories)
    #expect(result.trace == nil)
    #expect(Mapper(Shop.provider).isTracing == false)
  }

  @Test("One mapper used from 8 tasks gives the same results as sequential use")
  func concurrentUse() async throws {
    let mapper = Mapper(Shop.provider, trace: true)
    let payloads = (0..<8).map { index in
      """
      {"products": [{"id": \(index), "name": "P\(index)"}, {"id": "bad", "name": "X"}],
       "categories": [{"id": \(index * 10), "name": "C\(index)"}], "errors": ["e\(index)"]}
      """
    }
    func summary(_ payload: String) throws -> [String] {
      let result = try mapper.map(payload)
      return result.asCollection().map { String(describing: $0) }
        + result.errors.map(\.description) + result.diagnostics.map(\.description)
        + (result.trace ?? []).map(\.description)
    }
    let sequential = try payloads.map(summary)
    let concurrent = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
      for (index, payload) in payloads.enumerated() {
        group.addTask { (index, try summary(payload)) }
      }
      var collected = [[String]](repeating: [], count: payloads.count)
      for try await (index, lines) in group { collected[index] = lines }
      return collected
    }
    #expect(concurrent == sequential)
    #expect(sequential[3].first == "Product 3 P3")
  }

  @Test("A result is sent to another task once")
  func sendingResult() async throws {
    let result = try Mapper(Shop.provider).map(Shop.productsAndCategories)
    let count = await Task.detached { result.count }.value
    #expect(count == 4)
  }
}
