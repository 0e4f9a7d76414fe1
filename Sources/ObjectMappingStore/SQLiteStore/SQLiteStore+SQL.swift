import Foundation
import ObjectMapping

/// A value bound to a statement parameter.
enum SQLValue: Sendable, Equatable {
  case integer(Int64)
  case real(Double)
  case text(String)
  case null
}

/// SQL text with its parameter values, in order (`?1`, `?2`, …).
struct _SQL: Sendable {
  var text: String
  var values: [SQLValue]
}

extension SQLiteStatement {
  /// Binds `values` to the parameters `?1`, `?2`, ….
  func bind(_ values: [SQLValue]) throws(SQLiteError) {
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      switch value {
      case .integer(let integer): try bind(integer, at: index)
      case .real(let real): try bind(real, at: index)
      case .text(let text): try bind(text, at: index)
      case .null: try bindNull(at: index)
      }
    }
  }
}

/// The schema and the SQL of ``SQLiteStore``.
///
/// One table holds every entity's objects: the entity's name, the identity as text, the
/// generation of the transaction that last wrote the row, and the payload (the mapping's JSON, as
/// text, so SQLite's JSON functions read it). An index on the entity alone keeps each entity's
/// rows in the order they were first saved (its entries are ordered by rowid), so a fetch in that
/// order reads them without sorting. Query keys are partial expression indexes,
/// `(entity, json_extract(payload, '$."key"')) WHERE entity = 'Name'`, covering their entity's
/// rows only (the leading entity column, constant in the index, lets the planner see that the
/// index answers the query's `entity = 'Name'`); queries write the same expression and name the
/// entity as the same literal, so SQLite uses the index.
enum StoreSQL {
  static let schema = """
    CREATE TABLE IF NOT EXISTS om_meta(key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
    INSERT OR IGNORE INTO om_meta(key, value) VALUES('format', \(SQLiteStore.format));
    INSERT OR IGNORE INTO om_meta(key, value) VALUES('generation', 0);
    CREATE TABLE IF NOT EXISTS om_objects(
      entity TEXT NOT NULL,
      id TEXT NOT NULL,
      generation INTEGER NOT NULL,
      payload TEXT NOT NULL
    );
    CREATE UNIQUE INDEX IF NOT EXISTS om_objects_identity ON om_objects(entity, id);
    CREATE INDEX IF NOT EXISTS om_objects_entity ON om_objects(entity);
    CREATE TABLE IF NOT EXISTS om_indexes(
      name TEXT PRIMARY KEY NOT NULL, entity TEXT NOT NULL, paths TEXT NOT NULL);
    """

  static let format = "SELECT value FROM om_meta WHERE key = 'format'"
  static let nextGeneration =
    "UPDATE om_meta SET value = value + 1 WHERE key = 'generation' "
    + "AND typeof(value) = 'integer' AND value < 9223372036854775807 RETURNING value"
  static let upsert = """
    INSERT INTO om_objects(entity, id, generation, payload) VALUES(?1, ?2, ?3, ?4)
    ON CONFLICT(entity, id) DO UPDATE SET generation = excluded.generation,
      payload = excluded.payload
    """
  static let deleteOne = "DELETE FROM om_objects WHERE entity = ?1 AND id = ?2"

  /// `json_extract(payload, '$."author"."name"')`: the expression for a payload key path, the
  /// same text in an index and a query. Keys are quoted as JSON path labels and the whole as an
  /// SQL string.
  static func expression(_ path: [String]) -> String {
    var jsonPath = "$"
    for key in path {
      jsonPath += ".\"" + key + "\""
    }
    return "json_extract(payload, '" + jsonPath.replacingOccurrences(of: "'", with: "''") + "')"
  }

  /// Why `path` cannot be named in a JSON path (a key JSON escapes: SQLite compares a label with
  /// the key as the stored JSON spells it), or `nil`.
  static func problem(with path: [String]) -> String? {
    // A key the JSON writer escapes (a quote, a backslash, a control character, NUL) would
    // silently match nothing.
    let unnameable: (String) -> Bool = { key in
      key.isEmpty || key.unicodeScalars.contains { $0 == "\"" || $0 == "\\" || $0.value < 0x20 }
    }
    guard let key = path.first(where: unnameable) else { return nil }
    return "the payload key \(key.debugDescription) cannot be named in SQLite's JSON paths (a "
      + "quote, a backslash or a control character)"
  }

  /// The name of the index over `paths` of `entity`: a hash, so any entity name or key is a
  /// valid identifier.
  static func indexName(entity: String, paths: [[String]]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ text: String) {
      for byte in text.utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
      hash = (hash ^ 0xff) &* 0x100_0000_01b3
    }
    mix(entity)
    for path in paths {
      for key in path { mix(key) }
      mix("/")
    }
    let hex = String(hash, radix: 16)
    return "om_index_" + String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// `entity` as an SQL string literal: queries name their entity literally (not as a
  /// parameter), so that SQLite can match them with the entity's partial indexes.
  static func literal(_ entity: String) -> String {
    "'" + entity.replacingOccurrences(of: "'", with: "''") + "'"
  }

