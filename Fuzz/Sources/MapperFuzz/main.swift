import Foundation
import ObjectMapping

/// Maps the input (JSON) with `Mappings.gadget` through every entry point: `map` (lenient and
/// strict coercion), `mapCollection` (throwing and skipping invalid elements), `map(_:onto:)`,
/// `report`, and a `Mapper` over several routes. Mapping never crashes; a failed `map(_:onto:)`
/// leaves the existing object untouched; a mapped object serializes, its payload maps back,
/// and that object serializes to the same payload.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMapper(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)

  /// `precondition` that prints its message in release builds too.
  func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
  }

  let gadget = Mappings.gadget

  /// Serialize, map back, serialize again: the second payload equals the first.
  func checkRoundTrip(_ object: Gadget) {
    do {
      let payload = try gadget.node(object)
      let again = try gadget.map(payload)
      let payloadAgain = try gadget.node(again)
      require(payload == payloadAgain, "\(payload) serialized again as \(payloadAgain)")
      let json = try gadget.serialize(object)
      _ = try gadget.map(json)
    } catch {
      fatalError("round trip of \(object) failed: \(error)")
    }
  }

  if let object = try? gadget.map(data) { checkRoundTrip(object) }
  if let object = try? gadget.coercion(.strict).map(.json(data, reading: .lenient)) {
    checkRoundTrip(object)
  }
  // The valid elements round-trip, whether or not others failed (then they are the partial
  // result).
  let objects: [Gadget]
  do {
    objects = try gadget.mapCollection(data)
  } catch {
    objects = error.partialResult(as: [Gadget].self) ?? []
  }
  for object in objects.prefix(4) { checkRoundTrip(object) }

  let original = Gadget(
    id: 1, name: "saw", tags: ["a"], codes: [1], owner: Owner(id: 2, name: "Ann"),
    parts: [Part(sku: "p", count: 1)], children: [Gadget(id: 3)],
    attachments: [.note(Note(text: "n"))])
  var existing = original
  do {
    try gadget.map(data, onto: &existing)
  } catch {
    require(existing == original, "a failed map(_:onto:) changed the object: \(existing)")
  }

  let report = gadget.report(data)
  _ = report.summary
  if report.succeeded, let object = report.object { checkRoundTrip(object) }

  if let result = try? Mapper(Mappings.provider, trace: true).map(.json(data, reading: .lenient)) {
    _ = (result.count, result.keyPaths, result.asDictionary(), result.asError())
    for object in result.all(Gadget.self).prefix(4) { checkRoundTrip(object) }
    _ = result.all(Attachment.self)
  }
  return 0
}
