// The system's SQLite C API, for ObjectMappingStore's SQLite wrapper
// (Sources/ObjectMappingStore/SQLite/). Linux: install libsqlite3-dev; Apple platforms: the SDK.
#include <sqlite3.h>
