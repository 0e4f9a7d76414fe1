/// The keys of a dotted key path, as every layer reads one (a mapping's source, a route's and
/// a response's key path, a stream's array): split at each unescaped `.`, where `\` makes the
/// next character literal (`"user\.name"` is the one key `user.name`) and a trailing `\` is a
/// literal backslash. `escaped[i]` says whether key `i` began with an escaped character
/// (`\@count` is the plain key `@count`, not a collection operator). Always at least one key
/// (`""` is the one empty key).
package func _dottedKeys(_ text: String) -> (keys: [String], escaped: [Bool]) {
  var keys: [String] = []
  var escaped: [Bool] = []
  var current = ""
  var currentEscaped = false
  var escaping = false
  for character in text {
    if escaping {
      if current.isEmpty { currentEscaped = true }
      current.append(character)
      escaping = false
    } else if character == "\\" {
      escaping = true
    } else if character == "." {
      keys.append(current)
      escaped.append(currentEscaped)
      current = ""
      currentEscaped = false
    } else {
      current.append(character)
    }
  }
  if escaping { current.append("\\") }
  keys.append(current)
  escaped.append(currentEscaped)
  return (keys, escaped)
}
