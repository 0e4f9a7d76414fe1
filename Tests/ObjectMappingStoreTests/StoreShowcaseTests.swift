import ObjectMappingClient
import ObjectMappingStore
import ShowcaseKit
import Testing

/// The showcase's persistent store section runs a whole session on a database file: loads from
/// its loopback server, a failing load that changes nothing, then offline reads.
@Suite("PersistentStore showcase")
struct StoreShowcaseTests {
  @Test func theSessionSavesLoadsAndReadsOffline() async {
    // Patient: see StoreClientLoadTests.manager(_:).
    let section = await PersistentStoreShowcase.section(
      limits: RequestLimits(timeout: .seconds(600)))
    #expect(section.title == "8. A persistent store: load from the server, read offline")
    #expect(
      section.lines == [
        "loaded GET /tasks from the loopback server into Tasks.sqlite: 3 tasks, one transaction",
        #"loaded it again: 3 tasks; removed the ones it no longer lists: #2 "Serialize a form body""#,
        "a failing response (status 500: maintenance) changed nothing: 3 tasks stored",
        "stopped the server; reopened the file read-only, offline",
        "open tasks: #4 Read offline (ann); #3 Write the store guide (bob)",
        "ann's tasks, newest first: #4, #1",
        "task 1: Map the timeline, done: true",
        "saving offline: open read-only, refused",
        #"a query on a key path the mapping does not write: Task: \Todo.title.<computed (Int)> is not written by the mapping; query, order or index a property an Attribute writes (through a to-one relationship: \.author.name, or \.author!.name when it is optional)"#,
      ])
  }
}
