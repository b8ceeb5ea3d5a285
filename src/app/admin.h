// Administrative facade calls: init, doctor, schema (capabilities) and reset.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/ingest.h"
#include "app/session.h"
#include "config/config.h"
#include "store/store.h"

namespace kebab::app {

inline constexpr char kKebabVersion[] = "0.1.0";

// The bearer token `kebab mcp --http` requires of every request.
struct McpToken {
  std::string token;
  std::string source;      // "--token", "KEBAB_MCP_TOKEN", or the file it is kept in
  bool generated = false;  // just created in `source`: say it once
};

// `given` (from `given_source`: --token or KEBAB_MCP_TOKEN) when set; else the token kept in
// <state_dir>/mcp-token, created there (mode 0600, 256 random bits as hex) when absent, so
// that a client configured once keeps working across restarts. io_error when the file cannot
// be read or written; invalid_input for a given token shorter than 16 characters.
Result<McpToken> ResolveMcpToken(const config::Config& config, std::optional<std::string> given,
                                 std::string given_source);

struct InitReport {
  struct Line {
    std::string verb;  // created | kept | overwrote | opened
    std::string path;
    std::string note;
  };
  std::vector<Line> lines;
  std::string config_path;
  std::string workspace_root;
};

// Writes the annotated default config to `config_path` (kept unless `force`), creates the
// data, cache and state directories and the workspace root, and creates the index.
// Fails with readonly_mode in a read-only `options`.
Result<InitReport> Init(const std::string& config_path, bool force, const config::Environment& env,
                        SessionOptions options = {});

// What the service's watch of the workspace is doing (status.v1's service.watch).
struct WatchStatus {
  enum class State {
    kOff,       // [watch] enabled = false, or a read-only service
    kStarting,  // the catch-up scan at start
    kWatching,  // waiting for changes
    kUpdating,  // indexing a burst of changes
    kPaused,    // the root is gone (an unmounted disk): nothing purged, waiting for it
  };
  State state = State::kOff;
  bool notifications = false;  // inotify watches the folders (else scans only)
  std::string root;
  uint64_t directories = 0;  // folders watched
  uint64_t updates = 0;      // ingests the watch ran
  std::string last_update_at;
  IngestCounts last_counts;           // of the last update
  std::vector<std::string> warnings;  // the latest few, newest last
};
std::string_view WatchStateName(WatchStatus::State state);

// What `kebab status` says (status.v1): whether a service (`kebab serve`) runs for the data dir,
// and what it holds.
struct ServiceStatus {
  bool running = false;
  long pid = 0;
  std::string started_at, socket;
  double uptime_s = 0;
  uint64_t requests = 0;  // calls answered since it started
  int in_flight = 0;      // calls running now
  uint64_t rss_bytes = 0;
  SessionResources loaded;
  WatchStatus watch;
};
struct StatusReport {
  std::string data_dir, config_path;
  ServiceStatus service;
};

struct DoctorCheck {
  std::string name;
  bool ok = true;
  std::string detail;
  std::string hint;
};

struct DoctorReport {
  bool ok = true;
  std::vector<DoctorCheck> checks;
};

// Runs every health check. `session` is null when loading the config failed (load_status
// says why).
DoctorReport Doctor(Session* session, const Status& load_status, const std::string& config_path);

struct SchemaInfo {
  std::vector<std::string> wire_schemas;
  std::map<std::string, bool> capabilities;
  std::string parser_version, chunker_version, index_version, prompt_template_version;
  std::string stemmer;
  int64_t corpus_revision = 0;
  store::StoreStats stats;
  std::vector<store::StoredSpace> embedding_spaces;
  std::optional<std::string> embedding_version;  // "provider:model@version" when configured
  bool indexed = false;
};

Result<SchemaInfo> Schema(Session& session);

// kVectorOnly deletes every embedding space and vector from the index (documents, chunks and
// the lexical index stay), e.g. after switching models; the next ingest re-embeds.
enum class ResetScope { kAll, kDataOnly, kConfigOnly, kVectorOnly };

struct ResetReport {
  ResetScope scope = ResetScope::kDataOnly;
  std::vector<std::string> removed_paths;
  std::vector<std::string> kept_paths;
  int64_t vectors_removed = 0;  // kVectorOnly
};

// Paths a reset of `scope` removes (for the confirmation prompt).
std::vector<std::string> ResetTargets(Session& session, ResetScope scope);
Result<ResetReport> Reset(Session& session, ResetScope scope);

}  // namespace kebab::app
