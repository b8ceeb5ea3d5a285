// Read-only facade calls: list, inspect, fetch and search. Each opens the store readonly,
// so they run beside an ingest and never modify the index.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/session.h"
#include "config/config.h"
#include "core/citation.h"
#include "search/search.h"
#include "store/store.h"

namespace kebab::app {

// For each workspace path, whether a document is indexed from it.
Result<std::vector<bool>> AreIndexed(Session& session, const std::vector<std::string>& paths);

Result<std::vector<store::DocSummary>> ListDocuments(Session& session,
                                                     const store::DocListFilter& filter);

// kDocNotFound / kChunkNotFound when the id is unknown.
Result<store::StoredDocument> InspectDocument(Session& session, const std::string& doc_id);
Result<store::StoredChunk> InspectChunk(Session& session, const std::string& chunk_id);

// What OCR has done across runs (`kebab inspect ocr-stats`, ocr_stats.v1).
Result<store::OcrStats> InspectOcrStats(Session& session);

struct OcrFailures {
  std::optional<std::string> doc_id, doc_path;  // when asked for one document
  std::vector<store::OcrEventRecord> failures;  // newest first
};
// The pages OCR failed on, newest first (`kebab inspect ocr-failures`, ocr_failures.v1); of
// one document when `doc_id` is given (kDocNotFound when it is unknown).
Result<OcrFailures> InspectOcrFailures(Session& session, const std::optional<std::string>& doc_id,
                                       int limit);

struct FetchResult {
  std::string kind;  // chunk | doc | span
  std::string doc_id, doc_path, title, indexed_at;
  std::string media;  // the document's medium (markdown, pdf, code, ...)
  std::string text;
  bool truncated = false;
  std::optional<store::StoredChunk> chunk;
  std::vector<store::StoredChunk> context_before, context_after;
  std::optional<int> line_start, line_end;             // span of lines: the range asked for
  std::optional<int> page_start, page_end;             // span of pages: the range asked for
  std::optional<uint64_t> time_start_ms, time_end_ms;  // span of a recording: the range asked for
  std::optional<int> effective_end;                    // span: the last line or page returned
  // What the text cites, when one citation covers it (a chunk, a line span, one page).
  std::optional<Citation> citation;
};

// What a stored chunk cites: its first source span, labelled with its section.
Citation ChunkCitation(const store::StoredChunk& chunk);

// A chunk with `context` neighbouring chunks on each side.
Result<FetchResult> FetchChunk(Session& session, const std::string& chunk_id, int context);
// A whole document's text, read from the file on disk when it still matches the index, else
// reassembled from its chunks; cut at `max_tokens` (chars / 4) when > 0.
Result<FetchResult> FetchDocument(Session& session, const std::string& doc_id, int max_tokens);
// Lines [line_start, line_end] (1-based, inclusive) of a document's file.
Result<FetchResult> FetchSpan(Session& session, const std::string& doc_id, int line_start,
                              int line_end, int max_tokens);
// The text extracted from pages [page_start, page_end] (1-based, inclusive) of a paged
// document (a PDF), pages apart by a blank line. span_not_supported for a document of lines;
// invalid_input for a backwards range or one with no indexed text.
Result<FetchResult> FetchPages(Session& session, const std::string& doc_id, int page_start,
                               int page_end, int max_tokens);

// What was said from `start_ms` to `end_ms` of a recording: the transcript's segments that
// overlap the range, a line each. span_not_supported for a document that is no recording;
// invalid_input for a backwards range or one with no transcript.
Result<FetchResult> FetchTime(Session& session, const std::string& doc_id, uint64_t start_ms,
                              uint64_t end_ms, int max_tokens);

// What a citation URI cites, exactly (an agent opening a hit's citation.uri): the lines of
// `notes/x.md#L10-L14`, the text extracted from page 12 of `papers/x.pdf#p=12`, the text read
// inside a region (`scan.pdf#p=2&xywh=...`, `photo.jpg#xywh=...`), an image's caption
// (`photo.jpg#caption`), what was said in a stretch of a recording, or the whole document for a
// bare workspace path `notes/x.md`. invalid_input for a malformed URI or a page or region with no
// text; doc_not_found when no indexed document has the path. A time citation
// (`talk.m4a#t=00:01:02.5,00:01:09`) reads what was said then, as FetchTime.
Result<FetchResult> FetchCitation(Session& session, std::string_view uri, int max_tokens);

// Runs a search with the configured defaults filled in (k, snippet length).
Result<search::SearchResponse> Search(Session& session, search::SearchRequest request);

// A search as a caller states it (CLI flags, an MCP tool's arguments): text and numbers,
// unset or empty meaning the configured default.
// The filters a caller states, as given (search and ask share them). Media kinds, source types
// and code languages may also be comma-separated lists.
struct FilterParams {
  std::vector<std::string> tags, media, doc_ids, source_types;
  std::vector<std::string> code_langs;  // rust, python, ...; also aliases: rs, py, ts, c++, sh
  std::vector<std::string> repos;       // a repository's name or remote URL
  std::string lang, path_glob, trust_min, ingested_after;  // trust_min: primary | secondary |
                                                           // generated; RFC 3339 date
  std::string symbol;                                      // a glob on code symbol paths
};

// `params` validated: invalid_input naming the field and its allowed values.
Result<SearchFilters> ResolveFilters(const FilterParams& params);

struct SearchParams {
  std::string query;
  std::string mode;       // lexical | vector | hybrid; empty: hybrid with an embedding model
  std::optional<int> k;   // >= 1; unset: search.default_k
  int max_tokens = 0;     // 0: no budget
  int snippet_chars = 0;  // 0: search.snippet_chars
  std::string cursor;     // a previous response's next_cursor
  bool explain = false, trace = false;
  FilterParams filters;
};

// The request `params` states, validated: invalid_input naming the field and its allowed
// values ("unknown mode 'sideways'").
Result<search::SearchRequest> ResolveSearch(const Session& session, const SearchParams& params);

// One query of a bulk search: {"query": str, "k"?: int, "mode"?: str, "id"?: any} over the
// shared `base` parameters, run and returned as bulk_search_item.v1 (a failed query is an item
// with its error, never a failed batch). `index` numbers it from 0.
nlohmann::json BulkSearchItem(Session& session, const SearchParams& base,
                              const nlohmann::json& query, int index);
// At most this many queries in one bulk search.
inline constexpr int kMaxBulkQueries = 100;

// `snippet` (a SearchHit's) with its highlight markers replaced by `open` and `close` (both
// empty: plain text).
std::string RenderHighlights(std::string_view snippet, std::string_view open,
                             std::string_view close);

}  // namespace kebab::app
