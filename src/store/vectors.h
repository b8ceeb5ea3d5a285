// Embedding spaces and vectors in the store (schema V003). Vectors are float32, keyed by the
// 16-byte BLAKE3 of the chunk text they embed (chunks.text_hash).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kebab::store {

// Identity of an embedding space: vectors of different spaces are never compared.
struct SpaceKey {
  std::string provider, model, version;
  int dimensions = 0;
  std::string document_prefix;
};

struct StoredSpace {
  int64_t space_id = 0;
  SpaceKey key;
  int64_t vector_count = 0;
};

// A chunk whose text has no vector in a space yet.
struct PendingText {
  int64_t chunk_rowid = 0;
  std::string text_hash;  // 16 raw bytes
  std::string text;
};

struct VectorHit {
  int64_t chunk_rowid = 0;
  std::string chunk_id;
  float similarity = 0;  // cosine (vectors are unit length)
};

// Orders `hits` best first, ties by chunk id (the order of every vector ranking), and keeps
// the first `depth`.
void RankVectorHits(std::vector<VectorHit>* hits, int depth);

// What a vector index built from the store is stamped with: it is current exactly when all
// three are unchanged.
struct VectorIndexStamp {
  std::string store_id;  // random per database (kv store_id)
  int64_t corpus_revision = 0;
  int64_t vectors_revision = 0;

  bool operator==(const VectorIndexStamp&) const = default;
};

// One chunk's vector, as ScanSpaceVectors hands it out (valid during the callback only).
struct ChunkVector {
  int64_t chunk_rowid = 0;
  std::string_view chunk_id;
  std::string_view text_hash;  // 16 raw bytes
  const float* vector = nullptr;
};

// Registers kebab_text_hash(text) → 16-byte BLAKE3 blob, used by migrations and inserts.
Status RegisterTextHashFunction(sqlite3* db);

}  // namespace kebab::store
