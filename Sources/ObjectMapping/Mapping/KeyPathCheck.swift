import Foundation

/// Finds the key paths a rule must not use because reading or writing through them can stop the
/// program: a force unwrap (`\.address!.city`, which traps when `address` is `nil`) and an index
/// subscript of a standard-library array (`\.items[0]`, which traps when the array is shorter).
///
/// Whether a key path traps depends on the payload (`"address": null`, `"items": []`) or on the
/// model being serialized, so no payload check can catch it once the key path is used: a rule
/// with such a key path is a definition problem, reported by `validate()` and on first use, and
/// its compiled steps never touch the key path (they record an `invalidDefinition` error
/// instead), so a mapping used as a child, whose definition is not checked by itself, cannot
/// trap either.
///
/// Swift does not expose a key path's components. The check reads its `debugDescription`
/// (`\Person.address!.city`; `\Order.items.<computed 0x… (Item)>` for a computed component),
/// which names every force unwrap with `!` whether or not the binary keeps reflection metadata
/// (without it, stored properties print as `<offset 8 (String)>`). Subscripts and computed
/// properties both print as `<computed 0x… (Type)>`; an index subscript of `Array`,
/// `ContiguousArray` or `ArraySlice` is recognised by its accessor, which the standard library
/// shares between all element types, compared with the accessor of a key path made here.
/// Computed properties (property wrappers, boxes for recursive structs) and other subscripts
/// (a dictionary's, which yields an optional) are the model's own code and stay allowed;
/// optional chaining (`\.address?.city`) never traps and gives a read-only key path. The
/// description exists from Swift 5.8's runtime on (macOS 13.3, iOS 16.4): on older Apple
/// systems key paths are not checked. `KeyPathSafetyTests` pins the format, so a toolchain that
/// changes it fails the tests rather than letting a trap through.
enum KeyPathCheck {
  /// What makes a key path unusable.
  enum Hazard: Equatable {
    /// A `!` component.
    case forceUnwrap
    /// An index subscript of an array.
    case indexSubscript
  }

  /// The accessors of the standard library's array index subscripts, as printed in a key
  /// path's description.
  private static let indexSubscriptAccessors: Set<Substring> = {
    let references: [AnyKeyPath] = [
      \[Int].[0], \ContiguousArray<Int>.[0], \ArraySlice<Int>.[0],
      // Range subscripts trap past the end too, and so does `Data`'s byte subscript.
      \[Int].[0..<1], \ContiguousArray<Int>.[0..<1], \ArraySlice<Int>.[0..<1], \Data.[0],
    ]
    return Set(references.flatMap { components(of: $0).compactMap(\.computedAccessor) })
  }()

  /// The problem of `keyPath` for the rule called `rule` (`Attribute "zip"`), worded for the
  /// developer, or `nil` when the key path is safe to use.
  ///
  /// A key path made only of stored properties of structs has an offset in its root and can
  /// never trap: it is accepted without reading its description (which costs about 0.2 ms).
  static func problem<Root>(_ keyPath: PartialKeyPath<Root>, rule: String) -> String? {
    if MemoryLayout<Root>.offset(of: keyPath) != nil { return nil }
    let parts = components(of: keyPath)
    let hazards = parts.compactMap { part -> Hazard? in
      if part.isForceUnwrap { return .forceUnwrap }
      if let accessor = part.computedAccessor, indexSubscriptAccessors.contains(accessor) {
        return .indexSubscript
      }
      return nil
    }
    guard let first = hazards.first else { return nil }
    let shown = rendered(keyPath, parts)
    switch first {
    case .forceUnwrap:
      return
        "\(rule) uses the key path \(shown), whose force unwrap (!) would stop the program "
        + "when the value is nil (a null or absent payload value, or a nil property when "
        + "serializing); map the optional with a Relationship and a mapping of its own, or "
        + "give the model a property of its own for the value"
    case .indexSubscript:
      return
        "\(rule) uses the key path \(shown), whose array subscript ([…]) would stop the "
        + "program when the array is too short; map the whole array (an Attribute or a to-many "
        + "Relationship), or give the model a property of its own for the element"
    }
  }

  /// One piece of a key path's description.
  private struct Component {
    /// The text as printed.
    var text: Substring
    /// The accessor address of a computed component (`0x7f…`).
    var computedAccessor: Substring?
    var isForceUnwrap = false
  }

  /// The pieces of `keyPath`'s description after its root type (`\Person`), in order: names,
  /// dots, `<offset …>` and `<computed …>` groups, `!` and `?`. Backquoted names and the type in
  /// a group's parentheses are read whole, so a `!` in them is not taken for a force unwrap.
  private static func components(of keyPath: AnyKeyPath) -> [Component] {
    // Older Apple systems have no key path descriptions: their key paths are not checked.
    guard #available(macOS 13.3, iOS 16.4, tvOS 16.4, watchOS 9.4, *) else { return [] }
    let description = keyPath.debugDescription
    let root = "\\\(type(of: keyPath).rootType)"
    var text = Substring(description)
    if text.hasPrefix(root) { text = text.dropFirst(root.count) }
    var components: [Component] = []
    var index = text.startIndex
    while index < text.endIndex {
      let start = index
      let character = text[index]
      index = text.index(after: index)
      switch character {
      case "!":
        components.append(Component(text: text[start..<index], isForceUnwrap: true))
      case "`":
        while index < text.endIndex, text[index] != "`" { index = text.index(after: index) }
        if index < text.endIndex { index = text.index(after: index) }
        components.append(Component(text: text[start..<index]))
      case "<":
        var parentheses = 0
        while index < text.endIndex {
          let inner = text[index]
          index = text.index(after: index)
          if inner == "(" { parentheses += 1 }
          if inner == ")" { parentheses -= 1 }
          if inner == ">", parentheses <= 0 { break }
        }
        let group = text[start..<index]
        var component = Component(text: group)
        if group.hasPrefix("<computed ") {
          component.computedAccessor = group.dropFirst("<computed ".count).prefix { $0 != " " }
        }
        components.append(component)
      default:
        // Names, dots and `?`: nothing that traps.
        components.append(Component(text: text[start..<index]))
      }
    }
    return components
  }

  /// `keyPath` as shown in messages: its root type, computed components without their
  /// addresses (`<computed (Int)>`), index subscripts as `[…]`.
  private static func rendered(_ keyPath: AnyKeyPath, _ components: [Component]) -> String {
    var text = "\\\(type(of: keyPath).rootType)"
    for component in components {
      guard let accessor = component.computedAccessor else {
        text += component.text
        continue
      }
      if indexSubscriptAccessors.contains(accessor) {
        if text.hasSuffix(".") { text.removeLast() }
        text += "[…]"
      } else {
        text += "<computed " + component.text.dropFirst("<computed ".count + accessor.count + 1)
      }
    }
    return text
  }
}
