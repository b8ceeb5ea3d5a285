// What a Session shares between facade calls (see app/session.h for the threading contract):
// the embedder and the language model behind a lock each, handed out as Leases, and the vector
// index of the last space asked for, handed out as a shared pointer.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "app/session.h"
#include "embed/embedder.h"
#include "index/vector_index.h"
#include "llm/language_model.h"
#include "store/store.h"

namespace kebab::app::internal {

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

struct SessionState {
  // The configured embedder, opened on first use (models.embedding must not be "none").
  Result<Lease<embed::Embedder>> Embedder(const config::Config& config);
  // The configured language model, opened on first use.
  Result<Lease<llm::LanguageModel>> LanguageModel(const config::Config& config);
  // The current vector index of `space_id`: the kept one while the store's stamp is unchanged,
  // else opened (from its cache file, or built) and kept in its place.
  Result<std::shared_ptr<const index::VectorIndex>> VectorIndex(const config::Config& config,
                                                                store::Store& store,
                                                                int64_t space_id, int dimensions);

 private:
  std::mutex embedder_mu_;
  std::unique_ptr<embed::Embedder> embedder_;  // guarded by embedder_mu_
  std::mutex llm_mu_;
  std::unique_ptr<llm::LanguageModel> llm_;  // guarded by llm_mu_
  std::mutex index_mu_;
  std::string index_key_;                            // guarded by index_mu_
  std::shared_ptr<const index::VectorIndex> index_;  // guarded by index_mu_
};

}  // namespace kebab::app::internal
