// Registers kebab's analyzer (text/analyzer.h) as the FTS5 tokenizer "kebab" on a SQLite
// connection, so documents and queries are tokenized the same way.
#pragma once

#include <sqlite3.h>

#include <string>

#include "core/status.h"

namespace kebab::text {

// Registers the tokenizer "kebab" on `db`. `stemmer` is the Snowball algorithm name used for
// every table on this connection ("none" to disable). Call once per connection, before any
// statement touches an FTS5 table that uses it.
Status RegisterKebabTokenizer(sqlite3* db, const std::string& stemmer);

// The FTS5 API of `db`'s SQLite, or null when it was built without FTS5 (the store registers
// its ranking function through it too).
fts5_api* Fts5Api(sqlite3* db);

}  // namespace kebab::text
