/// One step of a path into a payload.
package enum _PathComponent: Sendable, Equatable {
  case key(String)
  case index(Int)
}

/// Renders path components as a JSON Pointer (RFC 6901): `/articles/3/author`, with `~` and
/// `/` in keys escaped as `~0` and `~1`, compared as Unicode scalars (a `/` followed by a
/// combining mark is still a `/`).
package func _jsonPointer(_ components: some Sequence<_PathComponent>) -> String {
  var result = ""
  for component in components {
    result += "/"
    switch component {
    case .index(let index): result += String(index)
    case .key(let key):
      if key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
        for scalar in key.unicodeScalars {
          switch scalar {
          case "~": result += "~0"
          case "/": result += "~1"
          default: result.unicodeScalars.append(scalar)
          }
        }
      } else {
        result += key
      }
    }
  }
  return result
}