  /// `CREATE INDEX` for `paths` of `entity`: a partial index over the entity's rows.
  static func createIndex(entity: String, paths: [[String]]) -> String {
    let columns = paths.map(expression).joined(separator: ", ")
    return "CREATE INDEX IF NOT EXISTS \(indexName(entity: entity, paths: paths)) "
      + "ON om_objects(entity, \(columns)) WHERE entity = \(literal(entity))"
  }

  /// The `SELECT` of a fetch: identity, generation and payload of the matching rows.
  static func select(
    entity: String, condition: StoreCondition?, order: [StoreOrdering], limit: Int?, offset: Int
  ) throws(QueryProblem) -> _SQL {
    if let limit, limit < 0 {
      throw QueryProblem(message: "the limit \(limit) is negative", isUnsupported: true)
    }
    guard offset >= 0 else {
      throw QueryProblem(message: "the offset \(offset) is negative", isUnsupported: true)
    }
    var sql = _SQL(
      text: "SELECT id, generation, payload FROM om_objects WHERE entity = \(literal(entity))",
      values: [])
    if let condition {
      sql.text += " AND "
      try append(condition, to: &sql, depth: 1)
      guard sql.values.count <= maximumValues else {
        throw QueryProblem(
          message: "the predicate binds \(sql.values.count) values, more than SQLite's limit of "
            + "\(maximumValues); match many values of one property with .in(_:_:)",
          isUnsupported: true)
      }
    }
    sql.text += " ORDER BY "
    for ordering in order {
      if let problem = problem(with: ordering.path) { throw QueryProblem(message: problem) }
      sql.text += expression(ordering.path) + (ordering.ascending ? " ASC, " : " DESC, ")
    }
    // Ties (and an empty ordering) in the order identities were first saved; reversed after a
    // descending first key, so that an index serves the whole ordering.
    sql.text += order.first?.ascending == false ? "rowid DESC" : "rowid ASC"
    if limit != nil || offset > 0 {
      sql.values.append(.integer(Int64(clamping: limit ?? -1)))
      sql.values.append(.integer(Int64(clamping: offset)))
      sql.text += " LIMIT ?\(sql.values.count - 1) OFFSET ?\(sql.values.count)"
    }
    return sql
  }

  /// The most values a statement binds: SQLite's `SQLITE_MAX_VARIABLE_NUMBER` since 3.32.
  static let maximumValues = 32_766

  /// The most operands written in a row in a chain of `AND` (or `OR`): SQLite parses
  /// `a OR b OR c` as a tree as deep as the chain is long, and refuses trees deeper than 1,000
  /// (`SQLITE_MAX_EXPR_DEPTH`); longer chains are written as groups of groups, each at most
  /// this long, so a chain of n operands is a tree of about 16 × log₁₆ n levels.
  static let chainGroup = 16

