import Foundation
import ObjectMapping
import ObjectMappingDefinitions
import ObjectMappingTesting
import Testing

/// Every example of CSMapper's README (seed 004), with its plist and JSON files as written
/// there, mapped as the README describes.
@Suite("CSMapper files: the README's examples")
struct CSMapperSeedTests {
  // The README's plists leave out the <dict> around the members; the reader accepts that.
  static let personPlist = """
    <plist version="1.0">
    	<key>name</key>
    	<dict>
    		<key>key</key>
    		<string>person_name</string>
    	</dict>
    	<key>age</key>
    	<dict>
    		<key>key</key>
    		<string>person_age</string>
    	</dict>
    	<key>height</key>
    	<dict>
    		<key>key</key>
    		<string>person_height</string>
    	</dict>
    </plist>
    """

  static let personJSON = """
    {
        "name": {
            "key": "person_name"
        },
        "age": {
            "key": "person_age"
        },
        "height": {
            "key": "person_height"
        }
    }
    """

  static let payload = #"{"person_name": "nameValue", "person_age": 28, "person_height": 54}"#

  @Test(arguments: [("Person.plist", personPlist), ("Person.json", personJSON)])
  func standardExample(file: String, text: String) throws {
    let catalog = try DefinitionCatalog(
      csMapperFiles: [.string(text, name: file)], types: [Person.self])
    let mapping = try catalog.mapping(for: Person.self)
    let person = try mapping.map(Self.payload)
    #expect(person == Person(name: "nameValue", age: 28, height: 54))
    try RoundTripLaws(mapping).checkValue(person)
    #expect(catalog.definitionNames == ["Person"])
  }

