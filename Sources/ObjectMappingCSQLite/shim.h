// The system's SQLite C API, for ObjectMappingStore's SQLite wrapper
// (Sources/ObjectMappingStore/SQLite/). Linux: install libsqlite3-dev; Apple platforms: the SDK.
#include <sqlite3.h>

// Hardens a connection against a hostile database file (another program's changes to a
// store's file): its triggers and views never run (a trigger can loop for ever or delete rows
// on each save), and defensive mode refuses what could corrupt the file (`PRAGMA
// writable_schema`, …). (Untrusted schema would also refuse the store's own indexes:
// SQLite 3.40's `json_extract` is not marked innocuous.) `sqlite3_db_config` is variadic,
// which Swift cannot call; this is the one C function of the store. Returns SQLite's result code.
static inline int objectmapping_sqlite3_harden(sqlite3 *db) {
  int code = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)0);
  if (code != SQLITE_OK) return code;
  code = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, (int *)0);
  if (code != SQLITE_OK) return code;
  return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
}
