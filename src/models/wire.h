// Wire schema v1 objects of `kebab models --json` (docs/wire-schema/v1/model_*.schema.json,
// models_gc_report.schema.json); like app/wire.h, only these functions decide what crosses
// the wire.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "models/models.h"

namespace kebab::models::wire {

using nlohmann::json;

json ModelInfo(const ModelEntry& entry, const std::string& hub);
json ModelList(const ModelListing& listing, const config::Config& config);
// kind: "started" (before the first byte; url and path set) or "progress".
json PullProgress(std::string_view kind, const std::string& name, const DownloadProgress& p,
                  const std::string& url = "", const std::string& path = "");
json PullReport(const models::PullReport& report);
json RemoveReport(const models::RemoveReport& report);
json GcReport(const models::GcReport& report);

}  // namespace kebab::models::wire
