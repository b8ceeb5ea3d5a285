// kebab as a Model Context Protocol server (spec §10.2): JSON-RPC 2.0 over stdin/stdout (one
// message per line, MCP's stdio transport) or over MCP's Streamable HTTP transport. It speaks MCP
// 2025-11-25 and the older revisions clients still send (2025-06-18, 2025-03-26, 2024-11-05),
// answering initialize with the client's revision when it knows it. Every tool is a thin call into
// one app::Session, which keeps the models and the vector index warm for the server's lifetime and
// sees another process's ingest on the next call.
//
// A Connection is one client's protocol state (initialized or not, its calls in flight). Each
// tools/call runs on a thread of its own, so a long ask or ingest never holds up a search, a
// ping or the notifications/cancelled that stops it; it reports progress when the request
// carries a progress token, and a cancelled call sends no reply (as MCP asks).
//
// Errors: malformed JSON is -32700, an unknown method -32601, bad tool arguments -32602 naming
// the field; a failing tool is a result with isError and the error.v1 object. No input makes
// the server exit except the end of stdin (stdio) or `stop` (HTTP).
// Thread safety: a Connection may receive messages from several threads at once; the
// Sender it is given for a message may be called from another thread, but never concurrently
// for one message.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "app/session.h"
#include "core/status.h"

namespace kebab::mcp {

// What the server sends about one incoming message: progress notifications, then its reply.
// `last` is true on the final call for the message (whose `json` is the reply, or empty when
// there is none: a notification, or a request that was cancelled).
struct Outgoing {
  std::string json;
  bool last = false;
};
using Sender = std::function<void(Outgoing)>;

class Connection {
 public:
  explicit Connection(app::Session& session);
  // Waits for the calls still running (their replies still go out).
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Handles one JSON-RPC message. Everything but tools/call is answered before this returns;
  // a tools/call runs on its own thread and sends its progress and reply from there.
  void Receive(std::string_view message, Sender send);

  // The reply to one message, waiting for a tools/call to finish (tests, simple callers).
  std::optional<std::string> HandleLine(std::string_view message);

  // Blocks until no call is running and every call's thread has ended.
  void WaitIdle();

  bool initialized() const;

 private:
  struct Call;
  // The reply to a request other than tools/call.
  nlohmann::json Answer(const std::string& method, const nlohmann::json& id,
                        const nlohmann::json& params);
  // Starts a tools/call on its own thread, or returns the reply that refuses it.
  std::optional<nlohmann::json> StartCall(const nlohmann::json& id, const nlohmann::json& params,
                                          Sender send);

  app::Session& session_;
  mutable std::mutex mu_;
  std::condition_variable idle_;
  bool initialized_ = false;
  std::map<std::string, std::shared_ptr<Call>> calls_;  // by the request id's JSON text
  // Threads of calls that are done, joined by the next call or WaitIdle. Joined, never
  // detached: a process that exits while a call's thread still runs its thread-local
  // destructors (OpenSSL's per-thread state after an HTTP call to a model) leaves that state
  // behind, which LeakSanitizer rightly reports.
  std::vector<std::thread> finished_;
};

// Answers lines of `in` on `out` until `in` ends, then waits for the calls still running.
void ServeStdio(app::Session& session, std::istream& in, std::ostream& out);

struct HttpOptions {
  std::string host = "127.0.0.1";
  int port = 0;
  // Every request must carry `Authorization: Bearer <token>`.
  std::string token;
  // Called once the socket listens, with the endpoint's URL (http://host:port/mcp).
  std::function<void(const std::string& url)> on_listening;
};

// Serves MCP's Streamable HTTP transport at /mcp until `stop` is set (checked a few times a
// second) or the socket fails: POST carries one message (a request is answered with JSON, or
// with an event stream when it asked for progress), GET is 405 (no server-initiated stream),
// DELETE ends the client's session. Requests from an Origin other than a loopback one are
// refused (403), as are those without the token (401). Each Mcp-Session-Id is a Connection.
// io_error when the address cannot be bound.
Status ServeHttp(app::Session& session, const HttpOptions& options, const std::atomic<bool>& stop);

}  // namespace kebab::mcp
