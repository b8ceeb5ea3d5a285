// `kebab models` through the facade: list, pull, path, rm and gc, one call each, so the CLI and
// a future MCP server show the same models and refuse the same writes. The file work is
// models/'s (models/models.h: catalog, names, download, what is on disk) and its types cross
// this facade unchanged; gc, which drops embedding spaces from the index, lives here so that
// models/ never needs the store.
//
// Read-only policy: pull, rm and gc (unless dry_run) change the model files or the index and
// fail with readonly_mode in a read-only session before touching anything; list and path only
// read. Thread safety: calls are independent and may run on any thread, except that two pulls
// of one NAME at once would share one .part file. `env` is where HF_ENDPOINT is read
// (config::ProcessEnvironment() in a real process).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/session.h"
#include "config/config.h"
#include "core/status.h"
#include "models/models.h"
#include "store/vectors.h"

namespace kebab::app {

// A byte count the way these reports show it to people ("36.7 MB", decimal units).
using models::HumanBytes;

// The catalog in order, then the other GGUF files, then the other speech model (.bin) files
// (and interrupted pulls) in the model directory, with the configured embedding model marked. Never
// fails: a missing or unreadable model directory lists the catalog as not downloaded.
models::ModelListing ListModels(Session& session, const config::Environment& env);

// Downloads model NAME into the model directory, resuming an earlier partial download and
// checking its SHA-256 (and a speech model's pinned SHA-1); progress reaches `options.on_start` /
// `options.on_progress` (called on this thread), and `options.cancel` stops it with the .part kept.
// readonly_mode in a read-only session; otherwise errors as models::PullModel's.
Result<models::PullReport> PullModel(Session& session, const config::Environment& env,
                                     const models::PullOptions& options);

struct ModelPathReport {
  models::ModelEntry model;
  std::string hub;  // where a catalog model is pulled from (HubEndpoint), for its catalog URL
};

// The downloaded model NAME; invalid_input for a bad name, model_not_pulled (the pull command
// as its hint) when the file is absent.
Result<ModelPathReport> ModelPath(Session& session, const config::Environment& env,
                                  const std::string& name);

// Deletes NAME.gguf or NAME.bin (a speech model) and its interrupted .part. The vectors made with
// the model stay in the index until GcSpaces. readonly_mode in a read-only session;
// model_not_pulled when neither file exists.
Result<models::RemoveReport> RemoveModel(Session& session, const std::string& name);

struct GcReport {
  bool dry_run = false;
  std::vector<store::StoredSpace> kept, removed;
  int64_t vectors_removed = 0;  // with dry_run: how many would go
};

// Deletes from the index every embedding space, with its vectors, that SpaceMatchesConfig
// (app/embed_stage.h) rejects: the vectors of models switched away from (`kebab reset
// --vector-only` drops all). dry_run only reports and opens the index read-only, so it is
// allowed in a read-only session; otherwise readonly_mode there. No index yet: an empty report.
// No embedding model configured: invalid_input, since every space would go.
Result<GcReport> GcSpaces(Session& session, bool dry_run);

}  // namespace kebab::app
