import Foundation
import ObjectMapping
import ObjectMappingDefinitions

/// The models of CSMapper's README (seed 004), in Swift, with their property tables.
struct Person: DefinableModel, Equatable, Sendable {
  var name: String?
  var age: Int?
  var height: Int?
  var address: String?

  static let properties = PropertyTable(Person.init) {
    Property(\.name)
    Property(\.age)
    Property(\.height)
    Property(\.address)
  }
}

/// `Programmer : Person`: a Swift struct with the same property names; definitions bind by
/// name, so the parent files apply to it.
struct Programmer: DefinableModel, Equatable, Sendable {
  var name: String?
  var age: Int?
  var programmingSkills: String?

  static let properties = PropertyTable(Programmer.init) {
    Property(\.name)
    Property(\.age)
    Property(\.programmingSkills)
  }
}

/// The forced-conversion example: `age` is a string in the model.
struct StringAgePerson: DefinableModel, Equatable, Sendable {
  var age: String?

  static let properties = PropertyTable(StringAgePerson.init, name: "Person") {
    Property(\.age)
  }
}

struct ContactInfo: DefinableModel, Equatable, Sendable {
  var phoneNumber: String?

  static let properties = PropertyTable(ContactInfo.init) {
    Property(\.phoneNumber)
  }
}

/// The custom-type example: `contactInfo` is a `ContactInfo`.
struct ContactPerson: DefinableModel, Equatable, Sendable {
  var name: String?
  var contactInfo: ContactInfo?

  static let properties = PropertyTable(ContactPerson.init, name: "Person") {
    Property(\.name)
    Property(\.contactInfo)
  }
}

/// The mappers' examples.
struct Employee: DefinableModel, Equatable, Sendable {
  var hireDate: Date?
  var metaDisplayString: String?
  var compoundIdentifier: String?
  var active = false

  static let properties = PropertyTable(Employee.init) {
    Property(\.hireDate)
    Property(\.metaDisplayString)
    Property(\.compoundIdentifier)
    Property(\.active)
  }
}
