// `kebab models pull`: which URL and hash a NAME means, then one Download into model_dir.
#include <cctype>
#include <filesystem>
#include <optional>

#include "core/sha256.h"
#include "models/models.h"

namespace kebab::models {

Result<PullReport> PullModel(const config::Config& config, const config::Environment& env,
                             const PullOptions& options) {
  KEBAB_RETURN_IF_ERROR(CheckModelName(options.name));
  const CatalogModel* known = FindCatalogModel(options.name);
  if (known == nullptr && options.url.empty()) {
    return InvalidInput("kebab does not know a model named \"" + options.name + "\"",
                        "`kebab models list` shows the catalog; to fetch any other GGUF file "
                        "under this name, add --url URL (and --sha256 HEX to verify it); for a "
                        "whisper.cpp speech model (.bin), add --kind speech as well");
  }
  if (known != nullptr && options.kind.has_value() && *options.kind != known->kind) {
    return InvalidInput("--kind " + std::string(ModelKindName(*options.kind)) + " does not fit " +
                            options.name + ", a " + std::string(ModelKindName(known->kind)) +
                            " model in the catalog",
                        "leave out --kind for a catalog model, or pick another name");
  }
  const std::optional<ModelKind> kind =
      known != nullptr ? std::optional(known->kind) : options.kind;
  std::string sha256, sha1;
  if (!options.sha256.empty()) {
    if (!IsSha256Hex(options.sha256)) {
      return InvalidInput("--sha256 must be 64 hex characters, got \"" + options.sha256 + "\"");
    }
    for (char c : options.sha256) sha256 += static_cast<char>(std::tolower(c));
  } else if (known != nullptr && options.url.empty()) {
    // A pin describes the catalog's file; a URL of the user's choice may be another one.
    sha256 = std::string(known->sha256);
  }
  if (known != nullptr && options.url.empty()) sha1 = std::string(known->sha1);

  PullReport report;
  report.name = options.name;
  report.catalog = known;
  report.kind = kind;
  report.url = !options.url.empty() ? options.url : DownloadUrl(*known, HubEndpoint(env));
  report.path = ModelDirFile(config, options.name, kind.value_or(ModelKind::kEmbedding));
  std::error_code ec;
  if (!options.force && std::filesystem::is_regular_file(report.path, ec)) {
    report.already_present = true;
    report.bytes = static_cast<int64_t>(std::filesystem::file_size(report.path, ec));
    return report;
  }
  std::filesystem::create_directories(config.storage.model_dir, ec);
  if (ec) return IoError("cannot create " + config.storage.model_dir + ": " + ec.message());

  if (options.on_start) {
    const auto partial = std::filesystem::file_size(report.path + ".part", ec);
    options.on_start(report.url, report.path, ec ? 0 : static_cast<int64_t>(partial));
  }
  DownloadRequest request;
  request.url = report.url;
  request.dest = report.path;
  request.sha256 = sha256;
  request.sha1 = sha1;
  request.on_progress = options.on_progress;
  request.cancel = options.cancel;
  request.low_speed_secs = options.low_speed_secs;
  KEBAB_ASSIGN_OR_RETURN(report.download, Download(request));
  report.bytes = report.download.bytes;
  return report;
}

}  // namespace kebab::models
