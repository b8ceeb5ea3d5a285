// `kebab serve`'s transport: one long-running process per knowledge base (per data dir) that
// owns an app::Session for its lifetime (warm models, vector index, store handles) and answers
// the operations of app/api.h over a Unix domain socket, so that the CLI, `kebab mcp` and the
// web UI are clients of the same calls.
//
// Where: the socket is in a 0700 directory of the user's ($XDG_RUNTIME_DIR/kebab/, else
// {state_dir}/run/), named by a hash of the data dir, and is 0600; a connecting peer of
// another uid is refused (SO_PEERCRED). The data dir holds serve.lock, which the service keeps
// locked (flock) while it runs and in which it writes its pid and socket: a second service for
// the same data dir is refused with an error naming the first.
//
// Protocol: one request per connection, one JSON object per line. The client sends
//   {"op": NAME, "args": {...}, "config": FINGERPRINT}
// and the service answers, after {"event": <...>} lines from an operation that reports its
// progress (ingest: ingest_progress.v1), with one line:
//   {"pid": N, "result": <wire v1 object>}   or   {"pid": N, "error": <error.v1>}
// While such an operation runs, a line {"cancel": true} from the client, or its hanging up,
// stops it as Ctrl-C stops it in-process (the reply still comes, its report says aborted).
// or, when the client loaded another configuration than the service (ConfigFingerprint), with
// {"pid": N, "config_mismatch": true}: the client then runs the call itself. The service's own
// operation `status` answers status.v1.
//
// Thread safety: Serve runs each connection on a thread of its own against the one Session
// (app/session.h says what it shares). A Client is one call's connection; use it from one thread.
// Errors: Status throughout; a peer's malformed request is answered with invalid_input.
#pragma once

#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "app/session.h"
#include "config/config.h"
#include "core/status.h"

namespace kebab::service {

struct Endpoint {
  std::string socket_dir;  // 0700, the user's
  std::string socket;      // socket_dir/serve-<hash of the data dir>.sock
  std::string lock;        // {data_dir}/serve.lock
};

// The endpoint of the service for `config`'s data dir. $XDG_RUNTIME_DIR comes from `env`.
Endpoint EndpointFor(const config::Config& config, const config::Environment& env);

// What identifies a configuration to the service: a hash of the loaded config (config::ToJson),
// so that a client whose config file or KEBAB_* settings differ never gets the service's answer.
std::string ConfigFingerprint(const config::Config& config);

struct ServeOptions {
  // One line of log for each thing worth knowing (started, a refused peer, a failed call).
  std::function<void(const std::string& line)> log;
  // Called once the socket listens.
  std::function<void()> on_listening;
  // Keep the index current as files change ([watch]; service/internal/watch.h).
  bool watch = true;
};

// Takes the lock, listens on the socket and answers connections until `stop` is set (checked a
// few times a second), then waits for the calls still running and removes the socket.
// io_error naming the running service (its pid and socket) when another holds the lock; io_error
// when the socket directory is not the user's alone or the socket cannot be bound.
Status Serve(app::Session& session, const Endpoint& endpoint, const ServeOptions& options,
             const std::atomic<bool>& stop);

// What serve.lock says about a running service, or nullopt when none holds it.
struct RunningService {
  long pid = 0;
  std::string socket, started_at;
};
std::optional<RunningService> FindRunning(const Endpoint& endpoint);

// One call to a running service.
struct Reply {
  long pid = 0;                  // the service's
  bool config_mismatch = false;  // it runs with another configuration: run the call yourself
  Result<nlohmann::json> result = nlohmann::json();
};

// What a call may do while it waits for the reply.
struct CallOptions {
  std::function<void(const nlohmann::json& event)> on_event;  // the operation's progress
  const std::atomic<bool>* cancel = nullptr;  // set: ask the service to stop the operation
};

// The reply to `op` with `args`, or nullopt when no service listens at `endpoint` (no socket,
// or nothing accepting on it: a service that died), so the caller runs the call in-process.
// io_error when the service accepted the call but the connection broke before its reply.
Result<std::optional<Reply>> Call(const Endpoint& endpoint, std::string_view op,
                                  const nlohmann::json& args, const std::string& fingerprint,
                                  const CallOptions& options = {});

}  // namespace kebab::service
