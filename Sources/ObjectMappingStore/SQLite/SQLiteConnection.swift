import ObjectMappingCSQLite

// The audited folder of ObjectMappingStore: every line that touches SQLite's C API (the
// `sqlite3 *` and `sqlite3_stmt *` handles, text and blob bindings, column reads) lives in this
// folder and nowhere else in the target. Everything outside it talks to `SQLiteConnection` and
// `SQLiteStatement` with Swift values.
//
// Invariants, each kept by the types below and asserted in debug builds:
// - A connection owns its `sqlite3 *` from a successful open until `close()` or `deinit`, and
//   is used by one isolation domain at a time: the types are not `Sendable`, and the store keeps
//   each connection inside one actor.
// - A statement keeps its connection alive (a strong reference), so the database handle is never
//   closed under it; it finalizes its `sqlite3_stmt *` in `deinit`, exactly once.
// - Text and blob bindings are copied by SQLite (`SQLITE_TRANSIENT`) before the binding call
//   returns, so no Swift buffer is referenced after the closure that lent it ends; lengths go
//   through the 64-bit binding functions, which refuse what is too big with `SQLITE_TOOBIG`.
// - Column reads copy the bytes out while the row is current (before the next `step`, `reset`
//   or finalize), and read exactly `sqlite3_column_bytes` bytes; a NULL column reads as empty.
// - Every result code is checked; a failure becomes an `SQLiteError` with SQLite's own message,
//   never a trap.

/// An error reported by SQLite: its extended result code and message.
struct SQLiteError: Error, Sendable, Equatable {
  /// The extended result code (`SQLITE_FULL`, `SQLITE_NOTADB`, …).
  let code: Int32
  /// SQLite's message for it.
  let message: String

  /// The primary result code (the low byte of the extended one).
  var primaryCode: Int32 { code & 0xFF }

  /// A file whose contents the store cannot trust (`SQLITE_CORRUPT`): `reason` says what.
  static func corrupt(_ reason: String) -> SQLiteError {
    SQLiteError(code: SQLITE_CORRUPT, message: reason)
  }

  var isFull: Bool { primaryCode == SQLITE_FULL }
  var isNotADatabase: Bool { primaryCode == SQLITE_NOTADB }
  var isCorrupt: Bool { primaryCode == SQLITE_CORRUPT }
  var isReadOnly: Bool { primaryCode == SQLITE_READONLY }
  var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
  var isCannotOpen: Bool { primaryCode == SQLITE_CANTOPEN }
  var isConstraint: Bool { primaryCode == SQLITE_CONSTRAINT }
}

/// How a connection opens its file.
enum SQLiteOpenMode: Sendable {
  /// Read and write, creating the file when it does not exist.
  case readWriteCreate
  /// Read and write an existing file.
  case readWrite
  /// Read only.
  case readOnly
}

/// One SQLite database connection (`sqlite3 *`), owned by one actor of the store.
@safe final class SQLiteConnection {
  private var handle: OpaquePointer?
  /// The file it was opened on, for messages.
  let path: String

