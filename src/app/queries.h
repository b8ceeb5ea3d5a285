// Read-only facade calls: list, inspect, fetch and search. Each opens the store readonly,
// so they run beside an ingest and never modify the index.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/session.h"
#include "config/config.h"
#include "search/search.h"
#include "store/store.h"

namespace kebab::app {

Result<std::vector<store::DocSummary>> ListDocuments(Session& session,
                                                     const store::DocListFilter& filter);

// kDocNotFound / kChunkNotFound when the id is unknown.
Result<store::StoredDocument> InspectDocument(Session& session, const std::string& doc_id);
Result<store::StoredChunk> InspectChunk(Session& session, const std::string& chunk_id);

struct FetchResult {
  std::string kind;  // chunk | doc | span
  std::string doc_id, doc_path, title, indexed_at;
  std::string text;
  bool truncated = false;
  std::optional<store::StoredChunk> chunk;
  std::vector<store::StoredChunk> context_before, context_after;
  std::optional<int> line_start, line_end, effective_end;
};

// A chunk with `context` neighbouring chunks on each side.
Result<FetchResult> FetchChunk(Session& session, const std::string& chunk_id, int context);
// A whole document's text, read from the file on disk when it still matches the index, else
// reassembled from its chunks; cut at `max_tokens` (chars / 4) when > 0.
Result<FetchResult> FetchDocument(Session& session, const std::string& doc_id, int max_tokens);
// Lines [line_start, line_end] (1-based, inclusive) of a document's file.
Result<FetchResult> FetchSpan(Session& session, const std::string& doc_id, int line_start,
                              int line_end, int max_tokens);

// Runs a search with the configured defaults filled in (k, snippet length).
Result<search::SearchResponse> Search(Session& session, search::SearchRequest request);

}  // namespace kebab::app
