// Workspace-path globbing for --path-glob filters: `*` and `?` stay within one path segment,
// `**` crosses segments, `[abc]` / `[!abc]` are character classes. Registered as the SQL
// function kebab_path_glob(pattern, path) so filters run inside queries.
#pragma once

#include <sqlite3.h>

#include <string_view>

#include "core/status.h"

namespace kebab::store {

bool PathGlobMatch(std::string_view pattern, std::string_view path);

Status RegisterPathGlobFunction(sqlite3* db);

}  // namespace kebab::store
