#include "app/embed_stage.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <unordered_set>
#include <utility>

#include "app/internal/session_state.h"
#include "app/internal_store.h"
#include "core/time.h"
#include "index/vector_index.h"
#include "models/models.h"

namespace kebab::app {

store::SpaceKey SpaceKeyOf(const embed::Embedder& embedder) {
  const embed::SpaceInfo& s = embedder.space();
  return {s.provider, s.model, s.version, s.dimensions, s.document_prefix};
}

bool SpaceMatchesConfig(const store::SpaceKey& space, const config::Config& config) {
  const config::EmbeddingConfig& ec = config.embedding;
  // A llama space is named after the GGUF file's stem (see LlamaEmbedder).
  const std::string model =
      ec.provider == "llama"
          ? std::filesystem::path(models::ModelFilePath(config, ec.model)).stem().string()
          : ec.model;
  return space.provider == ec.provider && space.model == model && space.version == ec.version &&
         (ec.dimensions <= 0 || space.dimensions == ec.dimensions) &&
         (ec.document_prefix == "auto" || space.document_prefix == ec.document_prefix);
}

Result<std::optional<store::StoredSpace>> FindConfiguredSpace(const config::Config& config,
                                                              store::Store& store) {
  KEBAB_ASSIGN_OR_RETURN(std::vector<store::StoredSpace> spaces, store.ListSpaces());
  const store::StoredSpace* match = nullptr;
  for (const store::StoredSpace& s : spaces) {
    if (!SpaceMatchesConfig(s.key, config)) continue;
    if (match != nullptr) return std::optional<store::StoredSpace>();  // ambiguous
    match = &s;
  }
  if (match == nullptr) return std::optional<store::StoredSpace>();
  return std::optional<store::StoredSpace>(*match);
}

Result<bool> AllChunksEmbedded(const config::Config& config, store::Store& store) {
  KEBAB_ASSIGN_OR_RETURN(std::optional<store::StoredSpace> space,
                         FindConfiguredSpace(config, store));
  if (!space) return false;  // none yet, or ambiguous: let the model decide
  KEBAB_ASSIGN_OR_RETURN(int64_t missing, store.CountTextsWithoutVectors(space->space_id));
  return missing == 0;
}

Status RefreshVectorIndex(const config::Config& config, store::Store& store,
                          const IngestEventSink& emit, std::vector<std::string>* warnings) {
  KEBAB_ASSIGN_OR_RETURN(std::optional<store::StoredSpace> space,
                         FindConfiguredSpace(config, store));
  if (!space || space->vector_count == 0) return Status::OK();
  emit({.kind = IngestEvent::Kind::kIndexStarted});
  const int64_t started = MonotonicMillis();
  index::OpenReport report;
  KEBAB_RETURN_IF_ERROR(index::OpenIndex(store, space->space_id, space->key.dimensions,
                                         index::IndexOptionsFrom(config), &report)
                            .status());
  if (!report.warning.empty()) {
    warnings->push_back("the vector index could not be cached (" + report.warning +
                        "); searches will rebuild it in memory");
  }
  emit({.kind = IngestEvent::Kind::kIndexFinished,
        .ms = MonotonicMillis() - started,
        .index_kind = index::IndexKindName(report.kind),
        .vectors = report.vectors});
  return Status::OK();
}

EmbedStage::EmbedStage(Session& session, IngestEventSink emit, const std::atomic<bool>* cancel)
    : session_(session), config_(session.config()), emit_(std::move(emit)), cancel_(cancel) {
  if (!emit_) emit_ = [](const IngestEvent&) {};
}

EmbedStage::~EmbedStage() {
  if (!thread_.joinable()) return;
  abandon_ = true;
  {
    std::lock_guard lock(mu_);
    writer_done_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void EmbedStage::Start() {
  if (started()) return;
  thread_ = std::thread([this] { Run(); });
}

void EmbedStage::NoteCommit() {
  {
    std::lock_guard lock(mu_);
    ++commits_;
  }
  cv_.notify_all();
}

Status EmbedStage::Finish() {
  if (!thread_.joinable()) return status_;
  {
    std::lock_guard lock(mu_);
    writer_done_ = true;
  }
  cv_.notify_all();
  thread_.join();
  finished_ = true;
  return status_;
}

bool EmbedStage::Stopping() const {
  return abandon_.load() || (cancel_ != nullptr && cancel_->load());
}

bool EmbedStage::WaitForWork(int64_t seen_commits) {
  std::unique_lock lock(mu_);
  // Ctrl-C only sets an atomic (a signal handler cannot notify), so wake up now and then.
  while (!cv_.wait_for(lock, std::chrono::milliseconds(100),
                       [&] { return commits_ != seen_commits || writer_done_; })) {
    if (Stopping()) return false;
  }
  return !Stopping();
}

void EmbedStage::Run() {
  status_ = EmbedAll();
}

Status EmbedStage::EmbedAll() {
  // Its own connection: the writer's is busy with the lexical batches, and SQLite serializes
  // the two writers (each vector batch is one short transaction).
  KEBAB_ASSIGN_OR_RETURN(std::unique_ptr<store::Store> store, OpenStore(config_, false));
  int64_t space = 0;
  {
    KEBAB_ASSIGN_OR_RETURN(auto embedder, session_.state().Embedder(config_));
    KEBAB_ASSIGN_OR_RETURN(space, store->EnsureSpace(SpaceKeyOf(*embedder)));
  }
  const int batch_size = std::max(1, config_.embedding.batch_size);
  int64_t after = 0;
  bool swept_again = false;
  while (!Stopping()) {
    int64_t seen_commits;
    bool writer_done;
    {
      std::lock_guard lock(mu_);
      seen_commits = commits_;
      writer_done = writer_done_;
    }
    KEBAB_ASSIGN_OR_RETURN(std::vector<store::PendingText> pending,
                           store->TextsWithoutVectors(space, batch_size, after));
    if (!writer_done && pending.size() < static_cast<size_t>(batch_size)) {
      if (!WaitForWork(seen_commits)) break;
      continue;
    }
    if (pending.empty()) {
      // Rowids only grow within a run, but a sweep from the start costs one index pass and
      // makes that assumption unnecessary.
      if (swept_again) break;
      swept_again = true;
      after = 0;
      continue;
    }
    after = pending.back().chunk_rowid;
    // Chunks with the same text share one vector.
    std::vector<std::string> texts, hashes;
    std::unordered_set<std::string> seen;
    for (store::PendingText& p : pending) {
      if (!seen.insert(p.text_hash).second) continue;
      texts.push_back(std::move(p.text));
      hashes.push_back(std::move(p.text_hash));
    }
    emit_(
        {.kind = IngestEvent::Kind::kEmbedBatchStarted, .chunks = static_cast<int>(texts.size())});
    const int64_t started = MonotonicMillis();
    std::vector<embed::Vector> vectors;
    {
      // The model is the session's: it is held for one batch at a time, so a search in the
      // same session (kebab mcp) waits for a batch, not for the whole ingest.
      KEBAB_ASSIGN_OR_RETURN(auto embedder, session_.state().Embedder(config_));
      // While the parse workers and the writer still share the cores, an in-process model
      // computes on one thread: llama.cpp's threads spin at every barrier, and spinning
      // threads that compete with others for the cores ran batches ~15x slower (tldr: 850 vs
      // 55 ms a batch). Once the writer is done the model gets its configured threads back.
      embedder->LimitThreads(writer_done ? 0 : 1);
      Result<std::vector<embed::Vector>> embedded =
          embedder->Embed(texts, embed::Purpose::kDocument);
      embedder->LimitThreads(0);
      KEBAB_ASSIGN_OR_RETURN(vectors, std::move(embedded));
    }
    KEBAB_RETURN_IF_ERROR(store->PutVectors(space, hashes, vectors));
    embedded_ += static_cast<int64_t>(vectors.size());
    emit_({.kind = IngestEvent::Kind::kEmbedBatchFinished,
           .chunks = static_cast<int>(vectors.size()),
           .ms = MonotonicMillis() - started});
  }
  return Status::OK();
}

}  // namespace kebab::app