  /// Opens `path`.
  ///
  /// - Throws: `SQLiteError` when SQLite cannot open it (a missing file for `.readOnly` or
  ///   `.readWrite`, a folder that does not exist, no permission).
  init(path: String, mode: SQLiteOpenMode) throws(SQLiteError) {
    self.path = path
    var flags: Int32 = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    switch mode {
    case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    case .readWrite: flags |= SQLITE_OPEN_READWRITE
    case .readOnly: flags |= SQLITE_OPEN_READONLY
    }
    // A path SQLite would read as a URI (`file:…`, with `?mode=memory` and the like, when
    // the library is built to accept URIs) is a file's name here, as the store promises.
    let filename = path.hasPrefix("file:") ? "./" + path : path
    var opened: OpaquePointer?
    let code = unsafe sqlite3_open_v2(filename, &opened, flags, nil)
    guard code == SQLITE_OK, let opened = unsafe opened else {
      let message =
        unsafe opened.map { unsafe String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      // A handle is returned even on failure (except out of memory) and must be closed.
      if let opened = unsafe opened { unsafe sqlite3_close_v2(opened) }
      throw SQLiteError(code: code, message: message)
    }
    unsafe sqlite3_extended_result_codes(opened, 1)
    // A hostile file's triggers and views never run (see the shim).
    let hardened = unsafe objectmapping_sqlite3_harden(opened)
    guard hardened == SQLITE_OK else {
      unsafe sqlite3_close_v2(opened)
      throw SQLiteError(code: hardened, message: "could not turn the file's triggers off")
    }
    unsafe handle = unsafe opened
  }

  deinit {
    close()
  }

  /// Closes the connection; statements still alive keep it open until they are finalized
  /// (`sqlite3_close_v2`). Idempotent.
  func close() {
    guard let handle = unsafe handle else { return }
    unsafe sqlite3_close_v2(handle)
    unsafe self.handle = nil
  }

  /// The open handle; a closed connection fails every call with `SQLITE_MISUSE`.
  private func openHandle() throws(SQLiteError) -> OpaquePointer {
    guard let handle = unsafe handle else {
      throw SQLiteError(code: SQLITE_MISUSE, message: "the database connection is closed")
    }
    return unsafe handle
  }

  /// The error of the last failed call on this connection.
  fileprivate func lastError(code: Int32) -> SQLiteError {
    guard let handle = unsafe handle else {
      return SQLiteError(code: code, message: "the database connection is closed")
    }
    return unsafe SQLiteError(
      code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
  }

  /// Runs `sql` (one or more statements without parameters or results to read).
  func execute(_ sql: String) throws(SQLiteError) {
    let handle = unsafe try openHandle()
    var message: UnsafeMutablePointer<CChar>?
    let code = unsafe sqlite3_exec(handle, sql, nil, nil, &message)
    guard code == SQLITE_OK else {
      let text =
        unsafe message.map { unsafe String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
      unsafe sqlite3_free(message)
      throw unsafe SQLiteError(code: sqlite3_extended_errcode(handle), message: text)
    }
  }

  /// Compiles one statement.
  func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    let handle = unsafe try openHandle()
    var statement: OpaquePointer?
    let code = unsafe sqlite3_prepare_v3(
      handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard code == SQLITE_OK, let statement = unsafe statement else { throw lastError(code: code) }
    return unsafe SQLiteStatement(statement, connection: self)
  }

  /// Whether the main database is open read-only (asked for, or a file SQLite could not open
  /// for writing).
  var isReadOnly: Bool {
    guard let handle = unsafe handle else { return true }
    return unsafe sqlite3_db_readonly(handle, "main") == 1
  }

  /// How long a call waits for another connection's lock before failing with `SQLITE_BUSY`.
  func setBusyTimeout(milliseconds: Int32) {
    guard let handle = unsafe handle else { return }
    unsafe sqlite3_busy_timeout(handle, milliseconds)
  }

  /// The rows the last `INSERT`, `UPDATE` or `DELETE` changed.
  var changes: Int {
    guard let handle = unsafe handle else { return 0 }
    return unsafe Int(sqlite3_changes64(handle))
  }

  /// Whether a transaction is open (not in autocommit mode).
  var isInTransaction: Bool {
    guard let handle = unsafe handle else { return false }
    return unsafe sqlite3_get_autocommit(handle) == 0
  }

  /// The SQLite library's version (`3.40.1`).
  static var libraryVersion: String { unsafe String(cString: sqlite3_libversion()) }
}

/// One compiled statement (`sqlite3_stmt *`) of a connection.
@safe final class SQLiteStatement {
  private let handle: OpaquePointer
  /// Keeps the connection open while the statement lives.
  private let connection: SQLiteConnection

  fileprivate init(_ handle: OpaquePointer, connection: SQLiteConnection) {
    unsafe self.handle = unsafe handle
    self.connection = connection
  }

  deinit {
    unsafe sqlite3_finalize(handle)
  }

  /// Tells SQLite to copy a binding's bytes before the binding call returns.
  private static let transient = unsafe unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  private func check(_ code: Int32) throws(SQLiteError) {
    guard code == SQLITE_OK else { throw connection.lastError(code: code) }
  }

  /// Binds an integer to the parameter at `index` (1-based).
  func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
    unsafe try check(sqlite3_bind_int64(handle, index, value))
  }

  /// Binds a double to the parameter at `index`.
  func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
    unsafe try check(sqlite3_bind_double(handle, index, value))
  }

  /// Binds text (copied by SQLite) to the parameter at `index`; embedded NUL bytes are kept.
  func bind(_ value: String, at index: Int32) throws(SQLiteError) {
    var text = value
    let code = text.withUTF8 { bytes in
      unsafe bytes.withMemoryRebound(to: CChar.self) { chars in
        unsafe bindText(chars, at: index)
      }
    }
    try check(code)
  }

  /// Binds UTF-8 text given as bytes (copied by SQLite) to the parameter at `index`.
  func bindText(_ bytes: [UInt8], at index: Int32) throws(SQLiteError) {
    let code = unsafe bytes.withUnsafeBufferPointer { buffer in
      unsafe buffer.withMemoryRebound(to: CChar.self) { chars in
        unsafe bindText(chars, at: index)
      }
    }
    try check(code)
  }

  /// Binds the lent `chars` as text, copied by SQLite before this returns; its result code.
  private func bindText(_ chars: UnsafeBufferPointer<CChar>, at index: Int32) -> Int32 {
    guard let start = chars.baseAddress else {
      // An empty buffer may have no address: a nil pointer would bind NULL, not "".
      return unsafe sqlite3_bind_text64(handle, index, "", 0, Self.transient, UInt8(SQLITE_UTF8))
    }
    return unsafe sqlite3_bind_text64(
      handle, index, start, UInt64(chars.count), Self.transient, UInt8(SQLITE_UTF8))
  }

  /// Binds SQL `NULL` to the parameter at `index`.
  func bindNull(at index: Int32) throws(SQLiteError) {
    unsafe try check(sqlite3_bind_null(handle, index))
  }

  /// Steps the statement: `true` when a row is current, `false` when it is done.
  func step() throws(SQLiteError) -> Bool {
    let code = unsafe sqlite3_step(handle)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw connection.lastError(code: code)
    }
  }

