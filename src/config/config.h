// kebab's configuration (spec §6.4, adapted): the typed Config, how it is loaded
// (defaults → config.toml → KEBAB_* environment), XDG path resolution and validation.
// Every facade call takes an explicit Config; nothing reads configuration globally.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace kebab::config {

struct WorkspaceConfig {
  std::string root;                  // absolute, expanded
  std::vector<std::string> exclude;  // gitignore-style patterns relative to root

  bool operator==(const WorkspaceConfig&) const = default;
};

struct StorageConfig {
  std::string data_dir;  // absolute, expanded
  std::string sqlite;    // {data_dir}/kebab.sqlite
  std::string asset_dir;
  std::string artifact_dir;
  std::string model_dir;
  std::string runs_dir;
  std::string cache_dir;  // ${XDG_CACHE_HOME:-~/.cache}/kebab
  std::string state_dir;  // ${XDG_STATE_HOME:-~/.local/state}/kebab
  int copy_threshold_mb = 100;

  bool operator==(const StorageConfig&) const = default;
};

// [ingest.ocr] page_segmentation_mode: "auto", or one Tesseract page segmentation mode
// (--psm) for every page.
struct OcrPageSegmentation {
  enum class Kind { kAuto, kFixed };
  Kind kind = Kind::kAuto;  // kAuto: kebab-ocr chooses each page's mode by what it finds there
  int psm = 3;              // kFixed: the mode, 0..13

  bool operator==(const OcrPageSegmentation&) const = default;
};

struct IngestConfig {
  int max_parallel_extractors = 0;                // 0 = number of cores
  long long max_file_bytes = 20LL * 1024 * 1024;  // larger files are skipped (size_exceeded)
  bool skip_generated = true;  // skip files whose head says "@generated", "do not edit", ...
  bool follow_symlinks = true;
  // A walk that would purge more than this share of the root's documents at once purges
  // nothing until `kebab ingest --purge`: an unmounted drive or a moved folder looks like a
  // mass deletion, and purging takes hours of OCR and transcription with it.
  double max_purge_share = 0.5;
  int pdf_max_seconds_per_file = 60;  // [ingest.pdf] max_seconds_per_file: worker budget

  // [ingest.code]: source files beyond these are machine-made more often than not
  // (amalgamations, generated tables, vendored trees), and would crowd out what people wrote.
  std::vector<std::string> code_skip_dirs = {"vendor", "dist", "build"};
  long long code_max_file_bytes = 1024 * 1024;
  long long code_max_file_lines = 20000;

  // [ingest.audio]: recordings transcribed in the kebab-audio worker (FFmpeg; whisper.cpp when
  // a whisper model is there, else pocketsphinx).
  bool audio_enabled = true;
  std::string audio_engine = "auto";  // auto | whisper | pocketsphinx
  // A model NAME ({model_dir}/NAME.bin, `kebab models pull whisper-base`) or a .bin path.
  std::string audio_whisper_model = "whisper-base";
  std::string audio_language = "auto";  // whisper: "auto" or a code (en, ko, ...)
  int audio_threads = 0;                // whisper: 0 = min(4, cores)
  // Recordings run long: an hour of speech is 30-100 MB compressed, past max_file_bytes.
  long long audio_max_file_bytes = 1024LL * 1024 * 1024;
  std::string audio_pocketsphinx_model = "/usr/share/pocketsphinx/model/en-us";

  // [ingest.ocr]: Tesseract, for scanned PDF pages and images.
  bool ocr_enabled = true;
  // kor first: with eng first, Tesseract read the Korean scans at CER 0.32 against 0.11, and
  // English the same either way (bench/ocr_bench.py).
  std::vector<std::string> ocr_languages = {"kor", "eng"};
  OcrPageSegmentation ocr_page_segmentation_mode;
  long long ocr_max_pixels = 40'000'000;  // larger images are read scaled down
  int ocr_max_seconds_per_page = 120;
  double ocr_low_confidence = 60;  // pages below this mean confidence are warned about
  int ocr_workers = 0;             // OCR processes; 0 = one per core
  // [ingest.pdf.ocr]
  int pdf_ocr_dpi = 300;
  bool pdf_ocr_always = false;
  // [ingest.image.caption]: a vision model's caption of each image; off unless asked, as it
  // sends every image to a model server.
  bool caption_enabled = false;
  std::string caption_provider = "ollama";  // ollama | openai
  std::string caption_model;
  std::string caption_endpoint = "http://127.0.0.1:11434";
  int caption_long_edge = 768;  // pixels of the image's longer side the model is sent
  int caption_max_tokens = 96;
  int caption_request_timeout_secs = 120;

  bool operator==(const IngestConfig&) const = default;
};

struct ChunkingConfig {
  int target_tokens = 500;
  int overlap_tokens = 80;
  int max_chunk_tokens = 4000;
  bool respect_markdown_headings = true;
  std::string chunker_version = "md-heading-v2";

  bool operator==(const ChunkingConfig&) const = default;
};

