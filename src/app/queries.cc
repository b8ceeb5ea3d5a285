#include "app/queries.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <future>
#include <memory>

#include "app/embed_stage.h"
#include "app/internal/code_lang.h"
#include "app/internal/session_state.h"
#include "app/internal_store.h"
#include "core/citation.h"
#include "core/hash.h"
#include "core/ids.h"
#include "core/time.h"
#include "core/unicode.h"
#include "index/vector_index.h"

namespace kebab::app {
namespace {

// Ids are 32 lowercase hex chars (core/ids.h); anything else is a typo, not a missing row.
Status CheckId(const std::string& id, const char* what) {
  bool ok = id.size() == 32;
  for (char c : id) ok = ok && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
  if (ok) return Status::OK();
  return InvalidInput(
      "'" + id + "' is not a " + what + " id (32 lowercase hex characters)",
      std::string("copy the ") + what + "_id from `kebab search --json` or `kebab list docs`");
}

// A span's [first, last]: 1-based and not backwards. `unit` is "line" or "page".
Status CheckRange(const char* unit, int first, int last) {
  if (first >= 1 && last >= first) return Status::OK();
  return InvalidInput(std::string(unit) + " range must be 1-based and not run backwards (got " +
                      std::to_string(first) + "-" + std::to_string(last) + ")");
}

Status DocNotFound(const std::string& id) {
  return Status(ErrorCode::kDocNotFound, "no document with id " + id,
                "list ids with `kebab list docs`");
}

// The document's file as it was indexed: nullopt when it moved, vanished or changed since.
std::optional<std::string> ReadIndexedFile(const store::StoredDocument& d) {
  std::ifstream in(d.summary.source_uri, std::ios::binary);
  if (!in) return std::nullopt;
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  if (AssetId(Blake3Hex(bytes)) != d.doc.asset_id) return std::nullopt;
  return bytes;
}

FetchResult DocumentResult(const char* kind, const store::DocSummary& d) {
  return FetchResult{.kind = kind,
                     .doc_id = d.doc_id,
                     .doc_path = d.doc_path,
                     .title = d.title,
                     .indexed_at = d.ingested_at,
                     .media = d.media};
}

// Whether the document's blocks cite lines of its file, so that the file itself is its text
// (Markdown, code); otherwise (a PDF's pages) its text is what was extracted.
bool LineAddressed(const store::StoredDocument& d) {
  return !d.doc.blocks.empty() && d.doc.blocks.front().span.kind == SourceSpan::Kind::kLine;
}

// The extracted blocks of `d` joined, only those on pages [first, last] when they are set.
// `page_offsets`, when given, gets each page's (number, byte offset of its text in the result).
std::string BlocksText(const store::StoredDocument& d, std::optional<uint32_t> first,
                       std::optional<uint32_t> last,
                       std::vector<std::pair<uint32_t, size_t>>* page_offsets = nullptr) {
  std::string text;
  for (const auto& b : d.doc.blocks) {
    if (first && (b.span.page < *first || b.span.page > *last)) continue;
    if (!text.empty()) text += "\n\n";
    if (page_offsets != nullptr &&
        (page_offsets->empty() || page_offsets->back().first != b.span.page)) {
      page_offsets->emplace_back(b.span.page, text.size());
    }
    if (b.kind == BlockKind::kList) {
      for (const auto& item : b.items) text += "- " + item + "\n";
    } else {
      text += b.text;
    }
  }
  return text;
}

void CutToTokens(std::string* text, int max_tokens, bool* truncated) {
  if (max_tokens <= 0) return;
  const size_t max_bytes = static_cast<size_t>(max_tokens) * 4;
  if (text->size() <= max_bytes) return;
  text->resize(Utf8SafePrefix(*text, max_bytes));
  *truncated = true;
}

// The whole text of `doc`: its file when the blocks cite lines of it and it is still the
// indexed one, else the indexed blocks (a file changed since, or a PDF's extracted pages).
FetchResult DocumentText(const store::StoredDocument& doc, int max_tokens) {
  FetchResult r = DocumentResult("doc", doc.summary);
  std::optional<std::string> file =
      LineAddressed(doc) ? ReadIndexedFile(doc) : std::optional<std::string>();
  r.text = file ? SanitizeUtf8(*file) : BlocksText(doc, std::nullopt, std::nullopt);
  CutToTokens(&r.text, max_tokens, &r.truncated);
  return r;
}

// Lines [line_start, line_end] (checked by the caller: 1-based, not backwards) of `doc`'s
// file, which must still be the indexed one.
Result<FetchResult> SpanText(const store::StoredDocument& doc, int line_start, int line_end,
                             int max_tokens) {
  if (doc.summary.media != "markdown" && doc.summary.media != "code") {
    return Status(ErrorCode::kSpanNotSupported,
                  "line spans exist only for text documents, not " + doc.summary.media);
  }
  std::optional<std::string> file = ReadIndexedFile(doc);
  if (!file) {
    return IoError(doc.summary.doc_path + " changed, moved or vanished since it was indexed",
                   "run `kebab ingest` so line numbers match the file again");
  }
  const std::string& bytes = *file;
  FetchResult r = DocumentResult("span", doc.summary);
  r.line_start = line_start;
  r.line_end = line_end;
  int line = 1;
  int last = 0;
  size_t pos = 0;
  while (pos < bytes.size() && line <= line_end) {
    size_t nl = bytes.find('\n', pos);
    size_t end = nl == std::string::npos ? bytes.size() : nl;
    if (line >= line_start) {
      std::string_view l(bytes.data() + pos, end - pos);
      if (l.ends_with('\r')) l.remove_suffix(1);
      if (!r.text.empty() || line > line_start) r.text += '\n';
      r.text += l;
      last = line;
    }
    if (nl == std::string::npos) break;
    pos = nl + 1;
    ++line;
  }
  if (last == 0) {
    return InvalidInput(doc.summary.doc_path + " has fewer than " + std::to_string(line_start) +
                        " lines");
  }
  r.text = SanitizeUtf8(r.text);
  r.effective_end = last;
  CutToTokens(&r.text, max_tokens, &r.truncated);
  r.citation = Citation::Lines(doc.summary.doc_path, static_cast<uint32_t>(line_start),
                               static_cast<uint32_t>(last));
  return r;
}

// Pages [page_start, page_end] (checked by the caller) of a paged document's extracted text.
Result<FetchResult> PagesText(const store::StoredDocument& doc, int page_start, int page_end,
                              int max_tokens) {
  if (!IsPaged(doc.doc)) {
    return Status(ErrorCode::kSpanNotSupported,
                  "pages exist only for paged documents (PDFs), not " + doc.summary.media,
                  "read lines with `kebab fetch span DOC_ID START END`");
  }
  FetchResult r = DocumentResult("span", doc.summary);
  r.page_start = page_start;
  r.page_end = page_end;
  std::vector<std::pair<uint32_t, size_t>> pages;
  r.text =
      BlocksText(doc, static_cast<uint32_t>(page_start), static_cast<uint32_t>(page_end), &pages);
  if (r.text.empty()) {
    const uint32_t last_page = doc.doc.blocks.back().span.page;
    return InvalidInput(doc.summary.doc_path + " has no indexed text on " +
                            (page_start == page_end ? "page " + std::to_string(page_start)
                                                    : "pages " + std::to_string(page_start) + "-" +
                                                          std::to_string(page_end)) +
                            " (its text runs to page " + std::to_string(last_page) + ")",
                        "a page without a text layer waits for OCR; `kebab inspect doc` lists "
                        "the pages that have text");
  }
  CutToTokens(&r.text, max_tokens, &r.truncated);
  // The last page whose text the cut left in.
  for (const auto& [page, offset] : pages) {
    if (offset < r.text.size()) r.effective_end = static_cast<int>(page);
  }
  if (page_start == page_end) {
    Citation c;
    c.kind = Citation::Kind::kPage;
    c.path = doc.summary.doc_path;
    c.page = static_cast<uint32_t>(page_start);
    r.citation = std::move(c);
  }
  return r;
}

// What a caption or region citation points at: a caption's block, or every block whose box
// lies inside the cited one on its page (a chunk's region is the box around its blocks; the
// whole image's box takes its description and all its text).
Result<FetchResult> CitedBlocksText(const store::StoredDocument& doc, const Citation& cited,
                                    int max_tokens) {
  FetchResult r = DocumentResult("span", doc.summary);
  for (const Block& b : doc.doc.blocks) {
    const SourceSpan& s = b.span;
    const bool inside = cited.kind == Citation::Kind::kCaption
                            ? s.kind == SourceSpan::Kind::kCaption
                            : s.kind == SourceSpan::Kind::kRegion && s.page == cited.page &&
                                  s.x >= cited.x && s.y >= cited.y &&
                                  s.x + s.w <= cited.x + cited.w && s.y + s.h <= cited.y + cited.h;
    if (!inside || b.text.empty()) continue;
    if (!r.text.empty()) r.text += "\n\n";
    r.text += b.text;
  }
  if (r.text.empty()) {
    return InvalidInput(doc.summary.doc_path + " has no indexed text " +
                            (cited.kind == Citation::Kind::kCaption ? std::string("in a caption")
                                                                    : "in that region"),
                        "pass a hit's citation.uri as it is, or read the whole document");
  }
  CutToTokens(&r.text, max_tokens, &r.truncated);
  if (cited.page > 0) r.page_start = r.page_end = static_cast<int>(cited.page);
  r.citation = cited;
  return r;
}

// What was said in [start_ms, end_ms] of a recording: its transcript's segments that overlap
// that range, a line each, cited as the time from the first one's start to the last one's end.
Result<FetchResult> TimeText(const store::StoredDocument& doc, uint64_t start_ms, uint64_t end_ms,
                             int max_tokens) {
  FetchResult r = DocumentResult("span", doc.summary);
  r.time_start_ms = start_ms;
  r.time_end_ms = end_ms;
  Citation c;
  c.kind = Citation::Kind::kTime;
  c.path = doc.summary.doc_path;
  bool any_time = false;
  for (const Block& b : doc.doc.blocks) {
    if (b.span.kind != SourceSpan::Kind::kTime) continue;
    any_time = true;
    // The description block spans the whole recording: it is no part of what was said.
    if (b.kind == BlockKind::kAudioRef || b.text.empty()) continue;
    if (b.span.end < start_ms || b.span.start > end_ms) continue;
    if (r.text.empty()) c.start_ms = b.span.start;
    c.end_ms = std::max<uint64_t>(c.end_ms, b.span.end);
    if (!r.text.empty()) r.text += '\n';
    r.text += b.text;
  }
  if (!any_time) {
    return Status(ErrorCode::kSpanNotSupported,
                  "times exist only for recordings, not " + doc.summary.media,
                  "read lines with `kebab fetch span DOC_ID START END`, or pages with --page");
  }
  if (r.text.empty()) {
    auto seconds = [](uint64_t ms) {
      std::string s = std::to_string(ms / 1000);
      if (ms % 1000 != 0) s += "." + std::to_string(ms % 1000 + 1000).substr(1);
      return s;
    };
    return InvalidInput(doc.summary.doc_path + " has no transcript between " + seconds(start_ms) +
                            " s and " + seconds(end_ms) + " s",
                        "`kebab inspect doc` lists the times of its transcript");
  }
  CutToTokens(&r.text, max_tokens, &r.truncated);
  r.citation = std::move(c);
  return r;
}

}  // namespace

Result<FetchResult> FetchTime(Session& session, const std::string& doc_id, uint64_t start_ms,
                              uint64_t end_ms, int max_tokens) {
  if (end_ms < start_ms) {
    return InvalidInput("the time range ends before it starts", "e.g. --time 62.5-69");
  }
  KEBAB_ASSIGN_OR_RETURN(store::StoredDocument doc, InspectDocument(session, doc_id));
  return TimeText(doc, start_ms, end_ms, max_tokens);
}

Result<std::vector<store::DocSummary>> ListDocuments(Session& session,
                                                     const store::DocListFilter& filter) {
  const config::Config& config = session.config();
  KEBAB_ASSIGN_OR_RETURN(auto store, session.state().ReadStore(config));
  store::DocListFilter f = filter;
  for (std::string& name : f.code_langs) {
    auto canonical = internal::CanonicalCodeLanguage(name);
    if (!canonical) {
      return InvalidInput("not a programming language name: '" + name + "'",
                          "e.g. cpp, python, rust, typescript; `kebab schema` lists those indexed");
    }
    name = *canonical;
  }
  KEBAB_ASSIGN_OR_RETURN(auto docs, store->ListDocuments(f));
  // A listing shows a code document's programming language where others show their natural
  // one, so `--lang cpp` means what the listing shows when no document has natural language cpp.
  if (docs.empty() && f.lang && f.code_langs.empty()) {
    if (auto canonical = internal::CanonicalCodeLanguage(*f.lang)) {
      f.lang.reset();
      f.code_langs = {*canonical};
      return store->ListDocuments(f);
    }
  }
  return docs;
}

Result<std::vector<bool>> AreIndexed(Session& session, const std::vector<std::string>& paths) {
  KEBAB_ASSIGN_OR_RETURN(auto store, session.state().ReadStore(session.config()));
  std::vector<bool> out;
  out.reserve(paths.size());
  for (const std::string& path : paths) {
    KEBAB_ASSIGN_OR_RETURN(auto docs, store->ListDocuments({.path = path, .limit = 1}));
    out.push_back(!docs.empty());
  }
  return out;
}

Result<store::StoredDocument> InspectDocument(Session& session, const std::string& doc_id) {
  const config::Config& config = session.config();
  KEBAB_RETURN_IF_ERROR(CheckId(doc_id, "doc"));
  KEBAB_ASSIGN_OR_RETURN(auto store, session.state().ReadStore(config));
  KEBAB_ASSIGN_OR_RETURN(auto doc, store->GetDocument(doc_id));
  if (!doc) return DocNotFound(doc_id);
  return std::move(*doc);
}

Result<store::OcrStats> InspectOcrStats(Session& session) {
  KEBAB_ASSIGN_OR_RETURN(auto store, session.state().ReadStore(session.config()));
  return store->ComputeOcrStats();
}

Result<OcrFailures> InspectOcrFailures(Session& session, const std::optional<std::string>& doc_id,
                                       int limit) {
  OcrFailures out;
  KEBAB_ASSIGN_OR_RETURN(auto store, session.state().ReadStore(session.config()));
  if (doc_id) {
    KEBAB_RETURN_IF_ERROR(CheckId(*doc_id, "doc"));
    KEBAB_ASSIGN_OR_RETURN(auto doc, store->GetDocument(*doc_id));
    if (!doc) return DocNotFound(*doc_id);
    out.doc_id = doc_id;
    out.doc_path = doc->summary.doc_path;
  }
  KEBAB_ASSIGN_OR_RETURN(out.failures,
                         store->OcrEvents(out.doc_path, /*failures_only=*/true, limit));
  return out;
}

Result<store::StoredChunk> InspectChunk(Session& session, const std::string& chunk_id) {
  const config::Config& config = session.config();
  KEBAB_RETURN_IF_ERROR(CheckId(chunk_id, "chunk"));
  KEBAB_ASSIGN_OR_RETURN(auto store, session.state().ReadStore(config));
  KEBAB_ASSIGN_OR_RETURN(auto chunk, store->GetChunk(chunk_id));
  if (!chunk) {
    return Status(ErrorCode::kChunkNotFound, "no chunk with id " + chunk_id,
                  "chunk ids appear in `kebab search --json` hits");
  }
  return std::move(*chunk);
}

Result<FetchResult> FetchChunk(Session& session, const std::string& chunk_id, int context) {
  const config::Config& config = session.config();
  KEBAB_RETURN_IF_ERROR(CheckId(chunk_id, "chunk"));
  if (context < 0) return InvalidInput("--context must not be negative");
  KEBAB_ASSIGN_OR_RETURN(auto store, session.state().ReadStore(config));
  KEBAB_ASSIGN_OR_RETURN(auto chunk, store->GetChunk(chunk_id));
  if (!chunk) {
    return Status(ErrorCode::kChunkNotFound, "no chunk with id " + chunk_id,
                  "chunk ids appear in `kebab search --json` hits");
  }
  FetchResult r{.kind = "chunk",
                .doc_id = chunk->chunk.doc_id,
                .doc_path = chunk->doc_path,
                .title = chunk->title,
                .indexed_at = chunk->indexed_at};
  r.text = chunk->chunk.text;
  if (context > 0) {
    KEBAB_ASSIGN_OR_RETURN(auto all, store->GetChunksOfDocument(r.doc_id));
    for (auto& c : all) {
      if (c.ordinal < chunk->ordinal && c.ordinal >= chunk->ordinal - context) {
        r.context_before.push_back(c);
      } else if (c.ordinal > chunk->ordinal && c.ordinal <= chunk->ordinal + context) {
        r.context_after.push_back(c);
      }
    }
  }
  r.citation = ChunkCitation(*chunk);
  r.chunk = std::move(*chunk);
  return r;
}

Result<FetchResult> FetchDocument(Session& session, const std::string& doc_id, int max_tokens) {
  KEBAB_ASSIGN_OR_RETURN(store::StoredDocument doc, InspectDocument(session, doc_id));
  return DocumentText(doc, max_tokens);
}

Result<FetchResult> FetchSpan(Session& session, const std::string& doc_id, int line_start,
                              int line_end, int max_tokens) {
  KEBAB_RETURN_IF_ERROR(CheckRange("line", line_start, line_end));
  KEBAB_ASSIGN_OR_RETURN(store::StoredDocument doc, InspectDocument(session, doc_id));
  return SpanText(doc, line_start, line_end, max_tokens);
}

Result<FetchResult> FetchPages(Session& session, const std::string& doc_id, int page_start,
                               int page_end, int max_tokens) {
  KEBAB_RETURN_IF_ERROR(CheckRange("page", page_start, page_end));
  KEBAB_ASSIGN_OR_RETURN(store::StoredDocument doc, InspectDocument(session, doc_id));
  return PagesText(doc, page_start, page_end, max_tokens);
}

Citation ChunkCitation(const store::StoredChunk& c) {
  SourceSpan span =
      c.chunk.source_spans.empty() ? SourceSpan::Lines(1, 1) : c.chunk.source_spans[0];
  std::optional<std::string> section;
  if (!c.chunk.section_label.empty()) section = c.chunk.section_label;
  return CitationFromSpan(c.doc_path, span, section);
}

Result<FetchResult> FetchCitation(Session& session, std::string_view uri, int max_tokens) {
  // A bare path reads as the citation of its first line, so both unescape alike.
  const bool whole = uri.find('#') == std::string_view::npos;
  Result<Citation> parsed = Citation::Parse(whole ? std::string(uri) + "#L1" : std::string(uri));
  if (!parsed.ok()) {
    return InvalidInput(parsed.status().message(),
                        "pass a hit's citation.uri, e.g. notes/x.md#L10-L14, or a path");
  }
  Citation cited = *std::move(parsed);
  cited.path = NormalizeWorkspacePath(cited.path);
  KEBAB_ASSIGN_OR_RETURN(auto store, session.state().ReadStore(session.config()));
  KEBAB_ASSIGN_OR_RETURN(std::vector<store::DocSummary> docs,
                         store->ListDocuments({.path = cited.path}));
  std::optional<store::StoredDocument> doc;
  if (!docs.empty()) {
    KEBAB_ASSIGN_OR_RETURN(doc, store->GetDocument(docs.front().doc_id));
  }
  if (!doc) {
    return Status(ErrorCode::kDocNotFound, "no indexed document at " + cited.path,
                  "list_docs shows what is indexed; run `kebab ingest` after adding files");
  }
  if (whole) return DocumentText(*doc, max_tokens);
  if (cited.kind == Citation::Kind::kPage) {
    return PagesText(*doc, static_cast<int>(cited.page), static_cast<int>(cited.page), max_tokens);
  }
  if (cited.kind == Citation::Kind::kCaption || cited.kind == Citation::Kind::kRegion) {
    return CitedBlocksText(*doc, cited, max_tokens);
  }
  if (cited.kind == Citation::Kind::kTime) {
    return TimeText(*doc, cited.start_ms, cited.end_ms, max_tokens);
  }
  if (cited.kind != Citation::Kind::kLine && cited.kind != Citation::Kind::kCode) {
    return Status(ErrorCode::kSpanNotSupported,
                  std::string(CitationKindName(cited.kind)) +
                      " citations cannot be read as text yet; read the whole document");
  }
  return SpanText(*doc, static_cast<int>(cited.line_start), static_cast<int>(cited.line_end),
                  max_tokens);
}

Result<search::SearchResponse> Search(Session& session, search::SearchRequest request) {
  const config::Config& config = session.config();
  if (request.mode != SearchMode::kLexical && config.embedding.provider == "none") {
    return InvalidInput(std::string("--mode ") + std::string(SearchModeName(request.mode)) +
                            " needs an embedding model, and none is configured",
                        "use --mode lexical, or set [models.embedding] in the config");
  }
  StageTimer timer;
  auto finish = [&](Result<search::SearchResponse> resp) -> Result<search::SearchResponse> {
    if (!resp.ok() || !request.trace) return resp;
    resp->timing_ms.merge(timer.stages());
    resp->timing_ms["total_ms"] = timer.TotalMs();
    return resp;
  };

  KEBAB_ASSIGN_OR_RETURN(auto store, session.state().ReadStore(config));
  timer.End("open_ms");
  if (request.mode == SearchMode::kLexical) {
    store::Store::ReadSnapshot snapshot(*store);
    return finish(search::LexicalSearch(*store, request));
  }

  store::SpaceKey key;
  {
    KEBAB_ASSIGN_OR_RETURN(auto embedder, session.state().Embedder(config));
    key = SpaceKeyOf(*embedder);
  }
  timer.End("model_load_ms");
  // The query is embedded on its own thread from here on while this one checks the space,
  // opens the index and ranks the lexical channel: SemanticSearch waits for the vector only
  // when it needs it. Whatever returns first, the future's destructor joins the thread, and
  // `embed_ms` (declared before it) outlives it.
  double embed_ms = 0;
  auto embedded = std::async(std::launch::async, [&]() -> Result<std::vector<float>> {
    const auto started = std::chrono::steady_clock::now();
    KEBAB_ASSIGN_OR_RETURN(auto embedder, session.state().Embedder(config));
    KEBAB_ASSIGN_OR_RETURN(std::vector<embed::Vector> query,
                           embedder->Embed({request.query}, embed::Purpose::kQuery));
    embed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
                   .count();
    return std::move(query.at(0));
  });
  KEBAB_ASSIGN_OR_RETURN(std::optional<int64_t> space, store->FindSpaceId(key));
  bool has_vectors = false;
  if (space) {
    KEBAB_ASSIGN_OR_RETURN(has_vectors, store->HasVectors(*space));
  }
  if (!has_vectors) {
    std::string have;
    KEBAB_ASSIGN_OR_RETURN(auto spaces, store->ListSpaces());
    for (const auto& s : spaces) {
      if (s.vector_count == 0) continue;
      have += (have.empty() ? "" : ", ") + s.key.provider + ":" + s.key.model + " " +
              s.key.version + " (" + std::to_string(s.key.dimensions) + " dims)";
    }
    return Status(ErrorCode::kNotIndexed,
                  "the index has no vectors from " + key.provider + ":" + key.model + " " +
                      key.version + " (" + std::to_string(key.dimensions) + " dims)" +
                      (have.empty() ? std::string() : "; it has vectors from " + have),
                  "run `kebab ingest` to embed the chunks with the configured model, or search "
                  "with --mode lexical");
  }
  KEBAB_ASSIGN_OR_RETURN(std::shared_ptr<const index::VectorIndex> vectors,
                         session.state().VectorIndex(config, *store, *space, key.dimensions));
  timer.End("index_open_ms");
  search::VectorQuery vq{*space, std::move(embedded), key.model, vectors.get()};
  // Not earlier: loading the model or rebuilding the index can take seconds, and a snapshot
  // held that long would keep an ingest's checkpoint waiting.
  store::Store::ReadSnapshot snapshot(*store);
  auto resp = search::SemanticSearch(*store, request, std::move(vq), config.search.rrf_k);
  // SemanticSearch has joined the embedding thread (the future died with its argument).
  if (resp.ok() && request.trace) resp->timing_ms["query_embed_ms"] = embed_ms;
  return finish(std::move(resp));
}

}  // namespace kebab::app
