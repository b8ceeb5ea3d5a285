// Opening the store the way every facade call does (path and stemmer from the config).
#pragma once

#include <memory>

#include "config/config.h"
#include "store/store.h"

namespace kebab::app {

// Read commands open readonly: a missing index is kNotIndexed with a hint to ingest.
// `map_file`: see store::StoreOptions (readonly only).
Result<std::unique_ptr<store::Store>> OpenStore(const config::Config& config, bool readonly,
                                                bool map_file = true);

}  // namespace kebab::app
