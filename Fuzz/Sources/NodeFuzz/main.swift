import Foundation
import ObjectMapping

/// Builds a `Node` directly from the input (`NodeBuilder`) and checks the writers and bridges
/// on it: JSON writes (compact, pretty, sorted) unless a double is not finite, and reads back
/// equal with an equal hash (a node deeper than 512 levels only with a raised depth limit);
/// `Node(foundation:)` of its `foundationValue` gives the documented normalisation back; form
/// writing either works and reads back, or refuses with `.notRepresentable`; and a mapping reads
/// the same object from the node as from its JSON text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNode(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  var builder = NodeBuilder(Array(UnsafeBufferPointer(start: start, count: count)))
  let node = builder.node()

  // JSON: writes unless a double is not finite, and reads back equal.
  var json: Data?
  do {
    json = try node.jsonData()
    require(!builder.hasNonFinite, "a non-finite double was written: \(short(node))")
  } catch let error as FormatError {
    guard case .nonFiniteNumber = error.kind, builder.hasNonFinite else {
      fatalError("writing \(short(node)) failed: \(error)")
    }
  } catch {
    fatalError("the writer threw a non-FormatError \(error)")
  }
  let deepOptions = JSONReadingOptions(maximumDepth: max(512, builder.deepest + 1))
  if let json {
    do {
      let reread = try Node(jsonData: json, options: deepOptions)
      require(reread == node, "round trip changed \(short(node)) into \(short(reread))")
      require(reread.hashValue == node.hashValue, "equal nodes hash differently: \(short(node))")
      // Pretty output indents every line by its depth, so its size grows with depth squared:
      // checked up to 64 levels, where it stays small.
      if builder.deepest <= 64 {
        let pretty = try Node(
          jsonData: node.jsonData(options: .prettyPrinted), options: deepOptions)
        require(pretty == node, "pretty round trip changed \(short(node)) into \(short(pretty))")
      }
      _ = try Node(jsonData: node.jsonData(options: .sortedKeys), options: deepOptions)
    } catch {
      fatalError("reading back \(short(node)) failed: \(error)")
    }
    if builder.deepest > 512 {
      do {
        _ = try Node(jsonData: json)
        fatalError("a document \(builder.deepest) levels deep passed the 512 limit")
      } catch let error as FormatError {
        guard case .depthLimitExceeded = error.kind else { fatalError("unexpected \(error)") }
      } catch {
        fatalError("the reader threw a non-FormatError \(error)")
      }
    }
  }

  // Foundation: the documented normalisation comes back.
  do {
    let bridged = try Node(
      foundation: node.foundationValue, maximumDepth: max(512, builder.deepest + 1))
    let expected = foundationNormalized(node)
    require(
      sameAfterFoundation(bridged, expected),
      "Foundation round trip gave \(short(bridged)), expected \(short(expected))")
  } catch {
    fatalError("Node(foundation:) of \(short(node)).foundationValue failed: \(error)")
  }

  // Form: writes and reads back, or refuses with .notRepresentable / .nonFiniteNumber (or the
  // depth limit). A repeated key is refused (finding F2 in Documentation/Fuzzing.md, fixed).
  do {
    let form = try node.formURLEncodedData()
    if !builder.hasDuplicateKeys {
      // The first write normalises (nulls and empty containers left out, numbers as text, arrays
      // of scalars with brackets); from then on, reading and writing is a fixed point.
      let normalised = try Node(formURLEncoded: form).formURLEncodedData()
      let reread = try Node(formURLEncoded: normalised)
      let again = try reread.formURLEncodedData()
      require(
        again == normalised,
        "form text \(String(decoding: normalised, as: UTF8.self)) of \(short(node)) read back "
          + "as \(short(reread)) and written as \(String(decoding: again, as: UTF8.self))")
    }
  } catch let error as FormatError {
    switch error.kind {
    case .notRepresentable, .nonFiniteNumber: break
    case .depthLimitExceeded where builder.deepest > 512: break
    default: fatalError("form writing of \(short(node)) failed: \(error)")
    }
  } catch {
    fatalError("the form writer threw a non-FormatError \(error)")
  }

  // Mapping: the node and its JSON text map to the same object, or fail the same way. A node
  // deeper than 512 levels is refused by `map(node)` with the depth limit (finding F3, fixed),
  // and checked for exactly that; its text is read with a deeper limit, so it is not compared.
  if builder.deepest > 512 {
    do {
      _ = try sampleMapping.map(node)
      fatalError("a node \(builder.deepest) levels deep mapped past the depth limit")
    } catch {
      require(
        error.errors.allSatisfy {
          if case .format(.depthLimitExceeded) = $0.kind { return true } else { return false }
        }, "a node deeper than the limit failed with \(error)")
    }
  }
  if let json, builder.deepest <= 512 {
    let fromNode = Result { () throws(MappingErrors) in try sampleMapping.map(node) }
    let fromText = Result { () throws(MappingErrors) in
      try sampleMapping.map(.json(json, reading: deepOptions))
    }
    switch (fromNode, fromText) {
    case (.success(let a), .success(let b)):
      // An integral double of 2^53 or more maps to the integer its shortest text names, from
      // the node as from its JSON text (finding F4, fixed).
      require(a == b, "the node mapped to \(a), its JSON text to \(b)")
    case (.failure(let a), .failure(let b)):
      // The same paths fail; the texts may differ where a found value is quoted (a `.double`
      // node is `661` in the node and `661.0` in the JSON text).
      require(
        a.errors.map(\.path) == b.errors.map(\.path),
        "the node failed with \(a), its JSON text with \(b)")
    default:
      fatalError("node and JSON text disagree: \(fromNode) vs \(fromText) for \(short(node))")
    }
  }
  return 0
}
