// Model files: the catalog of known models (catalog.h), pulling them into storage.model_dir
// with resume and checksum (download.h), and what is on disk. A model NAME is the file
// {model_dir}/NAME.gguf for GGUF models (embedding, chat) and {model_dir}/NAME.bin for speech
// models (whisper.cpp's ggml format), so a pulled model is used by setting
// models.embedding.model = "NAME" or ingest.audio.whisper_model = "NAME". This module knows
// files, not the index: `kebab models` runs through the app facade (app/models.h), which adds
// the read-only policy and `models gc`, the one subcommand that needs the store. Calls are
// independent; two processes pulling the same NAME at once would share one .part file, so do
// not.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "config/config.h"
#include "core/status.h"
#include "models/catalog.h"
#include "models/download.h"

namespace kebab::models {

// {model_dir}/NAME plus the file suffix of `kind` (ModelFileSuffix): where model NAME of that
// kind is pulled to, present or not.
std::string ModelDirFile(const config::Config& config, const std::string& name, ModelKind kind);

// The GGUF file `model` (models.embedding.model) names: anything with a "/", a leading "~" or
// a ".gguf" suffix is a path (relative to the config file's directory), anything else a bare
// NAME looked up as {model_dir}/NAME.gguf.
std::string ModelFilePath(const config::Config& config, const std::string& model);
// Whether `model` is a NAME in the model directory rather than a path, for a model of `kind`.
bool IsBareModelName(const std::string& model, ModelKind kind = ModelKind::kEmbedding);

// The whisper.cpp model file `model` (ingest.audio.whisper_model) names, by the same rule with
// ".bin" for ".gguf": anything with a "/", a leading "~" or a ".bin" suffix is a path (relative
// to the config file's directory), anything else a bare NAME looked up as {model_dir}/NAME.bin.
std::string SpeechModelFilePath(const config::Config& config, const std::string& model);

// invalid_input unless `name` can be a model NAME: letters, digits, ".", "_" and "-", not
// starting with "." and without a ".gguf" or ".bin" suffix.
Status CheckModelName(const std::string& name);

// What to tell a user whose model NAME is not downloaded: the pull command for a catalog
// model, else how to pull any file with --url (a GGUF, or with kind kSpeech a whisper.cpp
// .bin and `--kind speech`).
std::string PullHint(const std::string& name, ModelKind kind = ModelKind::kEmbedding);

struct ModelEntry {
  std::string name;
  const CatalogModel* catalog = nullptr;  // null: a file in model_dir the catalog does not know
  // The catalog's kind; for other files kSpeech for NAME.bin and unknown (nullopt) for a
  // NAME.gguf, which may be an embedding or a chat model.
  std::optional<ModelKind> kind;
  std::string path;  // {model_dir}/NAME.gguf or NAME.bin (speech), present or not
  bool present = false;
  int64_t bytes = 0;          // size on disk when present
  int64_t partial_bytes = 0;  // size of {path}.part, an interrupted pull; 0 when none
  bool in_use = false;        // models.embedding (provider llama) loads this file
};

struct ModelListing {
  std::string model_dir;
  std::string hub;  // where catalog models are pulled from (HubEndpoint)
  // The catalog in order, then other *.gguf files by name, then other *.bin files by name.
  std::vector<ModelEntry> models;
  // The configured llama embedding model's file (possibly outside model_dir); empty when
  // models.embedding.provider is not "llama".
  std::string embedding_path;
  bool embedding_present = false;
};

// Never fails: an unreadable or missing model_dir lists the catalog as not downloaded.
ModelListing ListModels(const config::Config& config, const config::Environment& env);

// The downloaded model NAME; model_not_pulled (with PullHint) when its file is absent. A catalog
// NAME is the file its kind names; for any other NAME, NAME.gguf when it or its .part exists,
// else NAME.bin when it or its .part does.
Result<ModelEntry> InstalledModel(const config::Config& config, const std::string& name);

struct PullOptions {
  std::string name;
  std::string url;     // empty: the catalog's file on HubEndpoint(env); needed for other names
  std::string sha256;  // expected SHA-256; empty: the catalog's pin (unless url is given), else
                       // the one the server reports. The catalog's SHA-1 pin is checked as
                       // well, unless url is given.
  // What the file is: for a name the catalog does not know, kSpeech saves it as NAME.bin (a
  // whisper.cpp model) and anything else, or nothing, as NAME.gguf; for a catalog name it must
  // be the catalog's kind, if given.
  std::optional<ModelKind> kind;
  bool force = false;  // download again although the file exists
  // Called once a download is about to start (not when the file is already there), with the
  // bytes an earlier interrupted pull left to resume from.
  std::function<void(const std::string& url, const std::string& path, int64_t resume_from)>
      on_start;
  std::function<void(const DownloadProgress&)> on_progress;
  const std::atomic<bool>* cancel = nullptr;
  // Tests shorten the stall limit; users keep the defaults of DownloadRequest.
  int low_speed_secs = DownloadRequest{}.low_speed_secs;
};

struct PullReport {
  std::string name, url, path;
  // The catalog entry NAME names; null for a name the catalog does not know (pulled by --url).
  const CatalogModel* catalog = nullptr;
  std::optional<ModelKind> kind;  // the catalog's or PullOptions::kind
  bool already_present = false;   // the file existed and force was off: nothing downloaded
  int64_t bytes = 0;              // size of the file
  DownloadResult download;        // when downloaded
};

// Downloads model NAME to {model_dir}/NAME.gguf, or NAME.bin for a speech model (creating
// model_dir), resuming an earlier partial download; errors as Download's, plus invalid_input
// for a bad name or sha256, a kind that contradicts the catalog, or a name the catalog does
// not know given without a URL.
Result<PullReport> PullModel(const config::Config& config, const config::Environment& env,
                             const PullOptions& options);

struct RemoveReport {
  std::string name;
  std::vector<std::string> removed_paths;  // the file and/or its .part
  int64_t freed_bytes = 0;
  bool was_in_use = false;  // it was the configured embedding model
};

// Deletes the model file InstalledModel would find for NAME (NAME.gguf or NAME.bin) and its
// .part; model_not_pulled when neither exists.
Result<RemoveReport> RemoveModel(const config::Config& config, const std::string& name);

}  // namespace kebab::models
