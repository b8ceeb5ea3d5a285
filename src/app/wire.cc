#include "app/wire.h"

#include <algorithm>
#include <cmath>

#include "core/json_text.h"
#include "core/unicode.h"
#include "search/snippet.h"

namespace kebab::app::wire {
namespace {

json NullOr(const std::optional<std::string>& s) {
  return s ? json(*s) : json(nullptr);
}
json NullIfEmpty(const std::string& s) {
  return s.empty() ? json(nullptr) : json(s);
}
template <typename T>
json NullOr(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json Spans(const std::vector<SourceSpan>& spans) {
  json a = json::array();
  for (const auto& s : spans) a.push_back(s.ToJson());
  return a;
}

json Counts(const IngestCounts& c) {
  return {{"scanned", c.scanned},
          {"new", c.new_docs},
          {"updated", c.updated},
          {"unchanged", c.unchanged},
          {"skipped", c.skipped},
          {"errors", c.errors},
          {"purged", c.purged},
          {"chunks_indexed", c.chunks_indexed},
          {"embeddings_indexed", c.embeddings_indexed}};
}

}  // namespace

json Error(const Status& status) {
  return {{"schema_version", "error.v1"},
          {"code", ErrorCodeName(status.code())},
          {"message", status.message()},
          {"hint", NullIfEmpty(status.hint())},
          {"details", json::object()}};
}

int ExitCodeFor(const Status&) {
  return 2;
}

namespace {

// [start, end) byte ranges of the marked stretches of `snippet`, as offsets into the snippet
// with its markers removed (what `snippet` on the wire holds).
json Highlights(std::string_view snippet) {
  json out = json::array();
  size_t plain = 0, open = 0;
  for (char c : snippet) {
    if (c == search::kHighlightOpen) {
      open = plain;
    } else if (c == search::kHighlightClose) {
      if (plain > open) out.push_back({open, plain});
    } else {
      ++plain;
    }
  }
  return out;
}

}  // namespace

json SearchHit(const search::SearchHit& h, const std::string& index_version, bool explain,
               const std::string& match_expression, const std::string& embedding_model) {
  const Chunk& c = h.chunk.chunk;
  json citation = h.citation.ToWire();
  citation["indexed_at"] = h.chunk.indexed_at;
  json j = {{"schema_version", "search_hit.v1"},
            {"rank", h.rank},
            {"score", h.score},
            {"score_kind", h.score_kind},
            {"chunk_id", c.chunk_id},
            {"doc_id", c.doc_id},
            {"doc_path", h.chunk.doc_path},
            {"title", h.chunk.title},
            {"heading_path", c.heading_path},
            {"section_label", NullIfEmpty(c.section_label)},
            {"snippet", search::StripHighlights(h.snippet)},
            {"snippet_full_text", h.snippet_full_text},
            {"citation", citation},
            {"retrieval",
             {{"method", SearchModeName(h.retrieval.method)},
              {"lexical_score", NullOr(h.retrieval.lexical_score)},
              {"vector_score", NullOr(h.retrieval.vector_score)},
              {"fusion_score", NullOr(h.retrieval.fusion_score)},
              {"lexical_rank", NullOr(h.retrieval.lexical_rank)},
              {"vector_rank", NullOr(h.retrieval.vector_rank)}}},
            {"index_version", index_version},
            {"embedding_model", NullIfEmpty(embedding_model)},
            {"chunker_version", c.chunker_version},
            {"indexed_at", h.chunk.indexed_at},
            {"lang", h.lang},
            {"source_type", h.source_type},
            {"trust_level", h.trust_level}};
  if (json marks = Highlights(h.snippet); !marks.empty()) j["highlights"] = std::move(marks);
  // Absent, not null, elsewhere (spec §2: code hits only).
  if (h.repo) j["repo"] = *h.repo;
  if (h.code_lang) j["code_lang"] = *h.code_lang;
  if (explain) {
    j["explain"] = {
        {"match_expression", match_expression},
        {"lexical",
         {{"rank", NullOr(h.retrieval.lexical_rank)},
          {"bm25", NullOr(h.retrieval.lexical_score)},
          {"normalized", h.score}}},
        {"vector",
         {{"rank", NullOr(h.retrieval.vector_rank)}, {"cosine", NullOr(h.retrieval.vector_score)}}},
        {"token_estimate", c.token_estimate},
        {"policy_hash", c.policy_hash}};
  }
  return j;
}

json QueryPlan(const search::MatchPlan& plan) {
  json words = json::array();
  for (const search::QueryWordPlan& w : plan.words) {
    words.push_back({{"word", w.word}, {"terms", w.terms}, {"notes", w.notes}});
  }
  return {{"raw", plan.raw},
          {"phrase", NullIfEmpty(plan.phrase)},
          {"words", words},
          {"words_left_out", plan.words_left_out}};
}

json SearchResponse(const search::SearchResponse& r, bool explain) {
  json hits = json::array();
  for (const auto& h : r.hits)
    hits.push_back(SearchHit(h, r.index_version, explain, r.match.expression, r.embedding_model));
  json j = {{"schema_version", "search_response.v1"},
            {"query", r.query},
            {"mode", SearchModeName(r.mode)},
            {"k", r.k},
            {"hits", hits},
            {"next_cursor", NullOr(r.next_cursor)},
            {"truncated", r.truncated},
            {"corpus_revision", r.corpus_revision},
            {"index_version", r.index_version},
            {"hint", NullOr(r.hint)}};
  if (explain || !r.timing_ms.empty()) {
    json timing = {{"total_ms", r.elapsed_ms}};
    for (const auto& [stage, ms] : r.timing_ms) timing[stage] = ms;
    j["trace"] = {{"match_expression", r.match.expression}, {"timing", timing}};
    if (!r.match.expression.empty()) j["trace"]["query_plan"] = QueryPlan(r.match);
    auto candidates = [](const std::vector<search::ChannelHit>& hits) {
      json a = json::array();
      for (size_t i = 0; i < hits.size(); ++i) {
        a.push_back({{"rank", i + 1}, {"chunk_id", hits[i].chunk_id}, {"score", hits[i].score}});
      }
      return a;
    };
    if (!r.timing_ms.empty()) {
      j["trace"]["lexical"] = candidates(r.lexical_candidates);
      j["trace"]["vector"] = candidates(r.vector_candidates);
    }
  }
  return j;
}

json DocSummary(const store::DocSummary& d) {
  json j = {{"schema_version", "doc_summary.v1"},
            {"doc_id", d.doc_id},
            {"doc_path", d.doc_path},
            {"title", d.title},
            {"lang", d.lang},
            {"tags", d.tags},
            {"aliases", d.aliases},
            {"trust_level", TrustLevelName(d.trust_level)},
            {"source_type", SourceTypeName(d.source_type)},
            {"media", d.media},
            {"byte_len", d.byte_len},
            {"chunk_count", d.chunk_count},
            {"created_at", d.created_at},
            {"updated_at", d.updated_at},
            {"indexed_at", d.ingested_at},
            {"parser_version", d.parser_version},
            {"chunker_version", NullIfEmpty(d.chunker_version)}};
  // As search hits carry it; `lang` keeps the natural language its filters and counts mean.
  if (d.code_lang) j["code_lang"] = *d.code_lang;
  return j;
}

json ChunkInspection(const store::StoredChunk& s) {
  const Chunk& c = s.chunk;
  return {{"schema_version", "chunk_inspection.v1"},
          {"chunk_id", c.chunk_id},
          {"doc_id", c.doc_id},
          {"doc_path", s.doc_path},
          {"heading_path", c.heading_path},
          {"section_label", NullIfEmpty(c.section_label)},
          {"text", c.text},
          {"source_spans", Spans(c.source_spans)},
          {"block_ids", c.block_ids},
          {"token_estimate", c.token_estimate},
          {"chunker_version", c.chunker_version},
          {"policy_hash", c.policy_hash},
          {"citation", ChunkCitation(s).ToWire()},
          {"embeddings", json::array()}};
}

namespace {

// A paged document's pages, every one of them: its heading path, blocks and characters, or
// that it has no text yet (it waits for OCR).
json PageList(const CanonicalDocument& d) {
  uint32_t count = d.blocks.back().span.page;
  const json& user = d.metadata.user;
  if (user.contains("pages") && user["pages"].is_number_unsigned()) {
    count = std::max(count, user["pages"].get<uint32_t>());
  }
  json pages = json::array();
  size_t b = 0;
  // A multi-page tiff's description covers the whole file, on no page.
  while (b < d.blocks.size() && d.blocks[b].span.page == 0) ++b;
  for (uint32_t page = 1; page <= count; ++page) {
    size_t blocks = 0, chars = 0, ocr_chars = 0;
    double confidence_sum = 0;
    std::vector<std::string> heading_path;
    for (; b < d.blocks.size() && d.blocks[b].span.page == page; ++b, ++blocks) {
      const Block& block = d.blocks[b];
      if (blocks == 0) heading_path = block.heading_path;
      const size_t n = Utf8Length(block.text);
      chars += n;
      if (block.confidence) {
        ocr_chars += n;
        confidence_sum += *block.confidence * static_cast<double>(n);
      }
    }
    json entry = {{"page", page},
                  {"heading_path", heading_path},
                  {"blocks", blocks},
                  {"chars", chars},
                  {"has_text", blocks > 0}};
    if (ocr_chars > 0) {
      entry["ocr_confidence"] =
          std::round(confidence_sum / static_cast<double>(ocr_chars) * 10) / 10;
    }
    pages.push_back(std::move(entry));
  }
  return pages;
}

}  // namespace

json DocumentInspection(const store::StoredDocument& s) {
  const CanonicalDocument& d = s.doc;
  json blocks = json::array();
  for (const auto& b : d.blocks) {
    blocks.push_back({{"block_id", b.block_id},
                      {"kind", BlockKindName(b.kind)},
                      {"heading_path", b.heading_path},
                      {"ordinal", b.ordinal},
                      {"source_span", b.span.ToJson()},
                      {"payload", b.PayloadJson()}});
  }
  json provenance = json::array();
  for (const auto& e : d.provenance) {
    provenance.push_back({{"at", e.at}, {"agent", e.agent}, {"kind", e.kind}, {"note", e.note}});
  }
  json j = {{"schema_version", "document_inspection.v1"},
            {"doc_id", d.doc_id},
            {"doc_path", d.workspace_path},
            {"asset_id", d.asset_id},
            {"title", d.title},
            {"lang", d.lang},
            {"parser_version", d.parser_version},
            {"doc_version", d.doc_version},
            {"created_at", s.summary.created_at},
            {"updated_at", s.summary.updated_at},
            {"indexed_at", s.summary.ingested_at},
            {"metadata", d.metadata.ToJson()},
            {"blocks", blocks},
            {"chunk_ids", s.chunk_ids},
            {"provenance", provenance}};
  if (IsPaged(d)) j["pages"] = PageList(d);
  return j;
}

json InitReport(const app::InitReport& r) {
  json actions = json::array();
  for (const auto& l : r.lines) {
    actions.push_back({{"verb", l.verb}, {"path", l.path}, {"note", l.note}});
  }
  return {
      {"config_path", r.config_path}, {"workspace_root", r.workspace_root}, {"actions", actions}};
}

json Doctor(const DoctorReport& r) {
  json checks = json::array();
  for (const auto& c : r.checks) {
    checks.push_back(
        {{"name", c.name}, {"ok", c.ok}, {"detail", c.detail}, {"hint", NullIfEmpty(c.hint)}});
  }
  return {{"schema_version", "doctor.v1"}, {"ok", r.ok}, {"checks", checks}};
}

json IngestReport(const app::IngestReport& r) {
  const IngestCounts& c = r.counts;
  json j = {{"schema_version", "ingest_report.v1"},
            {"run_id", r.run_id},
            {"scope", {{"root", r.root}, {"exclude", r.exclude}}},
            {"scanned", c.scanned},
            {"new", c.new_docs},
            {"updated", c.updated},
            {"unchanged", c.unchanged},
            {"skipped", c.skipped},
            {"errors", c.errors},
            {"purged", c.purged},
            {"chunks_indexed", c.chunks_indexed},
            {"embeddings_indexed", c.embeddings_indexed},
            {"duration_ms", r.duration_ms},
            {"aborted", r.aborted},
            {"corpus_revision", r.corpus_revision},
            {"skipped_by_extension", r.skipped_by_extension},
            {"skip_examples", r.skip_examples},
            {"warnings", r.warnings}};
  if (r.purge_withheld > 0) j["purge_withheld"] = r.purge_withheld;
  for (const char* reason :
       {"gitignore", "kebabignore", "config_exclude", "builtin_blacklist", "generated", "vendored",
        "size_exceeded", "unsupported", "unreadable", "symlink_loop"}) {
    auto it = r.skipped_by_reason.find(reason);
    j[std::string("skipped_") + reason] = it == r.skipped_by_reason.end() ? 0 : it->second;
  }
  if (!r.items) {
    j["items"] = nullptr;
  } else {
    json items = json::array();
    for (const auto& i : *r.items) {
      items.push_back({{"kind", i.kind},
                       {"doc_id", NullIfEmpty(i.doc_id)},
                       {"doc_path", i.doc_path},
                       {"asset_id", NullIfEmpty(i.asset_id)},
                       {"byte_len", i.byte_len},
                       {"block_count", i.block_count},
                       {"chunk_count", i.chunk_count},
                       {"parser_version", NullIfEmpty(i.parser_version)},
                       {"chunker_version", NullIfEmpty(i.chunker_version)},
                       {"warnings", i.warnings},
                       {"error", NullIfEmpty(i.error)}});
      if (i.ocr_pages > 0) {
        items.back()["ocr_pages"] = i.ocr_pages;
        items.back()["ocr_ms"] = i.ocr_ms;
      }
    }
    j["items"] = items;
  }
  return j;
}

std::string IngestProgressLine(const IngestEvent& e) {
  using K = IngestEvent::Kind;
  const bool per_file = e.kind == K::kAssetStarted || e.kind == K::kAssetFinished;
  // Invalid UTF-8 (a file name is bytes) gets nlohmann's replacement characters.
  if (!per_file || !IsValidUtf8(e.path) || !IsValidUtf8(e.media)) {
    return IngestProgress(e).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  }
  // Keys in the order nlohmann's std::map-backed objects print them.
  std::string line;
  line.reserve(160 + e.path.size());
  auto key = [&](const char* k) {
    line += line.empty() ? "{\"" : ",\"";
    line += k;
    line += "\":";
  };
  auto number = [&](const char* k, int64_t v) {
    key(k);
    line += std::to_string(v);
  };
  auto text = [&](const char* k, std::string_view v) {
    key(k);
    AppendJsonString(line, v);
  };
  if (e.kind == K::kAssetFinished) number("chunks", e.chunks);
  number("idx", e.idx);
  text("kind", e.kind == K::kAssetFinished ? "asset_finished" : "asset_started");
  if (e.kind == K::kAssetStarted) text("media", e.media);
  if (e.kind == K::kAssetFinished) number("ms", e.ms);
  text("path", e.path);
  if (e.kind == K::kAssetFinished) text("result", e.result);
  text("schema_version", "ingest_progress.v1");
  number("total", e.total);
  text("ts", e.ts);
  line += "}\n";
  return line;
}

json IngestProgress(const IngestEvent& e) {
  json j = {{"schema_version", "ingest_progress.v1"}, {"ts", e.ts}};
  using K = IngestEvent::Kind;
  if (e.kind == K::kAssetStarted || e.kind == K::kAssetFinished) {
    j["idx"] = e.idx;
    j["total"] = e.total;
    j["path"] = e.path;
  }
  switch (e.kind) {
    case K::kScanStarted:
      j["kind"] = "scan_started";
      j["root"] = e.root;
      break;
    case K::kScanCompleted:
      j["kind"] = "scan_completed";
      j["total"] = e.total;
      break;
    case K::kAssetStarted:
      j["kind"] = "asset_started";
      j["media"] = e.media;
      break;
    case K::kAssetProgress:
      j["kind"] = "asset_progress";
      j["path"] = e.path;
      j["media"] = e.media;
      j["done"] = e.done;
      j["of"] = e.of;
      j["unit"] = e.unit;
      break;
    case K::kOcrStarted:
    case K::kOcrFinished:
      j["kind"] = e.kind == K::kOcrStarted ? "pdf_ocr_started" : "pdf_ocr_finished";
      j["path"] = e.path;
      j["media"] = e.media;
      j["page"] = e.page;
      if (e.kind == K::kOcrFinished) {
        j["ms"] = e.ms;
        j["chars"] = e.ocr_chars;
        j["cached"] = e.ocr_cached;
        j["ocr_engine"] = e.ocr_engine;
        j["failure_reason"] = e.failure.empty() ? json(nullptr) : json(e.failure);
      }
      break;
    case K::kAssetFinished:
      j["kind"] = "asset_finished";
      j["result"] = e.result;
      j["chunks"] = e.chunks;
      j["ms"] = e.ms;
      break;
    case K::kPurged:
      j["kind"] = "purged";
      j["path"] = e.path;
      break;
    case K::kEmbedBatchStarted:
      j["kind"] = "embed_batch_started";
      j["n_chunks"] = e.chunks;
      break;
    case K::kEmbedBatchFinished:
      j["kind"] = "embed_batch_finished";
      j["n_chunks"] = e.chunks;
      j["ms"] = e.ms;
      break;
    case K::kIndexStarted:
      j["kind"] = "index_started";
      break;
    case K::kIndexFinished:
      j["kind"] = "index_finished";
      j["index_kind"] = e.index_kind;
      j["vectors"] = e.vectors;
      j["ms"] = e.ms;
      break;
    case K::kCompleted:
    case K::kAborted:
      j["kind"] = e.kind == K::kCompleted ? "completed" : "aborted";
      j["counts"] = Counts(e.counts);
      break;
  }
  return j;
}

json FetchResult(const app::FetchResult& r) {
  json j = {{"schema_version", "fetch_result.v1"},
            {"kind", r.kind},
            {"doc_id", r.doc_id},
            {"doc_path", r.doc_path},
            {"title", r.title},
            {"text", r.text},
            {"truncated", r.truncated},
            {"indexed_at", r.indexed_at}};
  if (r.kind == "chunk") {
    j["chunk"] = r.chunk ? ChunkInspection(*r.chunk) : json(nullptr);
    json before = json::array(), after = json::array();
    for (const auto& c : r.context_before) before.push_back(ChunkInspection(c));
    for (const auto& c : r.context_after) after.push_back(ChunkInspection(c));
    j["context_before"] = before;
    j["context_after"] = after;
  }
  if (r.kind == "span") {
    if (r.time_start_ms) {
      j["time_start_ms"] = *r.time_start_ms;
      j["time_end_ms"] = NullOr(r.time_end_ms);
    } else if (r.page_start) {
      j["page_start"] = *r.page_start;
      j["page_end"] = NullOr(r.page_end);
    } else {
      j["line_start"] = NullOr(r.line_start);
      j["line_end"] = NullOr(r.line_end);
    }
    j["effective_end"] = NullOr(r.effective_end);
  }
  if (r.citation) j["citation"] = r.citation->ToWire();
  return j;
}

json ResetReport(const app::ResetReport& r) {
  const char* scope = r.scope == ResetScope::kAll          ? "all"
                      : r.scope == ResetScope::kDataOnly   ? "data_only"
                      : r.scope == ResetScope::kVectorOnly ? "vector_only"
                                                           : "config_only";
  json j = {{"schema_version", "reset_report.v1"},
            {"scope", scope},
            {"removed_paths", r.removed_paths},
            {"kept_paths", r.kept_paths}};
  if (r.scope == ResetScope::kVectorOnly) j["vectors_removed"] = r.vectors_removed;
  return j;
}

namespace {

// The versions the index's documents were made by (Markdown's alone for an empty index), so a
// client sees that recordings were transcribed by whisper, or which code parser ran.
json ActiveVersions(const std::map<std::string, int64_t>& breakdown, const std::string& fallback) {
  json out = json::array();
  for (const auto& [version, docs] : breakdown) out.push_back(version);
  if (out.empty()) out.push_back(fallback);
  return out;
}

}  // namespace

json Schema(const SchemaInfo& info) {
  const auto& s = info.stats;
  json spaces = json::array();
  for (const auto& sp : info.embedding_spaces) {
    spaces.push_back({{"provider", sp.key.provider},
                      {"model", sp.key.model},
                      {"version", sp.key.version},
                      {"dimensions", sp.key.dimensions},
                      {"vectors", sp.vector_count}});
  }
  return {{"schema_version", "schema.v1"},
          {"kebab_version", kKebabVersion},
          {"wire", {{"schemas", info.wire_schemas}}},
          {"capabilities", info.capabilities},
          {"models",
           {{"parser_version", info.parser_version},
            {"chunker_version", info.chunker_version},
            {"active_parsers", ActiveVersions(s.parser_breakdown, info.parser_version)},
            {"active_chunkers", ActiveVersions(s.chunker_breakdown, info.chunker_version)},
            {"embedding_version", NullOr(info.embedding_version)},
            {"prompt_template_version", info.prompt_template_version},
            {"index_version", info.index_version},
            {"corpus_revision", info.corpus_revision},
            {"tokenizer", "kebab (unicode words, CJK bigrams, case/diacritic folding)"},
            {"stemmer", info.stemmer}}},
          {"stats",
           {{"doc_count", s.doc_count},
            {"chunk_count", s.chunk_count},
            {"asset_count", s.asset_count},
            {"last_ingest_at", NullOr(s.last_ingest_at)},
            {"media_breakdown", s.media_breakdown},
            {"lang_breakdown", s.lang_breakdown},
            {"code_lang_breakdown", s.code_lang_breakdown},
            {"code_lang_chunk_breakdown", s.code_lang_chunk_breakdown},
            {"repo_breakdown", s.repo_breakdown},
            {"repo_chunk_breakdown", s.repo_chunk_breakdown},
            {"index_bytes", {{"sqlite", s.sqlite_bytes}}},
            {"embedding_spaces", spaces}}}};
}

}  // namespace kebab::app::wire
