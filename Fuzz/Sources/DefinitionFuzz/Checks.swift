import Foundation
import ObjectMapping
import ObjectMappingDefinitions

/// `precondition` that prints its message in release builds too.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError(message()) }
}

/// Every error of a set of files that failed to load has a place in `file`.
func checkErrors(_ errors: DefinitionErrors, file: String) {
  require(!errors.errors.isEmpty, "a load failed without an error")
  for error in errors.errors {
    guard let location = error.location else {
      fatalError("an error without a place: \(error)")
    }
    require(
      location.file == file && location.line >= 1 && location.column >= 1,
      "an error outside the file: \(error)")
    require(!error.message.isEmpty, "an error without a message at \(location)")
  }
}

/// The JSON dialect of `.mappings` files, as the document layer reads it.
let definitionJSON: JSONReadingOptions = {
  var options = JSONReadingOptions.lenient
  options.maximumDepth = 64
  options.rejectsDuplicateKeys = true
  return options
}()

func checkAppCoreKit(_ text: String) {
  let name = "F.mappings"
  // One reader: the file's syntax errors are the document layer's.
  var expectedSyntax: (message: String, line: Int, column: Int)?
  do {
    _ = try Node(jsonString: text, options: definitionJSON)
  } catch let error as FormatError {
    switch error.kind {
    case .syntax(let message, let location):
      expectedSyntax = (message, location.line, location.column)
    case .depthLimitExceeded(let limit, let location):
      expectedSyntax = ("nesting deeper than \(limit) levels", location.line, location.column)
    case .invalidUTF8(let location):
      expectedSyntax = ("invalid UTF-8", location.line, location.column)
    default: fatalError("an unexpected reading error: \(error)")
    }
  } catch {
    fatalError("an unexpected reading error: \(error)")
  }
  let catalog: DefinitionCatalog
  do {
    catalog = try DefinitionCatalog(
      appCoreKitFiles: [.string(text, name: name)], types: Fixtures.types,
      transforms: Fixtures.transforms, conditions: DefinitionConditions(["ipad": true]))
  } catch {
    checkErrors(error, file: name)
    let syntax = error.errors.filter { $0.kind == .syntax }
    if let expectedSyntax {
      require(
        syntax.count == 1 && syntax[0].message == expectedSyntax.message
          && syntax[0].location?.line == expectedSyntax.line
          && syntax[0].location?.column == expectedSyntax.column,
        "the .mappings reader disagrees with the JSON reader: \(expectedSyntax) vs \(syntax)")
    } else {
      require(
        syntax.allSatisfy { $0.message.hasPrefix("a .mappings file is an object") },
        "a syntax error the JSON reader does not see: \(syntax)")
    }
    return
  }
  require(
    expectedSyntax == nil,
    "loaded a file the JSON reader rejects: \(String(describing: expectedSyntax))")
  for definition in catalog.definitionNames {
    _ = try? catalog.rules(of: definition)
    exercise(catalog, definition, as: TweetModel.self)
    exercise(catalog, definition, as: UserModel.self)
  }
}

func checkCSMapper(_ text: String, name: String) {
  let catalog: DefinitionCatalog
  do {
    catalog = try DefinitionCatalog(
      csMapperFiles: [.string(text, name: name)], types: [Person.self, UserModel.self],
      transforms: Fixtures.transforms)
  } catch {
    checkErrors(error, file: name)
    return
  }
  _ = try? catalog.rules(of: "Person")
  exercise(catalog, "Person", as: Person.self)
}

/// Maps the fixed payloads with the mapping of `definition` for `Model` (when it is one), and
/// checks that what maps serializes and maps back to the same value.
func exercise<Model: DefinableModel & Equatable & Defaultable>(
  _ catalog: DefinitionCatalog, _ definition: String, as type: Model.Type
) {
  guard let mapping = try? catalog.mapping(definition, as: Model.self) else { return }
  for payload in Fixtures.payloads {
    for options in [
      MappingOptions.none, MappingOptions(groups: ["list"]), MappingOptions(groups: []),
    ] {
      guard let value = try? mapping.map(payload, with: options) else { continue }
      guard let written = try? mapping.node(value, with: options) else { continue }
      // A rule the inverse leaves out (one-way) may change the value: only two-way mappings
      // must map their own output back to the same value.
      guard mapping.inverted().omitted.isEmpty else { continue }
      do {
        let back = try mapping.map(written, with: options)
        let again = try mapping.node(back, with: options)
        require(again == written, "\(definition): \(written) maps back to \(again)")
      } catch {
        // Values a mapping writes but reads otherwise (a required key written as nothing) are
        // the mapping's definition, not a fault of the loader.
        continue
      }
    }
    var existing = Model()
    _ = try? mapping.map(payload, onto: &existing)
  }
}

/// A model with a fresh instance, to map onto.
protocol Defaultable {
  init()
}

extension UserModel: Defaultable {}
extension TweetModel: Defaultable {}
extension Person: Defaultable {}
