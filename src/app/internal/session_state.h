// What a Session shares between facade calls (see app/session.h for the threading contract):
// the embedder and the language model behind a lock each, handed out as Leases; read-only
// store handles from a pool, each handed out to one caller at a time as a StoreLease; and the
// vector index of the last space asked for, handed out as a shared pointer.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "app/session.h"
#include "embed/embedder.h"
#include "index/vector_index.h"
#include "llm/language_model.h"
#include "store/store.h"

namespace kebab::app::internal {

struct SessionState;

// Which file a path names (device and inode): a file deleted and created anew is another one,
// and cannot take the old one's inode while a handle keeps the old one open.
struct FileIdentity {
  uint64_t device = 0, inode = 0;
  bool operator==(const FileIdentity&) const = default;
};

// Exclusive use of a session's model while the lease lives; hold it only while computing.
template <typename T>
class Lease {
 public:
  Lease(std::unique_lock<std::mutex> lock, T* object) : lock_(std::move(lock)), object_(object) {}
  T* operator->() const { return object_; }
  T& operator*() const { return *object_; }

 private:
  std::unique_lock<std::mutex> lock_;
  T* object_;
};

// One caller's read-only store handle; it goes back to the session's pool when the lease ends,
// so the next call finds SQLite's page cache and prepared state warm.
class StoreLease {
 public:
  StoreLease(SessionState* pool, std::unique_ptr<store::Store> store, FileIdentity file)
      : pool_(pool), store_(std::move(store)), file_(file) {}
  StoreLease(StoreLease&&) = default;
  StoreLease& operator=(StoreLease&&) = delete;
  ~StoreLease();
  store::Store* operator->() const { return store_.get(); }
  store::Store& operator*() const { return *store_; }

 private:
  SessionState* pool_;
  std::unique_ptr<store::Store> store_;
  FileIdentity file_;
};

struct SessionState {
  // `map_reads`: read handles map the index file (store::StoreOptions::map_file).
  explicit SessionState(bool map_reads) : map_reads_(map_reads) {}

  // A read-only handle on the configured index: a pooled one while the index file is the one
  // it opened (a reset that deleted and rebuilt the file is noticed), else a newly opened one.
  // Errors: kNotIndexed when there is no index, as OpenStore.
  Result<StoreLease> ReadStore(const config::Config& config);
  // The configured embedder, opened on first use (models.embedding must not be "none").
  Result<Lease<embed::Embedder>> Embedder(const config::Config& config);
  // The configured language model, opened on first use.
  Result<Lease<llm::LanguageModel>> LanguageModel(const config::Config& config);
  // The current vector index of `space_id`: the kept one while the store's stamp is unchanged,
  // else opened (from its cache file, or built) and kept in its place.
  Result<std::shared_ptr<const index::VectorIndex>> VectorIndex(const config::Config& config,
                                                                store::Store& store,
                                                                int64_t space_id, int dimensions);

  // Held by each ingest: one at a time per session (the service's watch and an ingest it runs
  // for a client would otherwise be two writers taking turns at SQLite's lock mid-batch).
  std::mutex ingest_mu;
  // Set once each is open, so that status can say so without waiting for a model in use.
  std::atomic<bool> has_embedder{false}, has_llm{false}, has_index{false};

 private:
  std::mutex embedder_mu_;
  std::unique_ptr<embed::Embedder> embedder_;  // guarded by embedder_mu_
  std::mutex llm_mu_;
  std::unique_ptr<llm::LanguageModel> llm_;  // guarded by llm_mu_
  friend class StoreLease;
  void Return(std::unique_ptr<store::Store> store, FileIdentity file);

  const bool map_reads_;
  std::mutex stores_mu_;
  // Idle handles, each with the identity of the file it opened. Guarded by stores_mu_.
  std::vector<std::pair<std::unique_ptr<store::Store>, FileIdentity>> idle_stores_;
  std::mutex index_mu_;
  std::string index_key_;                            // guarded by index_mu_
  std::shared_ptr<const index::VectorIndex> index_;  // guarded by index_mu_
};

}  // namespace kebab::app::internal
