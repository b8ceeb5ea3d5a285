#include "app/session.h"

#include <sys/stat.h>

#include <optional>

#include "app/internal/session_state.h"
#include "app/internal_store.h"
#include "embed/open.h"
#include "llm/open.h"

namespace kebab::app {

Session::Session(config::Config config, SessionOptions options)
    : config_(std::move(config)),
      options_(options),
      state_(std::make_unique<internal::SessionState>(!options.long_lived)) {}

Session::~Session() = default;

SessionResources Session::Resources() const {
  return {state_->has_embedder.load(), state_->has_llm.load(), state_->has_index.load()};
}

Status Session::CheckWritable(std::string_view command) const {
  return options_.readonly ? ReadonlyRefusal(command) : Status::OK();
}

Status ReadonlyRefusal(std::string_view command) {
  return Status(ErrorCode::kReadonlyMode,
                "`kebab " + std::string(command) + "` changes the index, and readonly mode is on",
                "drop --readonly / unset KEBAB_READONLY to allow it");
}

namespace internal {
namespace {

// Idle read handles kept: an agent seldom has more than two calls in flight; more callers at
// once open handles of their own and close them after. Each may hold its cache_size of pages.
constexpr size_t kMaxIdleStores = 2;

std::optional<FileIdentity> IdentityOf(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileIdentity{static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
}

}  // namespace

StoreLease::~StoreLease() {
  if (store_ != nullptr) pool_->Return(std::move(store_), file_);
}

Result<StoreLease> SessionState::ReadStore(const config::Config& config) {
  const std::optional<FileIdentity> file = IdentityOf(config.storage.sqlite);
  {
    std::lock_guard lock(stores_mu_);
    // Handles on a file that is gone or replaced are closed; the rest stay.
    std::erase_if(idle_stores_, [&](const auto& idle) { return idle.second != file; });
    if (!idle_stores_.empty()) {
      auto [store, identity] = std::move(idle_stores_.back());
      idle_stores_.pop_back();
      return StoreLease(this, std::move(store), identity);
    }
  }
  KEBAB_ASSIGN_OR_RETURN(std::unique_ptr<store::Store> store, OpenStore(config, true, map_reads_));
  return StoreLease(this, std::move(store), file.value_or(FileIdentity{}));
}

void SessionState::Return(std::unique_ptr<store::Store> store, FileIdentity file) {
  std::lock_guard lock(stores_mu_);
  if (idle_stores_.size() < kMaxIdleStores) idle_stores_.emplace_back(std::move(store), file);
}

Result<Lease<embed::Embedder>> SessionState::Embedder(const config::Config& config) {
  std::unique_lock lock(embedder_mu_);
  if (embedder_ == nullptr) {
    KEBAB_ASSIGN_OR_RETURN(embedder_, embed::OpenEmbedder(config));
    has_embedder = true;
  }
  return Lease<embed::Embedder>(std::move(lock), embedder_.get());
}

Result<Lease<llm::LanguageModel>> SessionState::LanguageModel(const config::Config& config) {
  std::unique_lock lock(llm_mu_);
  if (llm_ == nullptr) {
    KEBAB_ASSIGN_OR_RETURN(llm_, llm::OpenLanguageModel(config));
    has_llm = true;
  }
  return Lease<llm::LanguageModel>(std::move(lock), llm_.get());
}

Result<std::shared_ptr<const index::VectorIndex>> SessionState::VectorIndex(
    const config::Config& config, store::Store& store, int64_t space_id, int dimensions) {
  KEBAB_ASSIGN_OR_RETURN(store::VectorIndexStamp stamp, store.IndexStamp());
  const std::string key = stamp.store_id + "|" + std::to_string(space_id) + "|" +
                          std::to_string(stamp.corpus_revision) + "|" +
                          std::to_string(stamp.vectors_revision);
  // Held while opening: two calls that find the index stale build it once.
  std::lock_guard lock(index_mu_);
  if (index_ != nullptr && index_key_ == key) return index_;
  KEBAB_ASSIGN_OR_RETURN(
      std::unique_ptr<index::VectorIndex> opened,
      index::OpenIndex(store, space_id, dimensions, index::IndexOptionsFrom(config)));
  index_ = std::move(opened);
  index_key_ = key;
  has_index = true;
  return index_;
}

}  // namespace internal
}  // namespace kebab::app
