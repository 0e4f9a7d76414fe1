import ObjectMapping

/// One object definition read from a file, before it is bound to a type: an AppCoreKit context
/// (or an inline `@mappings`), or a CSMapper class file.
struct ObjectSpec: Sendable {
  enum Format: Sendable {
    case appCoreKit
    case csMapper
  }

  /// The context's name (`$TweetModel`), a generated name for an inline definition
  /// (`$TweetModel.user`), or the class file's name (`Person`).
  var name: String
  var location: DefinitionLocation
  var format: Format
  /// The class the definition names (`@class`); for CSMapper, the file's name.
  var className: (name: String, location: DefinitionLocation)?
  var properties: [PropertySpec] = []
  /// CSMapper's `__parent__`, in order (later wins).
  var parents: [ParentReference] = []
  /// Whether this is an inline `@mappings` (named after its owner and property,
  /// `$TweetModel.user`), not a context: a context's own name may hold a dot too (`$User.v2`).
  var isInline = false
}

/// One entry of CSMapper's `__parent__`.
struct ParentReference: Sendable {
  var name: String
  var location: DefinitionLocation
  /// The parent has no file, or closes a cycle (both reported): it is left out.
  var isLeftOut = false
}

/// One property of an object definition.
struct PropertySpec: Sendable {
  var name: String
  var location: DefinitionLocation
  var source: SourcePath
  /// The key path as the file wrote it (`@self`, `user.name`); `nil` when the file gives none
  /// (the property's name is read).
  var keyPath: String?
  var compoundSources: [String]?
  /// For each of ``compoundSources``, the `default` its entry gives (CSMapper's
  /// `{"key": …, "default": …}`), used when that key is absent or `null` and another is not.
  var compoundDefaults: [DefinitionValue?] = []
  var presence: RuleRequest.Presence
  var defaultValue: DefinitionValue?
  var transform:
    (
      className: String?, selector: String, userData: DefinitionValue?, location: DefinitionLocation
    )?
  var child: ChildReference?
  var policy: (policy: CollectionPolicy, location: DefinitionLocation)?
  var groups: [String] = []
  /// CSMapper's `type`: a forced conversion (`NSString`) or a class (`ContactInfo`).
  var forcedType: (name: String, location: DefinitionLocation)?
}

/// The source a file's key path names: `@self` (or an empty path) is the object being mapped
/// (`SourcePath/root`), `@index` its position in its collection, `@parent`, `@root` and
/// `@metadata.…` as in the DSL's strings (RestKit's names, read by `SourcePath(_:)`), anything
/// else a dotted key path.
func _sourcePath(_ text: String) -> SourcePath {
  switch text {
  case "": return .root
  case "@index": return .index
  default: return SourcePath(text)
  }
}
