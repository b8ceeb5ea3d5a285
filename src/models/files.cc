// The model files in storage.model_dir: naming, listing, lookup and removal.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <set>
#include <utility>

#include "models/models.h"

namespace kebab::models {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kPart = ".part";

int64_t FileSize(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return -1;
  const auto size = fs::file_size(path, ec);
  return ec ? -1 : static_cast<int64_t>(size);
}

bool SamePath(const std::string& a, const std::string& b) {
  std::error_code ec1, ec2;
  const fs::path ca = fs::weakly_canonical(a, ec1), cb = fs::weakly_canonical(b, ec2);
  return ec1 || ec2 ? fs::path(a).lexically_normal() == fs::path(b).lexically_normal() : ca == cb;
}

std::string ConfiguredEmbeddingPath(const config::Config& config) {
  const config::EmbeddingConfig& ec = config.embedding;
  if (ec.provider != "llama" || ec.model.empty()) return "";
  return ModelFilePath(config, ec.model);
}

std::string ExpandModelPath(const config::Config& config, const std::string& model) {
  const std::string base = fs::path(config.config_path).parent_path().string();
  return config::ExpandPath(model, config::ProcessEnvironment(), base, config.storage.data_dir);
}

// `kind` is the file's for a NAME the catalog does not know (the catalog's wins otherwise).
ModelEntry Inspect(const config::Config& config, const std::string& name,
                   std::optional<ModelKind> kind, const std::string& embedding_path) {
  ModelEntry e;
  e.name = name;
  e.catalog = FindCatalogModel(name);
  e.kind = e.catalog != nullptr ? std::optional(e.catalog->kind) : kind;
  e.path = ModelDirFile(config, name, e.kind.value_or(ModelKind::kEmbedding));
  const int64_t size = FileSize(e.path);
  e.present = size >= 0;
  e.bytes = std::max<int64_t>(size, 0);
  e.partial_bytes = std::max<int64_t>(FileSize(e.path + std::string(kPart)), 0);
  e.in_use = !embedding_path.empty() && SamePath(e.path, embedding_path);
  return e;
}

// The files of NAME that InstalledModel and RemoveModel act on: the catalog's kind, else the
// GGUF when it or its .part is there, else the speech model when it or its .part is, else the
// (absent) GGUF.
ModelEntry Resolve(const config::Config& config, const std::string& name,
                   const std::string& embedding_path) {
  ModelEntry e = Inspect(config, name, std::nullopt, embedding_path);
  if (e.catalog != nullptr || e.present || e.partial_bytes > 0) return e;
  ModelEntry speech = Inspect(config, name, ModelKind::kSpeech, embedding_path);
  return speech.present || speech.partial_bytes > 0 ? speech : e;
}

}  // namespace

std::string ModelDirFile(const config::Config& config, const std::string& name, ModelKind kind) {
  return config.storage.model_dir + "/" + name + std::string(ModelFileSuffix(kind));
}

bool IsBareModelName(const std::string& model, ModelKind kind) {
  return model.find('/') == std::string::npos && !model.starts_with("~") &&
         !model.ends_with(ModelFileSuffix(kind));
}

std::string ModelFilePath(const config::Config& config, const std::string& model) {
  if (IsBareModelName(model)) return ModelDirFile(config, model, ModelKind::kEmbedding);
  return ExpandModelPath(config, model);
}

std::string SpeechModelFilePath(const config::Config& config, const std::string& model) {
  if (IsBareModelName(model, ModelKind::kSpeech)) {
    return ModelDirFile(config, model, ModelKind::kSpeech);
  }
  return ExpandModelPath(config, model);
}

Status CheckModelName(const std::string& name) {
  const auto bad = [&](const std::string& why) {
    return InvalidInput("bad model name \"" + name + "\": " + why,
                        "a name is letters, digits, '.', '_' and '-', e.g. multilingual-e5-small; "
                        "`kebab models list` shows the known ones");
  };
  if (name.empty()) return bad("it is empty");
  for (ModelKind kind : {ModelKind::kEmbedding, ModelKind::kSpeech}) {
    const std::string_view suffix = ModelFileSuffix(kind);
    if (name.ends_with(suffix)) return bad("leave out the " + std::string(suffix) + " suffix");
  }
  if (name.front() == '.') return bad("it starts with '.'");
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') {
      return bad(std::string("'") + c + "' is not allowed");
    }
  }
  return Status::OK();
}