  @Test func defaultValues() throws {
    let plist = """
      <plist version="1.0">
      	<key>name</key>
      	<dict>
      		<key>key</key>
      		<string>person_name</string>
      	</dict>
      	<key>age</key>
      	<dict>
      		<key>key</key>
      		<string>person_age</string>
      	</dict>
      	<key>height</key>
      	<dict>
      		<key>key</key>
      		<string>person_height</string>
      		<key>default</key>
      		<string>10</string>
      	</dict>
      </plist>
      """
    let catalog = try DefinitionCatalog(
      csMapperFiles: [.string(plist, name: "Person.plist")], types: [Person.self])
    let person = try catalog.mapping(for: Person.self).map(
      #"{"person_name": "nameValue", "person_age": 28}"#)
    // The string default becomes the number 10, as CSMapper's NSNumber.
    #expect(person == Person(name: "nameValue", age: 28, height: 10))
  }

  static let resourcePlist = """
    <plist version="1.0">
    	<key>name</key>
    	<dict>
    		<key>key</key>
    		<string>resource_name</string>
    	</dict>
    </plist>
    """

  static let twoPropertyPerson = """
    <plist version="1.0">
    	<key>name</key>
    	<dict>
    		<key>key</key>
    		<string>person_name</string>
    	</dict>
    	<key>age</key>
    	<dict>
    		<key>key</key>
    		<string>person_age</string>
    	</dict>
    </plist>
    """

  /// The README's Programmer.plist leaves a <dict> unclosed: reported at its line and column.
  @Test func singleInheritanceAsWrittenIsReported() throws {
    let programmer = """
      <plist version="1.0">
      	<key>__parent__</key>
      		<string>Person</string>
      	<key>programmingSkills</key>
      	<dict>
      		<key>key</key>
      		<string>programming_skills</string>
      </plist>
      """
    let error = #expect(throws: DefinitionErrors.self) {
      try DefinitionCatalog(
        csMapperFiles: [
          .string(Self.twoPropertyPerson, name: "Person.plist"),
          .string(programmer, name: "Programmer.plist"),
        ], types: [Programmer.self])
    }
    // Programmer.plist is not read, so Person.plist is nobody's parent and names no type.
    #expect(
      error?.errors.map(\.description) == [
        "Person.plist:1:1: no registered type is named \"Person\" (registered: Programmer); add it "
          + "to `types:`, with a PropertyTable named \"Person\"",
        "Programmer.plist:8:1: </plist> closes <dict> (opened at line 5, column 2)",
      ])
    #expect(error?.errors.map(\.kind) == [.unknownClass, .syntax])
  }

  @Test func singleInheritance() throws {
    let programmer = """
      <plist version="1.0">
      	<key>__parent__</key>
      		<string>Person</string>
      	<key>programmingSkills</key>
      	<dict>
      		<key>key</key>
      		<string>programming_skills</string>
      	</dict>
      </plist>
      """
    let catalog = try DefinitionCatalog(
      csMapperFiles: [
        .string(Self.twoPropertyPerson, name: "Person.plist"),
        .string(programmer, name: "Programmer.plist"),
      ], types: [Programmer.self])
    let mapping = try catalog.mapping(for: Programmer.self)
    let result = try mapping.map(
      #"{"person_name": "Ann", "person_age": 41, "programming_skills": "Swift"}"#)
    #expect(result == Programmer(name: "Ann", age: 41, programmingSkills: "Swift"))
    try RoundTripLaws(mapping).checkValue(result)
  }

  /// `__parent__: [Person, Resource]`: Resource wins for `name` when `resource_name` is
  /// present; otherwise `person_name`'s value stays ("nil values don't get set").
  @Test func multipleInheritance() throws {
    let programmer = """
      <plist version="1.0">
      	<key>__parent__</key>
      	<array>
      		<string>Person</string>
      		<string>Resource</string>
      	</array>
      	<key>programmingSkills</key>
      	<dict>
      		<key>key</key>
      		<string>programming_skills</string>
      	</dict>
      </plist>
      """
    let catalog = try DefinitionCatalog(
      csMapperFiles: [
        .string(Self.resourcePlist, name: "Resource.plist"),
        .string(Self.twoPropertyPerson, name: "Person.plist"),
        .string(programmer, name: "Programmer.plist"),
      ], types: [Programmer.self])
    let mapping = try catalog.mapping(for: Programmer.self)
    let both = try mapping.map(
      #"{"person_name": "Ann", "resource_name": "Dr. Ann", "person_age": 41, "programming_skills": "Swift"}"#
    )
    #expect(both == Programmer(name: "Dr. Ann", age: 41, programmingSkills: "Swift"))
    let personOnly = try mapping.map(#"{"person_name": "Ann", "person_age": 41}"#)
    #expect(personOnly == Programmer(name: "Ann", age: 41, programmingSkills: nil))
  }

  @Test func forcedConversion() throws {
    let plist = """
      <plist version="1.0">
      	<key>age</key>
      	<dict>
      		<key>key</key>
      		<string>person_age</string>
      		<key>type</key>
      		<string>NSString</string>
      	</dict>
      </plist>
      """
    let catalog = try DefinitionCatalog(
      csMapperFiles: [.string(plist, name: "Person.plist")], types: [StringAgePerson.self])
    let person = try catalog.mapping(for: StringAgePerson.self).map(#"{"person_age": 28}"#)
    #expect(person.age == "28")
  }

  @Test func customTypes() throws {
    let contactInfo = """
      <plist version="1.0">
      	<key>phoneNumber</key>
      	<dict>
      		<key>key</key>
      		<string>phone_number</string>
      	</dict>
      </plist>
      """
    let person = """
      <plist version="1.0">
      	<key>name</key>
      	<dict>
      		<key>key</key>
      		<string>person_name</string>
      	</dict>
      	<key>contactInfo</key>
      	<dict>
      		<key>key</key>
      		<string>contact_info</string>
      		<key>type</key>
      		<string>ContactInfo</string>
      	</dict>
      </plist>
      """
    let catalog = try DefinitionCatalog(
      csMapperFiles: [
        .string(contactInfo, name: "ContactInfo.plist"), .string(person, name: "Person.plist"),
      ], types: [ContactPerson.self, ContactInfo.self])
    let mapping = try catalog.mapping(for: ContactPerson.self)
    let bob = try mapping.map(
      #"{"person_name": "Bob", "contact_info": {"phone_number": "12345678900"}}"#)
    #expect(bob == ContactPerson(name: "Bob", contactInfo: ContactInfo(phoneNumber: "12345678900")))
    try RoundTripLaws(mapping).checkValue(bob)
  }

  /// A multi-value mapper whose keys are only partly present: CSMapper's files make nothing
  /// required, so the mapper gets the values that are there (a key's own `default` in its
  /// place when the entry gives one), where the DSL's `Attribute(sources:…)` reports each
  /// missing key. Found by a probe of the README: its payload has no `ratings`.
  @Test func aMultiValueMapperGetsTheKeysThatArePresent() throws {
    let json = #"""
      {"compoundIdentifier": {"mapper": "CSJoinMapper",
                              "key": [{"key": "employee_identifier"}, {"key": "employee_age"}]},
       "metaDisplayString": {"mapper": "CSJoinMapper",
                             "key": [{"key": "person_name"}, {"key": "person_age", "default": 0},
                                     "ratings"]}}
      """#
    let mapping = try DefinitionCatalog(
      csMapperFiles: [.string(json, name: "Employee.json")], types: [Employee.self]
    ).mapping(for: Employee.self)
    let partial = try mapping.map(#"{"employee_identifier": "123456789", "person_name": "Ann"}"#)
    #expect(partial.compoundIdentifier == "123456789")
    #expect(partial.metaDisplayString == "Ann:0")
    let null = try mapping.map(#"{"employee_identifier": null, "employee_age": 28}"#)
    #expect(null.compoundIdentifier == "28")
    // Every key absent: the property is left as it is.
    var existing = Employee(compoundIdentifier: "kept")
    try mapping.map(#"{"active": 1}"#, onto: &existing)
    #expect(existing.compoundIdentifier == "kept")
    // A key present with a value that does not convert is still an error at its path.
    let bad = try DefinitionCatalog(
      csMapperFiles: [
        .string(
          #"{"compoundIdentifier": {"mapper": "CSJoinMapper", "key": ["a", "b"]}}"#,
          name: "Employee.json")
      ], types: [Employee.self]
    ).mapping(for: Employee.self)
    #expect(throws: MappingErrors.self) { try bad.map(#"{"a": {"x": 1}}"#) }
    // The DSL keeps its contract: a missing key among present ones is an error.
    struct Badge: Sendable {
      var text = ""
    }
    let dsl = Mapping(Badge.init) { Attribute(sources: ["a", "b"], \.text, .joined(":")) }
    #expect(throws: MappingErrors.self) { try dsl.map(#"{"a": "x"}"#) }
  }

  /// The README's single-value mapper (`APIDateMapper`, `yyyy-MM-dd'T'HH:mm:sszzzz`), the
  /// multi-value one (an app mapper joining display strings), `CSJoinMapper` and
  /// `CSAPIBoolMapper`.
  @Test func mappers() throws {
    let plist = """
      <plist version="1.0">
      	<key>hireDate</key>
      	<dict>
      		<key>key</key>
      		<string>hire_date</string>
      		<key>mapper</key>
      		<string>APIDateMapper</string>
      	</dict>
      	<key>metaDisplayString</key>
      	<dict>
      		<key>mapper</key>
      		<string>APIMetaStringMapper</string>
      		<key>key</key>
      		<array>
      			<dict>
      				<key>key</key>
      				<string>person_name</string>
      			</dict>
      			<dict>
      				<key>key</key>
      				<string>person_age</string>
      			</dict>
      			<dict>
      				<key>key</key>
      				<string>ratings</string>
      			</dict>
      		</array>
      	</dict>
      	<key>compoundIdentifier</key>
      	<dict>
      		<key>mapper</key>
      		<string>CSJoinMapper</string>
      		<key>key</key>
      		<array>
      			<dict>
      				<key>key</key>
      				<string>employee_identifier</string>
      			</dict>
      			<dict>
      				<key>key</key>
      				<string>employee_age</string>
      			</dict>
      		</array>
      	</dict>
      	<key>active</key>
      	<dict>
      		<key>key</key>
      		<string>active</string>
      		<key>mapper</key>
      		<string>CSAPIBoolMapper</string>
      	</dict>
      </plist>
      """
    var transforms = TransformRegistry.standard
    // The README's own pattern, whose `zzzz` reads the payload's `-07:00`.
    transforms.register(
      "APIDateMapper", ValueTransform<String, Date>.date(format: "yyyy-MM-dd'T'HH:mm:sszzzz"))
    transforms.register(
      "APIMetaStringMapper", values: ValueTransform<[String], String>.joined(" / "))
    let catalog = try DefinitionCatalog(
      csMapperFiles: [.string(plist, name: "Employee.plist")], types: [Employee.self],
      transforms: transforms)
    let mapping = try catalog.mapping(for: Employee.self)
    let employee = try mapping.map(
      #"""
      {"hire_date": "2013-11-01T07:20:20-07:00", "person_name": "nameValue", "person_age": 28,
       "ratings": "5", "employee_identifier": "123456789", "employee_age": 28, "active": "on"}
      """#)
    #expect(employee.hireDate == Date(timeIntervalSince1970: 1_383_315_620))
    #expect(employee.metaDisplayString == "nameValue / 28 / 5")
    #expect(employee.compoundIdentifier == "123456789:28")
    #expect(employee.active)
    for word in ["on", "1", "true", "TRUE"] {
      #expect(try mapping.map(#"{"active": "\#(word)"}"#).active)
    }
    #expect(try mapping.map(#"{"active": 1}"#).active)
    #expect(try !mapping.map(#"{"active": "off"}"#).active)
    // CSJoinMapper splits back into its keys when serializing.
    let node = try mapping.node(employee)
    #expect(node["employee_identifier"] == .string("123456789"))
    #expect(node["employee_age"] == .string("28"))
  }

  static let groupsJSON = """
    {
        "name": {
            "key": "person_name",
            "groups": [
            	"list"
            ]
        },
        "age": {
            "key": "person_age",
            "groups": [
            	"detail",
            	"list"
            ]
        },
        "address": {
        	"key": "address",
        	"groups": [
        		"detail"
        	]
        },
        "height": {
            "key": "person_height"
        }
    }
    """

  static let everything =
    #"{"person_name": "Ann", "person_age": 41, "address": "Main St", "person_height": 170}"#

  /// Example 1: `groups: ["list"]` maps name, age and height.
  /// Example 2: `groups: ["list", "detail"]` maps age and height only: CSMapper's groups are
  /// all-of (every requested group must be one of the property's), which a loaded CSMapper
  /// mapping applies by itself; a call asking for the DSL's default `.anyOf` maps name, age,
  /// address and height.
  @Test func groups() throws {
    let catalog = try DefinitionCatalog(
      csMapperFiles: [.string(Self.groupsJSON, name: "Person.json")], types: [Person.self])
    let mapping = try catalog.mapping(for: Person.self)
    let list = try mapping.map(
      Self.everything, with: MappingOptions(groups: ["list"], groupMatching: .allOf))
    #expect(list == Person(name: "Ann", age: 41, height: 170, address: nil))
    let both = try mapping.map(
      Self.everything, with: MappingOptions(groups: ["list", "detail"], groupMatching: .allOf))
    #expect(both == Person(name: nil, age: 41, height: 170, address: nil))
    #expect(
      try mapping.map(Self.everything, with: MappingOptions(groups: ["list", "detail"])) == both)
    let anyOf = try mapping.map(
      Self.everything, with: MappingOptions(groups: ["list", "detail"], groupMatching: .anyOf))
    #expect(anyOf == Person(name: "Ann", age: 41, height: 170, address: "Main St"))
    // The mapping's own matching, for every call that selects groups; serialization too.
    let csMapping = mapping.groupMatching(.allOf)
    #expect(
      try csMapping.map(Self.everything, with: MappingOptions(groups: ["list", "detail"])) == both)
    let written = try csMapping.node(
      Person(name: "Ann", age: 41, height: 170, address: "Main St"),
      with: MappingOptions(groups: ["list", "detail"]))
    #expect(written == .object([Node.Member("person_age", 41), Node.Member("person_height", 170)]))
  }
}