  /// Resets the statement to run again, clearing its bindings.
  func reset() {
    unsafe sqlite3_reset(handle)
    unsafe sqlite3_clear_bindings(handle)
  }

  /// Whether the column at `index` (0-based) of the current row is `NULL`.
  func isNull(at index: Int32) -> Bool {
    unsafe sqlite3_column_type(handle, index) == SQLITE_NULL
  }

  /// The column at `index` of the current row as an integer.
  func int64(at index: Int32) -> Int64 {
    unsafe sqlite3_column_int64(handle, index)
  }

  /// The column at `index` of the current row as a double.
  func double(at index: Int32) -> Double {
    unsafe sqlite3_column_double(handle, index)
  }

  /// The column at `index` of the current row as text (invalid UTF-8 repaired); `""` for NULL.
  func string(at index: Int32) -> String {
    guard let text = unsafe sqlite3_column_text(handle, index) else { return "" }
    let count = unsafe Int(sqlite3_column_bytes(handle, index))
    return unsafe String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  /// The column at `index` of the current row as its text bytes, copied; `[]` for NULL.
  func textBytes(at index: Int32) -> [UInt8] {
    guard let text = unsafe sqlite3_column_text(handle, index) else { return [] }
    let count = unsafe Int(sqlite3_column_bytes(handle, index))
    return unsafe Array(UnsafeBufferPointer(start: text, count: count))
  }

  /// The number of columns of a result row.
  var columnCount: Int32 { unsafe sqlite3_column_count(handle) }
}
