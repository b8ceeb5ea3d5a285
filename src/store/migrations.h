// Numbered schema migrations compiled into the binary (spec §5.9). Version N is applied
// once, in order, inside a transaction; schema_meta.schema_version records the newest
// applied. Downgrades are refused.
#pragma once

#include <sqlite3.h>

#include <span>
#include <string_view>

#include "core/status.h"

namespace kebab::store {

struct Migration {
  int version;
  std::string_view description;
  std::string_view sql;
};

// All migrations, ascending by version.
std::span<const Migration> AllMigrations();

// Newest schema version this binary knows.
int LatestSchemaVersion();

// Oldest schema a readonly open (search, inspect) accepts: the migrations after it only add
// tables readers never touch (V005 answers, V006 eval runs), so an upgrade does not stop searches
// until the next ingest migrates the file.
constexpr int kOldestReadableSchema = 4;

// Schema version recorded in `db` (0 for an empty database).
Result<int> CurrentSchemaVersion(sqlite3* db);

// Applies every missing migration up to `target_version` (default: the newest). Errors when
// the database is newer than this binary.
Status ApplyMigrations(sqlite3* db, int target_version = 0);

}  // namespace kebab::store
