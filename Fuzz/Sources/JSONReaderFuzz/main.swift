import Foundation
import ObjectMapping

/// Reads the input as JSON, strict and lenient. Every input either reads or throws a
/// `FormatError` whose location lies inside the input; strict success implies lenient success
/// with an equal node; a node that reads writes back (compact and pretty) and re-reads strictly
/// to an equal node with an equal hash; it writes the same text as the node read through the
/// Codable path (the mapping layer's tape).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONReader(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)

  /// `precondition` that prints its message in release builds too.
  func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
  }

  func read(_ options: JSONReadingOptions) -> Node? {
    do {
      return try Node(jsonData: data, options: options)
    } catch let error as FormatError {
      switch error.kind {
      case .syntax(_, let location), .invalidUTF8(let location),
        .depthLimitExceeded(_, let location):
        require(location.offset >= 0 && location.offset <= count, "location \(location)")
        require(location.line >= 1 && location.column >= 1, "location \(location)")
      default:
        fatalError("unexpected reader error \(error)")
      }
      return nil
    } catch {
      fatalError("reader threw a non-FormatError \(error)")
    }
  }

  func rereads(_ node: Node) {
    for options: JSONWritingOptions in [[], .prettyPrinted] {
      do {
        let written = try node.jsonData(options: options)
        let reread = try Node(jsonData: written)
        require(reread == node, "round trip changed \(node) into \(reread)")
        require(reread.hashValue == node.hashValue, "equal nodes hash differently: \(node)")
      } catch {
        fatalError("round trip of \(node) failed: \(error)")
      }
    }
    // Sorted keys change member order only: the output still reads.
    do {
      _ = try Node(jsonData: try node.jsonData(options: [.sortedKeys, .prettyPrinted]))
    } catch {
      fatalError("sorted round trip of \(node) failed: \(error)")
    }
  }

  /// The node read from the bytes (numbers packed while they are scanned) writes the same text
  /// as the node the Codable path builds from the mapping layer's tape (numbers packed from
  /// their bytes), when no key repeats (that path keeps the first of equal keys).
  func matchesTheTapePath() {
    guard
      let unique = try? Node(
        jsonData: data, options: JSONReadingOptions(rejectsDuplicateKeys: true)),
      let decoded = try? FastJSONDecoder().decode(Node.self, from: data)
    else { return }
    do {
      let written = try unique.jsonData()
      require(written == (try decoded.jsonData()), "read \(unique), tape path \(decoded)")
    } catch {
      fatalError("writing \(unique) failed: \(error)")
    }
  }

  let strict = read(.strict)
  var lenientOptions = JSONReadingOptions.lenient
  lenientOptions.loneSurrogates = .replace
  let lenient = read(lenientOptions)
  if let strict {
    guard let lenient else { fatalError("strict accepted what lenient rejected") }
    require(strict == lenient, "strict \(strict) and lenient \(lenient) differ")
    rereads(strict)
    matchesTheTapePath()
  } else if let lenient {
    rereads(lenient)
  }
  return 0
}