std::string PullHint(const std::string& name, ModelKind kind) {
  if (FindCatalogModel(name) != nullptr) return "download it: `kebab models pull " + name + "`";
  if (kind == ModelKind::kSpeech) {
    return "`kebab models pull " + name +
           " --url URL --kind speech` downloads any whisper.cpp model (.bin) under this name; "
           "`kebab models list` shows the models kebab knows; or set "
           "ingest.audio.whisper_model to the path of a .bin file";
  }
  return "`kebab models pull " + name +
         " --url URL` downloads any GGUF file under this name; `kebab models list` shows the "
         "models kebab knows; or set models.embedding.model to the path of a GGUF file";
}

ModelListing ListModels(const config::Config& config, const config::Environment& env) {
  ModelListing listing;
  listing.model_dir = config.storage.model_dir;
  listing.hub = HubEndpoint(env);
  listing.embedding_path = ConfiguredEmbeddingPath(config);
  listing.embedding_present =
      !listing.embedding_path.empty() && FileSize(listing.embedding_path) >= 0;
  for (const CatalogModel& m : Catalog()) {
    listing.models.push_back(
        Inspect(config, std::string(m.name), std::nullopt, listing.embedding_path));
  }
  // Other GGUF files, then other speech model files, and interrupted pulls of names the
  // catalog does not know: (is speech, NAME), so that GGUFs sort first.
  std::set<std::pair<bool, std::string>> others;
  std::error_code ec;
  for (const fs::directory_entry& f : fs::directory_iterator(listing.model_dir, ec)) {
    std::string file = f.path().filename().string();
    if (file.ends_with(kPart)) file.resize(file.size() - kPart.size());
    for (ModelKind kind : {ModelKind::kEmbedding, ModelKind::kSpeech}) {
      const std::string_view suffix = ModelFileSuffix(kind);
      if (!file.ends_with(suffix)) continue;
      const std::string name = file.substr(0, file.size() - suffix.size());
      if (FindCatalogModel(name) == nullptr && CheckModelName(name).ok()) {
        others.emplace(kind == ModelKind::kSpeech, name);
      }
    }
  }
  for (const auto& [speech, name] : others) {
    ModelEntry e = Inspect(config, name, speech ? std::optional(ModelKind::kSpeech) : std::nullopt,
                           listing.embedding_path);
    if (e.present || e.partial_bytes > 0) listing.models.push_back(std::move(e));
  }
  return listing;
}

Result<ModelEntry> InstalledModel(const config::Config& config, const std::string& name) {
  KEBAB_RETURN_IF_ERROR(CheckModelName(name));
  ModelEntry e = Resolve(config, name, ConfiguredEmbeddingPath(config));
  if (!e.present) {
    return Status(ErrorCode::kModelNotPulled,
                  "model " + name + " is not downloaded (no " + e.path + ")", PullHint(name));
  }
  return e;
}

Result<RemoveReport> RemoveModel(const config::Config& config, const std::string& name) {
  KEBAB_RETURN_IF_ERROR(CheckModelName(name));
  const ModelEntry e = Resolve(config, name, ConfiguredEmbeddingPath(config));
  RemoveReport report;
  report.name = name;
  report.was_in_use = e.in_use;
  for (const std::string& path : {e.path, e.path + std::string(kPart)}) {
    const int64_t size = FileSize(path);
    if (size < 0) continue;
    std::error_code ec;
    fs::remove(path, ec);
    if (ec) return IoError("cannot remove " + path + ": " + ec.message());
    report.removed_paths.push_back(path);
    report.freed_bytes += size;
  }
  if (report.removed_paths.empty()) {
    return Status(ErrorCode::kModelNotPulled, "model " + name + " is not downloaded",
                  "`kebab models list` shows the downloaded models");
  }
  return report;
}

}  // namespace kebab::models
