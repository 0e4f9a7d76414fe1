import Foundation
import ObjectMapping
import ObjectMappingDefinitions

/// Reads the input as a definition file three ways (an AppCoreKit `.mappings` file, a CSMapper
/// JSON file and a CSMapper property list), which exercises both readers of definition files
/// and the loader behind them. A file loads or gives errors that all point into it; the
/// `.mappings` reader's syntax errors are exactly the document layer's JSON reader's (one
/// reader); what loads builds its mappings, maps fixed payloads, and what maps serializes and
/// maps back to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDefinitions(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  checkAppCoreKit(text)
  checkCSMapper(text, name: "Person.json")
  checkCSMapper(text, name: "Person.plist")
  return 0
}
