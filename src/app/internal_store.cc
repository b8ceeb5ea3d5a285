#include "app/internal_store.h"

namespace kebab::app {

Result<std::unique_ptr<store::Store>> OpenStore(const config::Config& config, bool readonly) {
  store::StoreOptions options;
  options.readonly = readonly;
  options.stemmer = config.search.stemmer;
  return store::Store::Open(config.storage.sqlite, options);
}

}  // namespace kebab::app
