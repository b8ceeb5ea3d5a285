#include "embed/llama_embedder.h"

#include <llama.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace kebab::embed {
namespace {

// llama.cpp reports through a global log callback. Its chatter stays out of kebab's output
// (KEBAB_LLAMA_LOG=1 shows all of it); the errors it logged since the last reset explain a
// failed load.
std::mutex log_mu;
std::string llama_errors;
bool llama_log_all = false;

void OnLlamaLog(ggml_log_level level, const char* text, void*) {
  if (llama_log_all) std::fputs(text, stderr);
  if (level != GGML_LOG_LEVEL_ERROR) return;
  std::lock_guard lock(log_mu);
  std::string line = text;
  while (!line.empty() && line.back() == '\n') line.pop_back();
  if (!llama_errors.empty()) llama_errors += "; ";
  llama_errors += line;
}

void InitLlamaOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* all = std::getenv("KEBAB_LLAMA_LOG");
    llama_log_all = all != nullptr && *all != '\0' && std::string_view(all) != "0";
    llama_log_set(OnLlamaLog, nullptr);
    llama_backend_init();
  });
}

// The errors llama.cpp logged since the previous call.
std::string TakeLlamaErrors() {
  std::lock_guard lock(log_mu);
  return std::exchange(llama_errors, std::string());
}

std::string ModelMeta(const llama_model* model, const char* key) {
  char buf[256];
  const int n = llama_model_meta_val_str(model, key, buf, sizeof(buf));
  return n < 0 ? std::string() : std::string(buf, std::min<size_t>(n, sizeof(buf) - 1));
}

// Sequences per llama_decode call: enough to fill a batch of short chunks.
constexpr int kMaxSeqs = 64;
// Batches of at most this many tokens (a search query) compute on one thread; see RunBatch.
constexpr int kOneThreadUpToTokens = 64;

}  // namespace

Result<std::unique_ptr<LlamaEmbedder>> LlamaEmbedder::Open(const LlamaEmbedderOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(options.model_path, ec)) {
    return Status(ErrorCode::kModelNotPulled,
                  "embedding model file not found: " + options.model_path,
                  "check models.embedding.model; `kebab models list` shows the models kebab can "
                  "download, `kebab models pull NAME` fetches one");
  }
  InitLlamaOnce();
  TakeLlamaErrors();
  std::unique_ptr<LlamaEmbedder> e(new LlamaEmbedder());
  llama_model_params mp = llama_model_default_params();
  mp.load_mode = LLAMA_LOAD_MODE_MMAP;
  e->model_ = llama_model_load_from_file(options.model_path.c_str(), mp);
  if (e->model_ == nullptr) {
    return Status(ErrorCode::kInvalidInput,
                  "cannot load GGUF model " + options.model_path + ": " + TakeLlamaErrors(),
                  "check that the file is a complete GGUF embedding model");
  }
  const int n_ctx_train = llama_model_n_ctx_train(e->model_);
  e->max_tokens_ = std::max(8, n_ctx_train);
  // A batch holds one context's worth of tokens: attention over a batch is computed for every
  // pair of its tokens and masked per sequence, so larger batches cost quadratically more.
  e->batch_tokens_ = e->max_tokens_;
  e->max_seqs_ = static_cast<int>(std::min<size_t>(kMaxSeqs, llama_max_parallel_sequences()));

  llama_context_params cp = llama_context_default_params();
  cp.embeddings = true;
  cp.n_ctx = static_cast<uint32_t>(e->batch_tokens_);
  cp.n_batch = cp.n_ubatch = static_cast<uint32_t>(e->batch_tokens_);
  cp.n_seq_max = static_cast<uint32_t>(e->max_seqs_);
  cp.kv_unified = true;
  const int threads = options.threads > 0
                          ? options.threads
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  cp.n_threads = cp.n_threads_batch = threads;
  e->threads_ = e->threads_in_use_ = threads;
  e->ctx_ = llama_init_from_model(e->model_, cp);
  if (e->ctx_ == nullptr) {
    return Status(ErrorCode::kInvalidInput, "cannot create an embedding context for " +
                                                options.model_path + ": " + TakeLlamaErrors());
  }
  if (llama_pooling_type(e->ctx_) == LLAMA_POOLING_TYPE_NONE) {
    return Status(ErrorCode::kInvalidInput,
                  options.model_path + " produces token embeddings only (pooling none)",
                  "use a sentence-embedding GGUF (mean or CLS pooling)");
  }

  std::string name = ModelMeta(e->model_, "general.name");
  const std::string stem = std::filesystem::path(options.model_path).stem().string();
  e->space_.provider = "llama";
  e->space_.model = stem;
  e->space_.version = options.version;
  e->space_.dimensions = llama_model_n_embd_out(e->model_);
  Prefixes family = DefaultPrefixes(stem);
  if (family.query.empty() && family.document.empty()) family = DefaultPrefixes(name);
  e->prefixes_.query = options.query_prefix.value_or(family.query);
  e->prefixes_.document = options.document_prefix.value_or(family.document);
  e->space_.document_prefix = e->prefixes_.document;
  return e;
}

