#include "config/schema.h"

#include <cctype>
#include <type_traits>

namespace kebab::config::internal {
namespace {

constexpr SectionSpec kSections[] = {
    {"workspace", "The folder of notes and documents that kebab ingests."},
    {"storage",
     "Where kebab keeps its data. Paths may use ~, $VAR, ${VAR:-fallback} and {data_dir}.\n"
     "kebab.sqlite is the source of truth: copying it moves the whole knowledge base."},
    {"ingest",
     "How files are found and read during `kebab ingest`.\n"
     "(The older section name [indexing] is accepted too.)"},
    {"ingest.code",
     "Which source-code files are indexed. Code files under a folder named in skip_dirs\n"
     "(vendored or built code) are skipped and counted as `vendored`; so are files over\n"
     "either cap, counted as `size_exceeded`. Other files in those folders are indexed."},
    {"ingest.audio",
     "Recordings (wav, flac, mp3, ogg/opus, m4a/aac, webm), decoded by FFmpeg and\n"
     "transcribed in kebab-audio worker processes by whisper.cpp (99 languages, once\n"
     "`kebab models pull whisper-base` has fetched a model) or else by pocketsphinx\n"
     "(English, no download); what was said\n"
     "is cited by time, talk.m4a#t=00:00:12.5,00:00:19.04. Transcripts are cached in kebab.sqlite "
     "by\n"
     "the recording's content and the model, so a recording is never transcribed twice,\n"
     "and an interrupted one goes on where it stopped."},
    {"ingest.pdf", "How PDFs are read (by the kebab-pdf worker, one process per file)."},
    {"ingest.ocr",
     "OCR of scanned PDF pages and images (Tesseract, in kebab-ocr worker processes).\n"
     "What OCR reads is cached in kebab.sqlite by the image's content and these settings,\n"
     "so a file is never read twice; changing languages or mode re-reads."},
    {"ingest.pdf.ocr", "Which PDF pages are read by OCR, and how they are rendered for it."},
    {"ingest.image.caption",
     "Captions of images by a vision model (Ollama or an OpenAI-compatible server):\n"
     "each image, made small, is sent to the model, and its caption becomes a block\n"
     "cited as photo.jpg#caption. Off by default: it sends your images to that server.\n"
     "Captions are cached in kebab.sqlite by the image's content, the model and these\n"
     "settings; changing the model captions again."},
    {"chunking",
     "How documents are split into chunks for search and answers.\n"
     "Changing these re-chunks the affected documents on the next ingest."},
    {"models.embedding",
     "The embedding model behind vector search. With provider = \"none\" search is lexical."},
    {"models.llm", "The language model that writes answers for `kebab ask`."},
    {"search", "Defaults for `kebab search`."},
    {"watch",
     "How `kebab serve` keeps the index current: it watches the workspace (inotify) and\n"
     "indexes what changed once a burst of changes is over. It never purges on a root\n"
     "that vanished (an unmounted disk): it waits for it to come back."},
    {"index",
     "The vector index: a cache under storage.cache_dir, rebuilt from kebab.sqlite when\n"
     "missing or stale (deleting it loses nothing)."},
    {"rag", "Answer generation for `kebab ask`."},
};

#define KEBAB_FIELD(member) [](Config& c) -> FieldRef { return &c.member; }

constexpr KeySpec kKeys[] = {
    {"workspace", "root", KEBAB_FIELD(workspace.root), true,
     "Root folder of the knowledge base (a path)."},
    {"workspace", "exclude", KEBAB_FIELD(workspace.exclude), false,
     "Extra gitignore-style patterns, relative to root, that are never ingested\n"
     "(in addition to .gitignore and .kebabignore files). A list of strings."},

    {"storage", "data_dir", KEBAB_FIELD(storage.data_dir), true,
     "Directory for the database, assets, artifacts, models and runs (a path)."},
    {"storage", "sqlite", KEBAB_FIELD(storage.sqlite), true, "The SQLite database file (a path)."},
    {"storage", "asset_dir", KEBAB_FIELD(storage.asset_dir), true,
     "Copies of ingested binary files (a path)."},
    {"storage", "artifact_dir", KEBAB_FIELD(storage.artifact_dir), true,
     "Per-document extraction artifacts such as OCR output and transcripts (a path)."},
    {"storage", "model_dir", KEBAB_FIELD(storage.model_dir), true,
     "Model files downloaded by `kebab models pull` (a path)."},
    {"storage", "runs_dir", KEBAB_FIELD(storage.runs_dir), true,
     "Evaluation run reports (a path)."},
    {"storage", "cache_dir", KEBAB_FIELD(storage.cache_dir), true,
     "Rebuildable caches such as the vector index; safe to delete (a path)."},
    {"storage", "state_dir", KEBAB_FIELD(storage.state_dir), true,
     "Logs and other run state (a path)."},
    {"storage", "copy_threshold_mb", KEBAB_FIELD(storage.copy_threshold_mb), false,
     "Binary files larger than this many MiB are referenced in place instead of\n"
     "being copied into asset_dir. An integer >= 0."},

    {"ingest", "max_parallel_extractors", KEBAB_FIELD(ingest.max_parallel_extractors), false,
     "Files read and parsed in parallel; 0 = one per CPU core. An integer 0..256."},
    {"ingest", "max_file_bytes", KEBAB_FIELD(ingest.max_file_bytes), false,
     "Files larger than this many bytes are skipped (reported as size_exceeded).\n"
     "An integer >= 1024."},
    {"ingest", "skip_generated", KEBAB_FIELD(ingest.skip_generated), false,
     "Skip files whose first lines mark them as generated (\"@generated\",\n"
     "\"do not edit\", ...). true or false."},
    {"ingest", "follow_symlinks", KEBAB_FIELD(ingest.follow_symlinks), false,
     "Follow symbolic links inside the workspace (loops are detected). true or false."},
    {"ingest", "max_purge_share", KEBAB_FIELD(ingest.max_purge_share), false,
     "When one ingest would purge more than this share of the indexed documents (and more\n"
     "than 10), their files are probably on a drive that is not mounted or in a folder\n"
     "that moved: nothing is purged and `kebab ingest --purge` confirms. 0.0..1.0;\n"
     "1.0 never asks."},
    {"ingest.code", "skip_dirs", KEBAB_FIELD(ingest.code_skip_dirs), false,
     "Source code inside directories of these names, at any depth, is skipped\n"
     "(reported as vendored); notes and documents there are still indexed.\n"
     "Folder names, not paths, e.g. [\"vendor\", \"dist\", \"build\"]; [] skips none."},
    {"ingest.code", "max_file_bytes", KEBAB_FIELD(ingest.code_max_file_bytes), false,
     "Source files larger than this many bytes are skipped (size_exceeded).\n"
     "An integer >= 1024."},
    {"ingest.code", "max_file_lines", KEBAB_FIELD(ingest.code_max_file_lines), false,
     "Source files with more lines than this are skipped (size_exceeded).\n"
     "An integer >= 10."},
    {"ingest.audio", "enabled", KEBAB_FIELD(ingest.audio_enabled), false,
     "Transcribe recordings. false indexes only their names. true or false."},
    {"ingest.audio", "max_file_bytes", KEBAB_FIELD(ingest.audio_max_file_bytes), false,
     "Recordings larger than this many bytes are skipped (size_exceeded); it replaces\n"
     "[ingest] max_file_bytes for them. A recording is held in memory compressed while it\n"
     "is transcribed. An integer >= 1048576."},
    {"ingest.audio", "engine", KEBAB_FIELD(ingest.audio_engine), false,
     "Which recognizer transcribes: \"auto\" (whisper when its model is there, else\n"
     "pocketsphinx), \"whisper\" (an error names the missing model) or \"pocketsphinx\"."},
    {"ingest.audio", "whisper_model", KEBAB_FIELD(ingest.audio_whisper_model), false,
     "whisper.cpp's model: a NAME pulled by `kebab models pull` ({model_dir}/NAME.bin:\n"
     "whisper-base, whisper-small, whisper-large-v3-turbo) or a path to a ggml .bin file."},
    {"ingest.audio", "language", KEBAB_FIELD(ingest.audio_language), false,
     "The language spoken, for whisper: \"auto\" detects it per stretch of speech; a code\n"
     "such as \"en\" or \"ko\" skips detection and avoids a wrong guess on short clips."},
    {"ingest.audio", "threads", KEBAB_FIELD(ingest.audio_threads), false,
     "CPU threads of each whisper worker; 0 = up to 4, as whisper-cli. An integer >= 0."},
    {"ingest.audio", "pocketsphinx_model", KEBAB_FIELD(ingest.audio_pocketsphinx_model), false,
     "pocketsphinx's model folder (holding en-us/, en-us.lm.bin and\n"
     "cmudict-en-us.dict); Debian's pocketsphinx-en-us installs the default."},
    {"ingest.pdf", "max_seconds_per_file", KEBAB_FIELD(ingest.pdf_max_seconds_per_file), false,
     "A PDF whose text takes longer than this is stopped and reported as an error,\n"
     "so a hostile file cannot stall the ingest. An integer 1..3600."},
    {"ingest.ocr", "enabled", KEBAB_FIELD(ingest.ocr_enabled), false,
     "Read scanned PDF pages and the text in images. true or false."},
    {"ingest.ocr", "languages", KEBAB_FIELD(ingest.ocr_languages), false,
     "Tesseract languages to read with, first the likeliest (its order matters:\n"
     "Korean read far worse behind eng), e.g. [\"kor\", \"eng\"] (Debian packages\n"
     "tesseract-ocr-eng, tesseract-ocr-kor; `kebab doctor` lists what is installed)."},
    {"ingest.ocr", "page_segmentation_mode", KEBAB_FIELD(ingest.ocr_page_segmentation_mode), false,
     "How Tesseract finds the text on a page: \"auto\" chooses for each page, 6\n"
     "(one uniform block of text) for one column of Korean, 3 (find columns and\n"
     "blocks) otherwise; or one --psm for every page, an integer 0..13."},
    {"ingest.ocr", "max_pixels", KEBAB_FIELD(ingest.ocr_max_pixels), false,
     "Images larger than this many pixels are read scaled down to it; more than\n"
     "four times larger (and not JPEG) are not read. An integer >= 1000000."},
    {"ingest.ocr", "max_seconds_per_page", KEBAB_FIELD(ingest.ocr_max_seconds_per_page), false,
     "A page or image that takes longer is stopped and reported. An integer 1..3600."},
    {"ingest.ocr", "low_confidence", KEBAB_FIELD(ingest.ocr_low_confidence), false,
     "Pages whose mean OCR confidence is below this are named in the warnings.\n"
     "A number 0..100."},
    {"ingest.ocr", "workers", KEBAB_FIELD(ingest.ocr_workers), false,
     "OCR processes reading pages at once; 0 = one per CPU core. An integer 0..256."},
    {"ingest.pdf.ocr", "dpi", KEBAB_FIELD(ingest.pdf_ocr_dpi), false,
     "Resolution a scanned page is rendered at for OCR; region citations of PDF\n"
     "pages are in pixels at this resolution. An integer 72..1200."},
    {"ingest.pdf.ocr", "always", KEBAB_FIELD(ingest.pdf_ocr_always), false,
     "OCR every page, not only those without a usable text layer. true or false."},
    {"ingest.image.caption", "enabled", KEBAB_FIELD(ingest.caption_enabled), false,
     "Caption every image with the model below. true or false."},
    {"ingest.image.caption", "provider", KEBAB_FIELD(ingest.caption_provider), false,
     "\"ollama\" (POST /api/chat with images) or \"openai\" (an OpenAI-compatible\n"
     "server's /v1/chat/completions with image_url content; OPENAI_API_KEY is sent)."},
    {"ingest.image.caption", "model", KEBAB_FIELD(ingest.caption_model), false,
     "A vision model the server has, e.g. \"qwen2.5vl:7b\" or \"llava:7b\" for Ollama."},
    {"ingest.image.caption", "endpoint", KEBAB_FIELD(ingest.caption_endpoint), false,
     "The model server's base URL, e.g. http://127.0.0.1:11434 (Ollama) or\n"
     "http://127.0.0.1:8080/v1 (llama-server)."},
    {"ingest.image.caption", "long_edge", KEBAB_FIELD(ingest.caption_long_edge), false,
     "The image is sent scaled down to this many pixels on its longer side\n"
     "(upright, JPEG). An integer 128..1536."},
    {"ingest.image.caption", "max_tokens", KEBAB_FIELD(ingest.caption_max_tokens), false,
     "The longest caption, in tokens. An integer 16..1024."},
    {"ingest.image.caption", "request_timeout_secs",
     KEBAB_FIELD(ingest.caption_request_timeout_secs), false,
     "The longest the server may stay silent on one image. An integer 1..3600."},

    {"chunking", "target_tokens", KEBAB_FIELD(chunking.target_tokens), false,
     "Size a chunk grows to before a new one starts, in tokens. An integer >= 16."},
    {"chunking", "overlap_tokens", KEBAB_FIELD(chunking.overlap_tokens), false,
     "Tokens repeated at the start of the next chunk. An integer >= 0 and smaller\n"
     "than target_tokens."},
    {"chunking", "max_chunk_tokens", KEBAB_FIELD(chunking.max_chunk_tokens), false,
     "Hard upper bound for one chunk (e.g. a long code block or table).\n"
     "An integer >= target_tokens."},
    {"chunking", "respect_markdown_headings", KEBAB_FIELD(chunking.respect_markdown_headings),
     false, "Start a new chunk at every Markdown heading. true or false."},
    {"chunking", "chunker_version", KEBAB_FIELD(chunking.chunker_version), false,
     "Chunking policy stamped on every chunk. Only \"md-heading-v2\"."},

    {"models.embedding", "provider", KEBAB_FIELD(embedding.provider), false,
     "\"none\" (lexical search only), \"llama\" (a GGUF model run in-process),\n"
     "\"ollama\" (an Ollama server) or \"openai\" (any OpenAI-compatible server)."},
    {"models.embedding", "model", KEBAB_FIELD(embedding.model), false,
     "For llama: a model name known to `kebab models` or a GGUF file path;\n"
     "for ollama/openai: the server's model name. Empty with provider = \"none\"."},
    {"models.embedding", "version", KEBAB_FIELD(embedding.version), false,
     "Label of this embedding space; changing it re-embeds every chunk. A string."},
    {"models.embedding", "dimensions", KEBAB_FIELD(embedding.dimensions), false,
     "Vector dimensions; 0 = take them from the model. An integer >= 0."},
    {"models.embedding", "batch_size", KEBAB_FIELD(embedding.batch_size), false,
     "Texts embedded per request. An integer >= 1."},
    {"models.embedding", "endpoint", KEBAB_FIELD(embedding.endpoint), false,
     "Server URL for ollama/openai; empty = use models.llm.endpoint."},
    {"models.embedding", "threads", KEBAB_FIELD(embedding.threads), false,
     "CPU threads for the llama provider; 0 = all cores. An integer >= 0."},
    {"models.embedding", "query_prefix", KEBAB_FIELD(embedding.query_prefix), false,
     "Text put before every search query; \"auto\" = the model family's\n"
     "(e5: \"query: \", nomic-embed: \"search_query: \", others none)."},
    {"models.embedding", "document_prefix", KEBAB_FIELD(embedding.document_prefix), false,
     "Text put before every indexed chunk; \"auto\" = the model family's\n"
     "(e5: \"passage: \", nomic-embed: \"search_document: \", others none)."},
    {"models.embedding", "request_timeout_secs", KEBAB_FIELD(embedding.request_timeout_secs), false,
     "Seconds to wait for an ollama/openai embedding response. An integer >= 1."},

    {"models.llm", "provider", KEBAB_FIELD(llm.provider), false,
     "\"none\" (answers disabled), \"llama\" (a GGUF model run in-process),\n"
     "\"ollama\" (an Ollama server) or \"openai\" (any OpenAI-compatible server)."},
    {"models.llm", "model", KEBAB_FIELD(llm.model), false,
     "For llama: a model name known to `kebab models` or a GGUF file path;\n"
     "for ollama/openai: the server's model name."},
    {"models.llm", "endpoint", KEBAB_FIELD(llm.endpoint), false,
     "Server URL for the ollama/openai providers."},
    {"models.llm", "context_tokens", KEBAB_FIELD(llm.context_tokens), false,
     "Context window of the model in tokens. An integer >= 1."},
    {"models.llm", "temperature", KEBAB_FIELD(llm.temperature), false,
     "Sampling temperature; 0.0 = deterministic. A number 0.0..2.0."},
    {"models.llm", "seed", KEBAB_FIELD(llm.seed), false,
     "Sampling seed, for reproducible answers. An integer."},
    {"models.llm", "top_p", KEBAB_FIELD(llm.top_p), false,
     "Nucleus sampling: draw only from the likeliest tokens whose probabilities add\n"
     "up to this; 1.0 = off. A number 0.0..1.0 (used when temperature > 0)."},
    {"models.llm", "max_tokens", KEBAB_FIELD(llm.max_tokens), false,
     "Longest answer in tokens; 0 = whatever the context window leaves. An integer >= 0."},
    {"models.llm", "threads", KEBAB_FIELD(llm.threads), false,
     "CPU threads for the llama provider; 0 = all cores. An integer >= 0."},
    {"models.llm", "request_timeout_secs", KEBAB_FIELD(llm.request_timeout_secs), false,
     "Seconds a server may stay silent (before its first token or between tokens)\n"
     "before kebab gives up with a timeout. An integer >= 1."},

    {"search", "default_k", KEBAB_FIELD(search.default_k), false,
     "Results returned when --k is not given. An integer 1..1000."},
    {"search", "hybrid_fusion", KEBAB_FIELD(search.hybrid_fusion), false,
     "How lexical and vector rankings are merged. Only \"rrf\" (reciprocal rank fusion)."},
    {"search", "rrf_k", KEBAB_FIELD(search.rrf_k), false,
     "The k in RRF's 1/(k + rank); larger values flatten rank differences.\n"
     "An integer >= 1."},
    {"search", "snippet_chars", KEBAB_FIELD(search.snippet_chars), false,
     "Length of result snippets in characters. An integer 20..4000."},
    {"search", "stemmer", KEBAB_FIELD(search.stemmer), false,
     "Snowball stemmer for Latin-script words: \"none\" or an algorithm name such as\n"
     "\"english\", \"french\", \"german\", \"spanish\" or \"porter\". Changing it requires\n"
     "re-indexing."},

    {"watch", "enabled", KEBAB_FIELD(watch.enabled), false,
     "Whether `kebab serve` watches the workspace for changes. true or false."},
    {"watch", "debounce_ms", KEBAB_FIELD(watch.debounce_ms), false,
     "Milliseconds of quiet after a change before it is indexed; a burst of changes\n"
     "(a git checkout, an editor's save) is one update. An integer 0..60000."},
    {"watch", "scan_interval", KEBAB_FIELD(watch.scan_interval), false,
     "Seconds between catch-up scans of the whole workspace; 0 = none while change\n"
     "notifications work (60 when they cannot). An integer 0..86400."},
    {"watch", "ignore", KEBAB_FIELD(watch.ignore), false,
     "gitignore-style patterns of changes the watch never indexes (editors' temp, swap\n"
     "and lock files are never indexed anyway). A list of strings."},

    {"index", "exact_max", KEBAB_FIELD(index.exact_max), false,
     "Up to this many vectors search scans them all (exact); above it uses an HNSW\n"
     "graph (approximate, much faster). An integer >= 0."},
    {"index", "scalar", KEBAB_FIELD(index.scalar), false,
     "How the index stores vectors: \"f16\" (default), \"f32\" or \"i8\". Hits are\n"
     "always re-scored with the exact float32 vectors kept in kebab.sqlite. From about a\n"
     "million vectors, \"i8\" with expansion_add = 96 and expansion_search = 128 builds\n"
     "in a third less time, recall@10 still >= 0.95 (README, \"Vector index\")."},
    {"index", "connectivity", KEBAB_FIELD(index.connectivity), false,
     "HNSW: edges per node; more = better recall, bigger index. An integer 4..64."},
    {"index", "expansion_add", KEBAB_FIELD(index.expansion_add), false,
     "HNSW: candidates considered while building; more = better graph, slower build.\n"
     "An integer 16..1024."},
    {"index", "expansion_search", KEBAB_FIELD(index.expansion_search), false,
     "HNSW: candidates considered per query; more = better recall, slower search.\n"
     "An integer 16..4096."},

    {"rag", "prompt_template_version", KEBAB_FIELD(rag.prompt_template_version), false,
     "Prompt template used to build answers; recorded with every answer. A string."},
    {"rag", "score_gate", KEBAB_FIELD(rag.score_gate), false,
     "kebab declines to answer when the best retrieved chunk scores below this\n"
     "(scores are normalized to 0..1). A number 0.0..1.0."},
    {"rag", "max_context_tokens", KEBAB_FIELD(rag.max_context_tokens), false,
     "Token budget for retrieved passages in the prompt. An integer >= 1."},
    {"rag", "verify", KEBAB_FIELD(rag.verify), false,
     "Every sentence of an answer that cites [n] is checked against chunk n: its\n"
     "numbers, dates and quotes must appear there and its words must overlap it.\n"
     "\"auto\" (default) refuses an answer none of whose cited claims checks out and\n"
     "flags the unsupported ones of an answer that is partly supported; \"warn\" only\n"
     "flags, never refuses; \"refuse\" refuses when any cited claim fails; \"off\" skips\n"
     "the check. A refusal exits 1."},
    {"rag", "verify_min_overlap", KEBAB_FIELD(rag.verify_min_overlap), false,
     "Share of a claim's content words that must appear in the chunk it cites.\n"
     "A number 0.0..1.0."},
    {"rag", "verify_semantic_threshold", KEBAB_FIELD(rag.verify_semantic_threshold), false,
     "A claim that fails only the word overlap (a paraphrase) passes when the embedding\n"
     "model finds it this similar (cosine) to a sentence, or two in a row, of the chunk\n"
     "it cites; numbers, names, quotes and negation must still hold. Needs\n"
     "[models.embedding]. 0 (default) turns it off: it is not yet calibrated with real\n"
     "weights; 0.80..0.90 suits most sentence-embedding models. A number 0.0..1.0."},
    {"rag", "max_hops", KEBAB_FIELD(rag.max_hops), false,
     "--multi-hop: retrieval rounds after the question is decomposed. An integer 1..10."},
    {"rag", "max_sub_queries", KEBAB_FIELD(rag.max_sub_queries), false,
     "--multi-hop: sub-questions searched per round. An integer 1..10."},
    {"rag", "max_pool_chunks", KEBAB_FIELD(rag.max_pool_chunks), false,
     "--multi-hop: chunks gathered across all rounds for the final answer.\n"
     "An integer 1..100."},
};

#undef KEBAB_FIELD

template <typename T>
std::string JoinNames(std::span<const T> items, std::string_view section) {
  std::string out;
  for (const T& item : items) {
    if constexpr (std::is_same_v<T, KeySpec>) {
      if (item.section != section) continue;
    }
    if (!out.empty()) out += ", ";
    out += item.name;
  }
  return out;
}

}  // namespace

std::span<const SectionSpec> Sections() {
  return kSections;
}
std::span<const KeySpec> Keys() {
  return kKeys;
}

const KeySpec* FindKey(std::string_view section, std::string_view name) {
  for (const KeySpec& key : kKeys) {
    if (key.section == section && key.name == name) return &key;
  }
  return nullptr;
}

bool IsSection(std::string_view section) {
  for (const SectionSpec& s : kSections) {
    if (s.name == section) return true;
  }
  return false;
}

bool HoldsSections(std::string_view name) {
  for (const SectionSpec& s : kSections) {
    if (s.name.size() > name.size() && s.name.starts_with(name) && s.name[name.size()] == '.') {
      return true;
    }
  }
  return false;
}

std::string ValidKeysOf(std::string_view section) {
  return JoinNames(Keys(), section == kLegacyIngestSection ? "ingest" : section);
}

std::string ValidSections() {
  return JoinNames(Sections(), {});
}

std::string QualifiedName(const KeySpec& key) {
  std::string out(key.section);
  out += '.';
  out += key.name;
  return out;
}

std::string EnvVarName(std::string_view section, std::string_view name) {
  std::string out = "KEBAB_";
  auto append = [&out](std::string_view part) {
    for (char c : part) {
      out += c == '.' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  };
  append(section);
  out += '_';
  append(name);
  return out;
}

std::string_view ExpectedType(const FieldRef& field) {
  struct Visitor {
    std::string_view operator()(std::string*) const { return "a string"; }
    std::string_view operator()(std::vector<std::string>*) const { return "a list of strings"; }
    std::string_view operator()(int*) const { return "an integer"; }
    std::string_view operator()(long long*) const { return "an integer"; }
    std::string_view operator()(bool*) const { return "a boolean (true or false)"; }
    std::string_view operator()(double*) const { return "a number"; }
    std::string_view operator()(OcrPageSegmentation*) const {
      return "\"auto\" or an integer (a Tesseract --psm)";
    }
  };
  return std::visit(Visitor{}, field);
}

Config RawDefaultConfig() {
  Config c;
  c.workspace.root = "~/KnowledgeBase";
  c.workspace.exclude = {".git/**", ".obsidian/**"};
  c.storage.data_dir = "${XDG_DATA_HOME:-~/.local/share}/kebab";
  c.storage.sqlite = "{data_dir}/kebab.sqlite";
  c.storage.asset_dir = "{data_dir}/assets";
  c.storage.artifact_dir = "{data_dir}/artifacts";
  c.storage.model_dir = "{data_dir}/models";
  c.storage.runs_dir = "{data_dir}/runs";
  c.storage.cache_dir = "${XDG_CACHE_HOME:-~/.cache}/kebab";
  c.storage.state_dir = "${XDG_STATE_HOME:-~/.local/state}/kebab";
  return c;
}

}  // namespace kebab::config::internal