struct EmbeddingConfig {
  std::string provider = "none";  // none | llama | ollama | openai
  std::string model;
  std::string version = "v1";
  int dimensions = 0;
  int batch_size = 64;
  std::string endpoint;
  int threads = 0;                       // llama: 0 = all cores
  std::string query_prefix = "auto";     // "auto" = the model family's (e5: "query: ")
  std::string document_prefix = "auto";  // "auto" = the model family's (e5: "passage: ")
  int request_timeout_secs = 60;         // ollama/openai

  bool operator==(const EmbeddingConfig&) const = default;
};

struct LlmConfig {
  std::string provider = "none";  // none | llama | ollama | openai
  std::string model;
  std::string endpoint = "http://127.0.0.1:11434";
  int context_tokens = 8192;
  double temperature = 0.0;
  long long seed = 0;
  double top_p = 1.0;     // nucleus sampling; 1.0 = off
  int max_tokens = 1024;  // longest answer; 0 = whatever the context leaves
  int threads = 0;        // llama: 0 = all cores
  int request_timeout_secs = 300;

  bool operator==(const LlmConfig&) const = default;
};

struct SearchConfig {
  int default_k = 10;
  std::string hybrid_fusion = "rrf";
  int rrf_k = 60;
  int snippet_chars = 220;
  std::string stemmer = "english";  // Snowball algorithm for Latin-script words, or "none"

  bool operator==(const SearchConfig&) const = default;
};

// [watch]: how `kebab serve` keeps the index current as files change.
struct WatchConfig {
  bool enabled = true;
  int debounce_ms = 200;  // quiet time after the last change of a burst before it is indexed
  // Seconds between catch-up scans of the whole workspace; 0 = none while the filesystem's
  // change notifications work (a scan a minute when they cannot: too many folders, another OS).
  int scan_interval = 0;
  std::vector<std::string> ignore;  // gitignore-style patterns the watch never indexes

  bool operator==(const WatchConfig&) const = default;
};

struct IndexConfig {
  long long exact_max = 20000;  // up to this many vectors: exact scan; above: HNSW
  std::string scalar = "f16";   // f16 | f32 | i8: how the cached index stores vectors
  int connectivity = 16;        // HNSW edges per node
  int expansion_add = 128;      // HNSW build-time beam width
  int expansion_search = 64;    // HNSW query-time beam width (raised to k when smaller)

  bool operator==(const IndexConfig&) const = default;
};

struct RagConfig {
  std::string prompt_template_version = "rag-v2";
  double score_gate = 0.30;
  int max_context_tokens = 8000;
  std::string verify = "auto";      // auto | warn | refuse | off: what an unsupported citation does
  double verify_min_overlap = 0.5;  // share of a claim's content words its chunk must hold
  // Cosine similarity at which a claim that fails the word overlap passes on meaning (needs
  // an embedding model); 0 = off, the default until calibrated with real weights.
  double verify_semantic_threshold = 0;
  int max_hops = 3;          // --multi-hop: retrieval rounds after decomposition
  int max_sub_queries = 4;   // --multi-hop: sub-queries per round
  int max_pool_chunks = 15;  // --multi-hop: chunks pooled across hops

  bool operator==(const RagConfig&) const = default;
};

struct Config {
  int schema_version = 1;
  std::string config_path;  // the file this was loaded from (may not exist)
  bool loaded_from_file = false;
  WorkspaceConfig workspace;
  StorageConfig storage;
  IngestConfig ingest;
  ChunkingConfig chunking;
  EmbeddingConfig embedding;
  LlmConfig llm;
  SearchConfig search;
  WatchConfig watch;
  IndexConfig index;
  RagConfig rag;

  bool operator==(const Config&) const = default;
};

// Environment used for expansion and overrides; tests pass their own.
using Environment = std::map<std::string, std::string>;
Environment ProcessEnvironment();

struct LoadOptions {
  // --config PATH. When set and missing → config_not_found. When empty, the XDG default
  // path is used and a missing file means built-in defaults.
  std::string explicit_path;
  Environment env;  // HOME, XDG_*, KEBAB_* are read from here
};

// Loads, expands and validates. Errors carry the file path and, for TOML syntax errors, the
// line and column.
Result<Config> LoadConfig(const LoadOptions& options);

// ${XDG_CONFIG_HOME:-~/.config}/kebab/config.toml for `env`.
std::string DefaultConfigPath(const Environment& env);

// Checks value ranges and relations (chunk budget floors, known providers, k > 0, ...).
Status Validate(const Config& config);

// The annotated config.toml written by `kebab init`: every section and key present with its
// default and a comment saying what it does.
std::string AnnotatedDefaultConfig();

// Every key with its effective value, nested by section ({"models": {"llm": {...}}}); the
// config snapshot eval runs record.
nlohmann::json ToJson(const Config& config);

// Expands "~", "$HOME", "${VAR}", "${VAR:-fallback}" and "{data_dir}" in `value`; a relative
// result is resolved against `base_dir`.
std::string ExpandPath(const std::string& value, const Environment& env,
                       const std::string& base_dir, const std::string& data_dir = "");

}  // namespace kebab::config
