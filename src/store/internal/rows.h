// Row readers shared by the read-side query files of the store module.
#pragma once

#include <string>

#include "store/sqlite_util.h"
#include "store/store.h"

namespace kebab::store {

// Column list (aliases c = chunks, d = documents) and reader for a StoredChunk.
std::string ChunkSelectColumns();
int ChunkSelectColumnCount();
StoredChunk ReadChunkRow(const Statement& q, int base);

}  // namespace kebab::store
