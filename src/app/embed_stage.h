// The embedding stage of ingest: fills the configured embedding space with a vector for every
// chunk text that has none yet. It runs on a thread of its own beside the parse workers and the
// writer, reading its work from the store (what each committed batch added) through its own
// connection, so an interrupted run loses nothing (each batch of vectors is committed) and the
// next one embeds only what is missing, without re-parsing; unchanged text is never embedded
// twice, even after a move or rename.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/ingest.h"
#include "app/session.h"
#include "config/config.h"
#include "embed/embedder.h"
#include "store/store.h"

namespace kebab::app {

// The store's identity for the space `embedder` writes.
store::SpaceKey SpaceKeyOf(const embed::Embedder& embedder);

// Whether a stored space can belong to the configured embedding model, judged from the config
// alone (no model load): provider, model and version equal, and dimensions and document prefix
// equal where the config fixes them (not 0 / "auto"), so a space is only ever kept in doubt.
// The ingest's embed stage and `kebab models gc` (app/models.h) both decide by it.
bool SpaceMatchesConfig(const store::SpaceKey& space, const config::Config& config);

// The stored space the config names, found without loading the model: the configured
// dimensions and "auto" prefix need the model, so they only narrow the match when set. Empty
// when no space matches, or several do.
Result<std::optional<store::StoredSpace>> FindConfiguredSpace(const config::Config& config,
                                                              store::Store& store);

// True when the configured model's space exists and every chunk text has a vector in it,
// decided without loading the model (so a no-op ingest stays fast). False when unsure.
Result<bool> AllChunksEmbedded(const config::Config& config, store::Store& store);

// Embeds every chunk text of the index without a vector in the configured space, in batches of
// models.embedding.batch_size, emitting embed_batch_* events (from its own thread: `emit` must
// be thread-safe). While the writer is still committing it waits for full batches; once told
// the writer is done it embeds the rest, then sweeps the whole index once more for texts an
// earlier run left. Stops between batches when `cancel` is set.
class EmbedStage {
 public:
  EmbedStage(Session& session, IngestEventSink emit, const std::atomic<bool>* cancel);
  ~EmbedStage();  // stops and joins a stage that was started but not finished
  EmbedStage(const EmbedStage&) = delete;
  EmbedStage& operator=(const EmbedStage&) = delete;

  // Starts the thread, which loads the model (overlapping the parsing) and begins embedding.
  // Later calls do nothing.
  void Start();
  bool started() const { return thread_.joinable() || finished_; }
  // The writer committed documents: their texts can be embedded now.
  void NoteCommit();
  // The writer is done: embeds everything still missing, joins the thread and returns the
  // stage's first error (a model that cannot load, an unreachable server).
  Status Finish();
  // Texts embedded so far (exact once Finish returned).
  int64_t embedded() const { return embedded_.load(); }

 private:
  void Run();
  Status EmbedAll();
  // Waits until the writer commits again or is done (or the run is cancelled); false when
  // there is nothing more to wait for.
  bool WaitForWork(int64_t seen_commits);
  bool Stopping() const;

  Session& session_;
  const config::Config& config_;
  IngestEventSink emit_;
  const std::atomic<bool>* cancel_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  int64_t commits_ = 0;       // guarded by mu_
  bool writer_done_ = false;  // guarded by mu_
  std::atomic<bool> abandon_{false};
  std::atomic<int64_t> embedded_{0};
  Status status_;  // written by the thread, read after join
  bool finished_ = false;
};

// Brings the vector index cache (src/index) of the configured space up to date, between
// index_started and index_finished events. A cache that cannot be written adds a warning.
Status RefreshVectorIndex(const config::Config& config, store::Store& store,
                          const IngestEventSink& emit, std::vector<std::string>* warnings);

}  // namespace kebab::app
