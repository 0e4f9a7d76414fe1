/// The text of ``MappingError/Kind/nothingFound(searched:topLevelKeys:)``:
///
/// ```
/// nothing to map: no route found mappable content at "articles", "people"; the payload's top-level keys are "data", "meta"
/// ```
///
/// The key paths are sorted (``MappingProvider``); the whole payload reads `the whole payload`;
/// a payload that is not an object says so; past 20 top-level keys the rest are counted.
func nothingFoundDescription(searched: [String], topLevelKeys: [String]?) -> String {
  var text = "nothing to map: "
  if searched.isEmpty {
    text += "the provider has no routes"
  } else {
    let paths = searched.map { $0.isEmpty ? "the whole payload" : quotedForMessage($0) }
    text += "no route found mappable content at " + paths.joined(separator: ", ")
  }
  guard let topLevelKeys else { return text + "; the payload is not an object" }
  let shown = topLevelKeys.prefix(20).map(quotedForMessage).joined(separator: ", ")
  let more = topLevelKeys.count > 20 ? " and \(topLevelKeys.count - 20) more" : ""
  return text + "; the payload's top-level keys are " + shown + more
}
