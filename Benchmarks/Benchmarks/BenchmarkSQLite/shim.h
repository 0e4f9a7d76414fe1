// The system's SQLite, for the store benchmarks' baselines (raw prepared statements).
#include <sqlite3.h>
