// Validate: value ranges and relations between keys. Every problem is reported at once, each
// naming the key, the bad value and what is allowed, so one edit fixes the whole file.
#include <libstemmer.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <sstream>
#include <string_view>
#include <vector>

#include "config/config.h"

namespace kebab::config {
namespace {

constexpr std::string_view kProviders[] = {"none", "llama", "ollama", "openai"};
constexpr std::string_view kChunkerVersions[] = {"md-heading-v2"};
constexpr std::string_view kFusions[] = {"rrf"};
constexpr std::string_view kIndexScalars[] = {"f16", "f32", "i8"};
constexpr std::string_view kVerifyModes[] = {"auto", "warn", "refuse", "off"};

std::string Quoted(std::string_view s) {
  return "\"" + std::string(s) + "\"";
}

std::string FormatNumber(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

class Problems {
 public:
  void Add(std::string message) { problems_.push_back(std::move(message)); }

  void Range(std::string_view key, long long value, long long lo, long long hi) {
    if (value < lo || value > hi) {
      Add(std::string(key) + " = " + std::to_string(value) + " must be between " +
          std::to_string(lo) + " and " + std::to_string(hi));
    }
  }

  void AtLeast(std::string_view key, long long value, long long lo) {
    if (value < lo) {
      Add(std::string(key) + " = " + std::to_string(value) + " must be at least " +
          std::to_string(lo));
    }
  }

  void RangeReal(std::string_view key, double value, double lo, double hi) {
    if (!(value >= lo && value <= hi)) {
      Add(std::string(key) + " = " + FormatNumber(value) + " must be between " + FormatNumber(lo) +
          " and " + FormatNumber(hi));
    }
  }

  void OneOf(std::string_view key, std::string_view value,
             std::span<const std::string_view> allowed) {
    std::string list;
    for (std::string_view a : allowed) {
      if (a == value) return;
      if (!list.empty()) list += ", ";
      list += a;
    }
    Add(std::string(key) + " = " + Quoted(value) + " must be one of: " + list);
  }

  Status ToStatus(const Config& config) const {
    if (problems_.empty()) return Status::OK();
    std::string message = problems_.size() == 1
                              ? "invalid configuration: "
                              : std::to_string(problems_.size()) + " configuration problems: ";
    for (size_t i = 0; i < problems_.size(); ++i) {
      if (i > 0) message += "; ";
      message += problems_[i];
    }
    std::string hint = "fix the value";
    if (!config.config_path.empty()) hint += " in " + config.config_path;
    hint += " or the KEBAB_<SECTION>_<KEY> environment variable that overrides it";
    return ConfigInvalid(std::move(message), std::move(hint));
  }

 private:
  std::vector<std::string> problems_;
};

void CheckStemmer(std::string_view stemmer, Problems* problems) {
  if (stemmer == "none") return;
  std::string names = "none";
  for (const char** name = sb_stemmer_list(); *name != nullptr; ++name) {
    if (stemmer == *name) return;
    names += ", ";
    names += *name;
  }
  problems->Add("search.stemmer = " + Quoted(stemmer) + " must be one of: " + names);
}

}  // namespace

Status Validate(const Config& config) {
  Problems p;
  if (config.schema_version != 1) {
    p.Add("schema_version = " + std::to_string(config.schema_version) +
          " is not supported; this kebab reads schema_version 1");
  }
  if (config.workspace.root.empty()) p.Add("workspace.root must not be empty");

  p.AtLeast("storage.copy_threshold_mb", config.storage.copy_threshold_mb, 0);

  p.Range("ingest.max_parallel_extractors", config.ingest.max_parallel_extractors, 0, 256);
  p.AtLeast("ingest.max_file_bytes", config.ingest.max_file_bytes, 1024);
  p.RangeReal("ingest.max_purge_share", config.ingest.max_purge_share, 0.0, 1.0);
  p.AtLeast("ingest.audio.max_file_bytes", config.ingest.audio_max_file_bytes, 1024 * 1024);
  static constexpr std::string_view kEngines[] = {"auto", "whisper", "pocketsphinx"};
  p.OneOf("ingest.audio.engine", config.ingest.audio_engine, kEngines);
  p.Range("ingest.audio.threads", config.ingest.audio_threads, 0, 256);
  {
    // whisper's codes are two or three lowercase letters ("en", "ko", "haw").
    const std::string& lang = config.ingest.audio_language;
    const bool code =
        lang.size() >= 2 && lang.size() <= 3 &&
        std::all_of(lang.begin(), lang.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    if (lang != "auto" && !code) {
      p.Add("ingest.audio.language = " + Quoted(lang) +
            " must be \"auto\" or a language code such as \"en\" or \"ko\"");
    }
  }
  p.Range("ingest.pdf.max_seconds_per_file", config.ingest.pdf_max_seconds_per_file, 1, 3600);
  p.AtLeast("ingest.code.max_file_bytes", config.ingest.code_max_file_bytes, 1024);
  p.AtLeast("ingest.code.max_file_lines", config.ingest.code_max_file_lines, 10);
  for (const std::string& dir : config.ingest.code_skip_dirs) {
    if (dir.empty() || dir == "." || dir == ".." || dir.find('/') != std::string::npos) {
      p.Add("ingest.code.skip_dirs: '" + dir +
            "' is not a folder name (give names such as \"vendor\", not paths)");
    }
  }
  if (const OcrPageSegmentation& psm = config.ingest.ocr_page_segmentation_mode;
      psm.kind == OcrPageSegmentation::Kind::kFixed && (psm.psm < 0 || psm.psm > 13)) {
    p.Add("ingest.ocr.page_segmentation_mode = " + std::to_string(psm.psm) +
          " must be \"auto\" or between 0 and 13");
  }
  p.AtLeast("ingest.ocr.max_pixels", config.ingest.ocr_max_pixels, 1'000'000);
  p.Range("ingest.ocr.max_seconds_per_page", config.ingest.ocr_max_seconds_per_page, 1, 3600);
  p.Range("ingest.ocr.workers", config.ingest.ocr_workers, 0, 256);
  p.Range("ingest.pdf.ocr.dpi", config.ingest.pdf_ocr_dpi, 72, 1200);
  p.RangeReal("ingest.ocr.low_confidence", config.ingest.ocr_low_confidence, 0, 100);
  if (config.ingest.ocr_enabled && config.ingest.ocr_languages.empty()) {
    p.Add("ingest.ocr.languages must name at least one language while OCR is enabled");
  }
  const IngestConfig& in = config.ingest;
  p.Range("ingest.image.caption.long_edge", in.caption_long_edge, 128, 1536);
  p.Range("ingest.image.caption.max_tokens", in.caption_max_tokens, 16, 1024);
  p.Range("ingest.image.caption.request_timeout_secs", in.caption_request_timeout_secs, 1, 3600);
  if (in.caption_provider != "ollama" && in.caption_provider != "openai") {
    p.Add("ingest.image.caption.provider = \"" + in.caption_provider +
          "\" is not supported (ollama or openai)");
  }
  if (in.caption_enabled && in.caption_model.empty()) {
    p.Add("ingest.image.caption.model must name a vision model while captions are enabled");
  }
  if (in.caption_enabled && in.caption_endpoint.empty()) {
    p.Add("ingest.image.caption.endpoint must not be empty while captions are enabled");
  }
  for (const std::string& lang : config.ingest.ocr_languages) {
    const bool plain =
        !lang.empty() && lang.find_first_not_of(
                             "abcdefghijklmnopqrstuvwxyz"
                             "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == std::string::npos;
    if (!plain) p.Add("ingest.ocr.languages: '" + lang + "' is not a Tesseract language name");
  }

  const ChunkingConfig& c = config.chunking;
  p.AtLeast("chunking.target_tokens", c.target_tokens, 16);
  if (c.overlap_tokens < 0) {
    p.Add("chunking.overlap_tokens = " + std::to_string(c.overlap_tokens) + " must be at least 0");
  } else if (c.overlap_tokens >= c.target_tokens) {
    p.Add("chunking.overlap_tokens = " + std::to_string(c.overlap_tokens) +
          " must be smaller than chunking.target_tokens = " + std::to_string(c.target_tokens));
  }
  if (c.max_chunk_tokens < c.target_tokens) {
    p.Add("chunking.max_chunk_tokens = " + std::to_string(c.max_chunk_tokens) +
          " must be at least chunking.target_tokens = " + std::to_string(c.target_tokens));
  }
  p.OneOf("chunking.chunker_version", c.chunker_version, kChunkerVersions);

  p.OneOf("models.embedding.provider", config.embedding.provider, kProviders);
  p.AtLeast("models.embedding.dimensions", config.embedding.dimensions, 0);
  p.AtLeast("models.embedding.batch_size", config.embedding.batch_size, 1);
  p.AtLeast("models.embedding.threads", config.embedding.threads, 0);
  p.AtLeast("models.embedding.request_timeout_secs", config.embedding.request_timeout_secs, 1);

  p.OneOf("models.llm.provider", config.llm.provider, kProviders);
  p.AtLeast("models.llm.context_tokens", config.llm.context_tokens, 1);
  p.RangeReal("models.llm.temperature", config.llm.temperature, 0.0, 2.0);
  p.AtLeast("models.llm.request_timeout_secs", config.llm.request_timeout_secs, 1);
  p.RangeReal("models.llm.top_p", config.llm.top_p, 0.0, 1.0);
  p.AtLeast("models.llm.max_tokens", config.llm.max_tokens, 0);
  p.AtLeast("models.llm.threads", config.llm.threads, 0);

  p.Range("search.default_k", config.search.default_k, 1, 1000);
  p.OneOf("search.hybrid_fusion", config.search.hybrid_fusion, kFusions);
  p.AtLeast("search.rrf_k", config.search.rrf_k, 1);
  p.Range("search.snippet_chars", config.search.snippet_chars, 20, 4000);
  CheckStemmer(config.search.stemmer, &p);

  p.Range("watch.debounce_ms", config.watch.debounce_ms, 0, 60000);
  p.Range("watch.scan_interval", config.watch.scan_interval, 0, 86400);

  p.AtLeast("index.exact_max", config.index.exact_max, 0);
  p.OneOf("index.scalar", config.index.scalar, kIndexScalars);
  p.Range("index.connectivity", config.index.connectivity, 4, 64);
  p.Range("index.expansion_add", config.index.expansion_add, 16, 1024);
  p.Range("index.expansion_search", config.index.expansion_search, 16, 4096);

  p.RangeReal("rag.score_gate", config.rag.score_gate, 0.0, 1.0);
  p.AtLeast("rag.max_context_tokens", config.rag.max_context_tokens, 1);
  p.OneOf("rag.verify", config.rag.verify, kVerifyModes);
  p.RangeReal("rag.verify_min_overlap", config.rag.verify_min_overlap, 0.0, 1.0);
  p.RangeReal("rag.verify_semantic_threshold", config.rag.verify_semantic_threshold, 0.0, 1.0);
  if (config.rag.verify_semantic_threshold > 0 && config.embedding.provider == "none") {
    p.Add("rag.verify_semantic_threshold = " + FormatNumber(config.rag.verify_semantic_threshold) +
          " needs an embedding model: set [models.embedding], or set it to 0");
  }
  p.Range("rag.max_hops", config.rag.max_hops, 1, 10);
  p.Range("rag.max_sub_queries", config.rag.max_sub_queries, 1, 10);
  p.Range("rag.max_pool_chunks", config.rag.max_pool_chunks, 1, 100);

  return p.ToStatus(config);
}

}  // namespace kebab::config
