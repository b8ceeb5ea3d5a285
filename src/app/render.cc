#include "app/render.h"

#include <cstdio>

namespace kebab::app::render {
namespace {

std::string Fixed(double v, int digits = 2) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string Plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string Search(const search::SearchResponse& r) {
  std::string out;
  for (const search::SearchHit& h : r.hits) {
    out += std::to_string(h.rank) + ". " + Fixed(h.score) + "  " + h.citation.ToUri() + "\n";
    std::string heading = h.chunk.chunk.section_label;
    if (heading.empty()) heading = h.chunk.title;
    if (!heading.empty()) out += "   " + heading + "\n";
    out += "   " + RenderHighlights(h.snippet, "**", "**") + "\n";
    out += "   chunk_id " + h.chunk.chunk.chunk_id + "  doc_id " + h.chunk.chunk.doc_id + "\n";
  }
  out += Plural(r.hits.size(), "hit", "hits") + "  " + std::string(SearchModeName(r.mode));
  if (r.next_cursor) out += "  more: cursor " + *r.next_cursor;
  if (r.hits.empty() && r.hint) out += "\nhint: " + *r.hint;
  return out;
}

std::string Answer(const rag::Answer& a) {
  std::string out = a.answer + "\n\n";
  for (const rag::AnswerCitation& c : a.citations) {
    out += (c.marker ? *c.marker + " " : "· ") + c.citation.ToUri() + "\n";
  }
  out += a.grounded ? "grounded ✓" : "grounded ✗";
  if (a.verification && a.verification->cited_claims > 0) {
    const rag::Verification& v = *a.verification;
    out += v.verified_claims() == 0
               ? "  ⚠ 0 of " + std::to_string(v.cited_claims) + " claims verified"
               : "  verified " + std::to_string(v.verified_claims()) + "/" +
                     std::to_string(v.cited_claims) + " claims";
  }
  if (a.refusal_reason)
    out += "  refused: " + std::string(rag::RefusalReasonName(*a.refusal_reason));
  out += "  " + a.model.id + "  trace " + a.retrieval.trace_id;
  return out;
}

std::string FetchHeader(const FetchResult& r) {
  if (r.citation) return r.citation->ToUri();
  if (r.page_start) {
    return r.doc_path + " pp. " + std::to_string(*r.page_start) + "-" +
           std::to_string(r.effective_end.value_or(*r.page_end));
  }
  return r.doc_path;
}

std::string Fetch(const FetchResult& r) {
  std::string out = FetchHeader(r);
  if (!r.title.empty()) out += "  " + r.title;
  out += "\n\n";
  for (const store::StoredChunk& c : r.context_before) out += c.chunk.text + "\n\n";
  out += r.text;
  for (const store::StoredChunk& c : r.context_after) out += "\n\n" + c.chunk.text;
  if (r.truncated) out += "\n[truncated to max_tokens]";
  return out;
}

std::string DocList(const std::vector<store::DocSummary>& docs) {
  std::string out;
  for (const store::DocSummary& d : docs) {
    // A source file by its programming language, which says more than its prose's `und`.
    out += d.doc_path + "  " + d.title + "  [" + d.code_lang.value_or(d.lang) + ", " +
           Plural(static_cast<size_t>(d.chunk_count), "chunk", "chunks") + "]  doc_id " + d.doc_id +
           "\n";
  }
  return out + Plural(docs.size(), "document", "documents");
}

std::string Doctor(const DoctorReport& r) {
  std::string out;
  for (const DoctorCheck& c : r.checks) {
    out += std::string(c.ok ? "ok    " : "FAIL  ") + c.name + "  " + c.detail + "\n";
    if (!c.ok && !c.hint.empty()) out += "      hint: " + c.hint + "\n";
  }
  return out + (r.ok ? "healthy" : "unhealthy");
}

std::string Schema(const SchemaInfo& s) {
  std::string out = "kebab " + std::string(kKebabVersion) + "  corpus revision " +
                    std::to_string(s.corpus_revision) + "\n";
  out += Plural(static_cast<size_t>(s.stats.doc_count), "document", "documents") + ", " +
         Plural(static_cast<size_t>(s.stats.chunk_count), "chunk", "chunks") + "\n";
  out += "embedding " + s.embedding_version.value_or("none (lexical search only)") + "\n";
  out += "capabilities:";
  for (const auto& [name, on] : s.capabilities) {
    if (on) out += " " + name;
  }
  return out;
}

std::string Ingest(const IngestReport& r) {
  const IngestCounts& c = r.counts;
  std::string out = r.aborted ? "ingest stopped: " : "ingested " + r.root + ": ";
  out += std::to_string(c.new_docs) + " new, " + std::to_string(c.updated) + " updated, " +
         std::to_string(c.unchanged) + " unchanged, " + std::to_string(c.skipped) + " skipped, " +
         std::to_string(c.errors) + " errors, " + std::to_string(c.purged) + " removed; " +
         std::to_string(c.chunks_indexed) + " chunks indexed; corpus revision " +
         std::to_string(r.corpus_revision);
  for (const std::string& w : r.warnings) out += "\nwarning: " + w;
  return out;
}

}  // namespace kebab::app::render