void LlamaEmbedder::LimitThreads(int threads) {
  threads_in_use_ = threads > 0 ? std::min(threads, threads_) : threads_;
}

LlamaEmbedder::~LlamaEmbedder() {
  if (ctx_ != nullptr) llama_free(ctx_);
  if (model_ != nullptr) llama_model_free(model_);
}

std::vector<int32_t> LlamaEmbedder::Tokenize(std::string_view text) const {
  const llama_vocab* vocab = llama_model_get_vocab(model_);
  std::vector<int32_t> tokens(text.size() + 8);
  int n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), tokens.data(),
                         static_cast<int32_t>(tokens.size()), /*add_special=*/true,
                         /*parse_special=*/false);
  if (n < 0) {
    tokens.resize(static_cast<size_t>(-n));
    n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), tokens.data(),
                       static_cast<int32_t>(tokens.size()), true, false);
  }
  tokens.resize(static_cast<size_t>(std::max(n, 0)));
  return tokens;
}

std::string LlamaEmbedder::TokenPiece(int32_t token) const {
  const char* text = llama_vocab_get_text(llama_model_get_vocab(model_), token);
  return text == nullptr ? std::string() : std::string(text);
}

Result<std::vector<Vector>> LlamaEmbedder::Embed(const std::vector<std::string>& texts,
                                                 Purpose purpose, int* truncated) {
  const std::string& prefix = purpose == Purpose::kQuery ? prefixes_.query : prefixes_.document;
  std::vector<Vector> out;
  out.reserve(texts.size());
  std::vector<std::vector<int32_t>> batch;
  int batch_used = 0;
  for (const std::string& text : texts) {
    std::vector<int32_t> tokens = Tokenize(prefix + text);
    if (static_cast<int>(tokens.size()) > max_tokens_) {
      // Keep the closing special token ([SEP] / </s>) the model expects at the end.
      const int32_t last = tokens.back();
      tokens.resize(static_cast<size_t>(max_tokens_));
      tokens.back() = last;
      if (truncated != nullptr) ++*truncated;
    }
    if (!batch.empty() && (batch_used + static_cast<int>(tokens.size()) > batch_tokens_ ||
                           static_cast<int>(batch.size()) >= max_seqs_)) {
      KEBAB_RETURN_IF_ERROR(RunBatch(batch, &out));
      batch.clear();
      batch_used = 0;
    }
    batch_used += static_cast<int>(tokens.size());
    batch.push_back(std::move(tokens));
  }
  if (!batch.empty()) KEBAB_RETURN_IF_ERROR(RunBatch(batch, &out));
  return out;
}

Status LlamaEmbedder::RunBatch(const std::vector<std::vector<int32_t>>& seqs,
                               std::vector<Vector>* out) {
  int total = 0;
  for (const auto& s : seqs) total += static_cast<int>(s.size());
  llama_batch batch = llama_batch_init(total, 0, 1);
  for (size_t s = 0; s < seqs.size(); ++s) {
    for (size_t i = 0; i < seqs[s].size(); ++i) {
      const int k = batch.n_tokens++;
      batch.token[k] = seqs[s][i];
      batch.pos[k] = static_cast<llama_pos>(i);
      batch.n_seq_id[k] = 1;
      batch.seq_id[k][0] = static_cast<llama_seq_id>(s);
      batch.logits[k] = true;
    }
  }
  if (llama_memory_t mem = llama_get_memory(ctx_)) llama_memory_clear(mem, true);
  // A short input (a search query) computes on one thread: splitting a few dozen tokens saves a
  // few milliseconds at best, while llama.cpp's threads spin at every barrier, so with another
  // program busy on the cores one query took ~1.5 s on 2 threads against ~13 ms on one.
  const int threads = total <= kOneThreadUpToTokens ? 1 : threads_in_use_;
  llama_set_n_threads(ctx_, threads, threads);
  const int rc = llama_decode(ctx_, batch);
  if (rc != 0) {
    llama_batch_free(batch);
    return GenericError("llama.cpp failed to embed a batch (code " + std::to_string(rc) +
                        "): " + TakeLlamaErrors());
  }
  const int dims = space_.dimensions;
  for (size_t s = 0; s < seqs.size(); ++s) {
    const float* v = llama_get_embeddings_seq(ctx_, static_cast<llama_seq_id>(s));
    if (v == nullptr) {
      llama_batch_free(batch);
      return GenericError("llama.cpp returned no embedding for a sequence");
    }
    Vector vec(v, v + dims);
    L2Normalize(vec);
    out->push_back(std::move(vec));
  }
  llama_batch_free(batch);
  return Status::OK();
}

}  // namespace kebab::embed
