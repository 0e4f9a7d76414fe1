import Foundation
import ObjectMapping

/// Reads the input as `application/x-www-form-urlencoded`. Every input either reads or throws a
/// `FormatError` whose location lies inside the input; a node that reads is an object of
/// strings, arrays and objects, writes back with every option set, and re-reads to an equal node.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormReader(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)

  /// `precondition` that prints its message in release builds too.
  func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
  }

  let node: Node
  do {
    node = try Node(formURLEncoded: data)
  } catch let error as FormatError {
    switch error.kind {
    case .syntax(_, let location), .invalidUTF8(let location),
      .depthLimitExceeded(_, let location):
      require(location.offset >= 0 && location.offset <= count, "location \(location)")
      require(location.line == 1 && location.column >= 1, "location \(location)")
    default:
      fatalError("unexpected reader error \(error)")
    }
    return 0
  } catch {
    fatalError("reader threw a non-FormatError \(error)")
  }
  guard case .object(let members) = node else { fatalError("form read as a non-object \(node)") }
  // `=a&=b` reads as {"": ["a", "b"]}, which form data cannot write back: the writer must say so.
  if members.contains(where: { member in
    guard member.key.isEmpty else { return false }
    switch member.value {
    case .array, .object: return true
    default: return false
    }
  }) {
    do {
      _ = try node.formURLEncodedData()
      fatalError("an empty key holding a container was written: \(node)")
    } catch let error as FormatError {
      guard case .notRepresentable = error.kind else { fatalError("unexpected \(error)") }
    } catch {
      fatalError("writer threw a non-FormatError \(error)")
    }
    return 0
  }
  for arrays in [FormEncodingOptions.ArrayEncoding.brackets, .indexed] {
    do {
      let written = try node.formURLEncodedData(options: FormEncodingOptions(arrays: arrays))
      let reread = try Node(formURLEncoded: written)
      require(reread == node, "round trip changed \(node) into \(reread)")
      let text = try node.formURLEncodedString(options: FormEncodingOptions(arrays: arrays))
      require(Data(text.utf8) == written, "string and data writers differ")
    } catch {
      fatalError("round trip of \(node) failed: \(error)")
    }
  }
  // The same bytes as a String read identically (they are valid UTF-8 whenever they read).
  if let text = String(data: data, encoding: .utf8) {
    do {
      let fromText = try Node(formURLEncoded: text)
      require(fromText == node, "String and Data readers differ")
    } catch {
      fatalError("String reader failed where the Data reader succeeded: \(error)")
    }
  }
  return 0
}
