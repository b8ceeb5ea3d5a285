#include "app/internal_store.h"

namespace kebab::app {

Result<std::unique_ptr<store::Store>> OpenStore(const config::Config& config, bool readonly,
                                                bool map_file) {
  store::StoreOptions options;
  options.readonly = readonly;
  options.map_file = map_file;
  options.stemmer = config.search.stemmer;
  return store::Store::Open(config.storage.sqlite, options);
}

}  // namespace kebab::app
