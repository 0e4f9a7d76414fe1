extension MappingOptions {
  /// The options that make mapping and serializing behave as RestKit did, for code migrating
  /// from it: give them to a call, a mapping (``Mapping/options(_:)``), a ``Mapper`` or an
  /// object manager, and change any field you want otherwise.
  ///
  /// ```swift
  /// let user = try userMapping.map(data, with: .restKitCompatible)
  /// var options = MappingOptions.restKitCompatible
  /// options.attributeFailures = .fail          // start from the preset, change one
  /// ```
  ///
  /// It sets exactly these fields, and leaves the others unset:
  ///
  /// | field | value | RestKit's behaviour |
  /// |---|---|---|
  /// | ``dateFormats`` | ``DateFormat/restKitFormats`` | ISO 8601, epoch seconds, `MM/dd/yyyy`, RFC 1123, RFC 850, `asctime`; written as ISO 8601 |
  /// | ``emptyStrings`` | ``EmptyStringPolicy/asNull`` | `""` is `nil` for numbers, `Bool`, dates, URLs, UUIDs (skipped for a non-optional property without a default) |
  /// | ``attributeFailures`` | ``AttributeFailurePolicy/skipWithDiagnostic`` | a value that does not convert is skipped (RestKit logged it), the rest maps |
  /// | ``nulls`` | ``NullPolicy/include`` | `nil` attributes are written as `null` (request mappings) |
  /// | ``relationshipNulls`` | ``NullPolicy/omit`` | `nil` relationships are left out |
  /// | ``form`` | ``FormEncodingOptions/restKit`` | form bodies as RestKit wrote them: `%20`, bare `key` for `null`, `r[][][]=…`, `1`/`0` |
  /// | ``decimals`` | ``DecimalOutput/string`` | `Decimal` values written as strings (`"18274191731731.4557723623"`), to keep their precision |
  ///
  /// What it does not set, on purpose: ``coercion`` stays lenient but strict about garbage
  /// (`"12abc"` is never 12, as RestKit read it); `null` into a non-optional property stays an
  /// error (RestKit wrote `0`; add `nullIntoNonOptional: .zero` for that); unmappable
  /// representations are errors, as in RestKit.
  public static var restKitCompatible: MappingOptions {
    MappingOptions(
      nulls: .include, dateFormats: DateFormat.restKitFormats,
      attributeFailures: .skipWithDiagnostic, emptyStrings: .asNull, relationshipNulls: .omit,
      form: .restKit, decimals: .string)
  }

  /// The options that make mapping behave as ObjectMapper (and AppCoreKit) did, for code
  /// migrating from it: give them to a call, a mapping (``Mapping/options(_:)``), a
  /// ``Mapper`` or an object manager, and change any field you want otherwise.
  ///
  /// ```swift
  /// try userMapping.map(data, onto: &user, with: .objectMapperCompatible)
  /// ```
  ///
  /// It sets exactly these fields, and leaves the others unset:
  ///
  /// | field | value | ObjectMapper's behaviour |
  /// |---|---|---|
  /// | ``childMerging`` | ``ChildMerging/inPlace`` | mapping onto an object updates its child objects in place |
  /// | ``allowsUnmappableRepresentation`` | `true` | an object none of whose keys the mapping reads maps to its initial value, no error |
  /// | ``nullIntoNonOptional`` | ``NullIntoNonOptional/keepCurrent`` | `null` for a non-optional property (a scalar, a ``Node``, a child, a collection or dictionary of children) leaves it as it is (an optional one becomes `nil`) |
  ///
  /// What it does not set, on purpose: a value of the wrong type is still an error (ObjectMapper
  /// left the property unchanged without a word; add `attributeFailures: .skipWithDiagnostic`
  /// to skip an attribute's with a diagnostic, and `.onChildFailure(.dropChild)` on a
  /// relationship to leave out a child of the wrong type, or one that fails, with a
  /// diagnostic).
  public static var objectMapperCompatible: MappingOptions {
    MappingOptions(
      nullIntoNonOptional: .keepCurrent, allowsUnmappableRepresentation: true,
      childMerging: .inPlace)
  }
}
