// The SQLite C interface the service's store is built on (libsqlite3, the system's copy).
// Nothing else is exposed: the store's Swift wrapper is the only caller.
#include <sqlite3.h>
