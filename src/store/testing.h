// Test helpers for tests that need real rows in a Store: a whole DocumentWrite (asset,
// document, one paragraph block and one chunk per text), and vectors for its chunks.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/ids.h"
#include "store/store.h"

namespace kebab::store {

inline DocumentWrite MakeTestDocument(const std::string& path,
                                      const std::vector<std::string>& texts,
                                      const std::string& content = "v1") {
  DocumentWrite w;
  w.asset.checksum = content;
  w.asset.asset_id = AssetId(content + path);
  w.asset.source_uri = "/ws/" + path;
  w.asset.workspace_path = path;
  w.asset.media = MediaKind::kMarkdown;
  w.asset.byte_len = 10;
  w.asset.discovered_at = "2026-01-01T00:00:00Z";
  CanonicalDocument& d = w.doc;
  d.asset_id = w.asset.asset_id;
  d.workspace_path = path;
  d.parser_version = "p1";
  d.doc_id = DocId(path, d.asset_id, d.parser_version);
  d.title = path;
  d.lang = "en";
  d.metadata.tags = {"t1"};
  d.metadata.created_at = d.metadata.updated_at = "2026-01-01T00:00:00Z";
  int line = 1;
  for (size_t i = 0; i < texts.size(); ++i) {
    Block b;
    b.kind = BlockKind::kParagraph;
    b.text = texts[i];
    b.ordinal = static_cast<int>(i);
    b.span = SourceSpan::Lines(line, line);
    b.block_id = BlockId(d.doc_id, "paragraph", {}, b.ordinal, b.span);
    d.blocks.push_back(b);
    Chunk c;
    c.doc_id = d.doc_id;
    c.block_ids = {b.block_id};
    c.text = texts[i];
    c.source_spans = {b.span};
    c.chunker_version = "md-heading-v2";
    c.policy_hash = "ph";
    c.chunk_id = ChunkId(d.doc_id, c.chunker_version, c.block_ids, c.policy_hash);
    w.chunks.push_back(c);
    line += 2;
  }
  w.chunker_version = "md-heading-v2";
  w.policy_hash = "ph";
  return w;
}

// Stores a vector from `next_vector()` for every chunk text that has none in `space_id`, as
// an embedding pass would.
inline Status EmbedPendingTexts(Store& store, int64_t space_id,
                                const std::function<std::vector<float>()>& next_vector) {
  KEBAB_ASSIGN_OR_RETURN(auto pending, store.TextsWithoutVectors(space_id, 1 << 20));
  std::vector<std::string> hashes;
  std::vector<std::vector<float>> vectors;
  for (const auto& p : pending) {
    hashes.push_back(p.text_hash);
    vectors.push_back(next_vector());
  }
  return store.PutVectors(space_id, hashes, vectors);
}

}  // namespace kebab::store