  /// Appends `condition`, at `depth` levels of nesting, as a parenthesized SQL expression.
  ///
  /// Recursion is bounded: a condition comes from a ``StorePredicate``, which nests at most
  /// ``PredicateLimits/depth`` levels (one more for the `OR` of an ``StorePredicate/in(_:_:)``
  /// that matches `nil`); deeper ones are refused.
  static func append(_ condition: StoreCondition, to sql: inout _SQL, depth: Int)
    throws(QueryProblem)
  {
    guard depth <= PredicateLimits.depth + 1 else {
      throw QueryProblem(
        message: "the predicate nests deeper than \(PredicateLimits.depth) levels",
        isUnsupported: true)
    }
    func parameter(_ value: SQLValue) -> String {
      sql.values.append(value)
      return "?\(sql.values.count)"
    }
    func column(_ path: [String]) throws(QueryProblem) -> String {
      if let problem = problem(with: path) { throw QueryProblem(message: problem) }
      return expression(path)
    }
    // SQLite's JSON functions end a string at a NUL: such a value would compare as its prefix.
    let operands: [Node] =
      switch condition {
      case .equal(_, let node?), .notEqual(_, let node?), .compare(_, _, let node): [node]
      case .oneOf(_, let nodes): nodes
      default: []
      }
    if let text = operands.lazy.compactMap(\.stringValue).first(where: { $0.contains("\0") }) {
      throw QueryProblem(
        message: "the value \(text.debugDescription) holds a NUL character, which SQLite's JSON "
          + "functions end a string at")
    }
    switch condition {
    case .equal(let path, nil):
      sql.text += "(\(try column(path)) IS NULL)"
    case .equal(let path, let node?):
      let column = try column(path)
      sql.text += "(\(column) = \(value(node, parameter)))"
    case .notEqual(let path, nil):
      sql.text += "(\(try column(path)) IS NOT NULL)"
    case .notEqual(let path, let node?):
      let column = try column(path)
      sql.text += "(\(column) IS NOT \(value(node, parameter)))"
    case .compare(let path, let comparison, let node):
      let column = try column(path)
      let op =
        switch comparison {
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
      sql.text += "(\(column) \(op) \(value(node, parameter)))"
    case .oneOf(let path, let nodes):
      let column = try column(path)
      guard !nodes.isEmpty else {
        sql.text += "(0)"
        return
      }
      // One parameter: a JSON array of the values, however many (no parameter limit).
      let array = (try? Node.array(nodes).jsonString()) ?? "[]"
      sql.text += "(\(column) IN (SELECT value FROM json_each(\(parameter(.text(array))))))"
    case .and(let conditions), .or(let conditions):
      let isAnd = if case .and = condition { true } else { false }
      guard !conditions.isEmpty else {
        sql.text += isAnd ? "(1)" : "(0)"
        return
      }
      // The operand that takes most of SQLite's parser stack first: an open parenthesis there
      // takes one entry, after an operator three or four.
      var operands = conditions
      let nestings = operands.map(parserNesting)
      if let deepest = nestings.indices.max(by: { nestings[$0] < nestings[$1] }), deepest > 0 {
        operands.insert(operands.remove(at: deepest), at: 0)
      }
      try appendChain(operands[...], isAnd: isAnd, to: &sql, depth: depth)
    case .not(let inner):
      // A condition is 1, 0 or null (a comparison with null): "not" means "does not match",
      // so null gives 1 too. `IS NOT 1` after the operand takes one parser stack entry per
      // level (`NOT coalesce(…, 0)` takes five).
      sql.text += "("
      try append(inner, to: &sql, depth: depth + 1)
      sql.text += " IS NOT 1)"
    }
  }

  /// Appends `operands` joined by `AND` (or `OR`), in parentheses: in a row when there are at
  /// most ``chainGroup``, else as at most ``chainGroup`` parenthesized groups (recursion
  /// log₁₆ of the count deep).
  private static func appendChain(
    _ operands: ArraySlice<StoreCondition>, isAnd: Bool, to sql: inout _SQL, depth: Int
  ) throws(QueryProblem) {
    var groupSize = 1
    while groupSize * chainGroup < operands.count { groupSize *= chainGroup }
    sql.text += "("
    var start = operands.startIndex
    while start < operands.endIndex {
      if start > operands.startIndex { sql.text += isAnd ? " AND " : " OR " }
      let end = min(start + groupSize, operands.endIndex)
      if groupSize == 1 {
        try append(operands[start], to: &sql, depth: depth + 1)
      } else {
        try appendChain(operands[start..<end], isAnd: isAnd, to: &sql, depth: depth)
      }
      start = end
    }
    sql.text += ")"
  }

  /// About how many entries of SQLite's parser stack `condition` takes beyond a comparison's:
  /// one per level through first operands and `NOT`, four through later operands.
  private static func parserNesting(_ condition: StoreCondition) -> Int {
    switch condition {
    case .equal, .notEqual, .compare, .oneOf:
      return 0
    case .not(let inner):
      return parserNesting(inner) + 1
    case .and(let conditions), .or(let conditions):
      var first = 0
      var second = 0
      for nesting in conditions.lazy.map(parserNesting) {
        if nesting > first {
          second = first
          first = nesting
        } else if nesting > second {
          second = nesting
        }
      }
      return max(first + 1, conditions.count > 1 ? second + 4 : 0)
    }
  }

  /// `node` as SQL: a bound scalar, or `json(?)` for an array or object (compared as the compact
  /// JSON text SQLite's `json_extract` gives for them).
  private static func value(_ node: Node, _ parameter: (SQLValue) -> String) -> String {
    switch node {
    case .null: return "NULL"
    case .bool(let flag): return parameter(.integer(flag ? 1 : 0))
    case .integer(let integer): return parameter(.integer(integer))
    case .double(let double): return parameter(.real(double))
    case .decimal(let number):
      let text = number.text
      return parameter(Double(text).map { .real($0) } ?? .text(text))
    case .string(let text): return parameter(.text(text))
    case .array, .object:
      return "json(\(parameter(.text((try? node.jsonString()) ?? "null"))))"
    }
  }
}

/// A query SQLite cannot express (a payload key its JSON paths cannot name), or one it refuses
/// to run (`isUnsupported`: too deep, too many values, a negative limit).
struct QueryProblem: Error {
  let message: String
  var isUnsupported = false
}
