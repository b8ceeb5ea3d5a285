#include "mcp/server.h"

#include <array>
#include <chrono>
#include <future>
#include <istream>
#include <ostream>
#include <thread>

#include "app/admin.h"
#include "app/json_args.h"
#include "app/wire.h"
#include "mcp/internal/resources.h"
#include "mcp/internal/tools.h"

namespace kebab::mcp {
namespace {

using nlohmann::json;

// Newest first: the first is what a client that asks for something else is offered.
constexpr std::array<std::string_view, 4> kProtocolVersions = {"2025-11-25", "2025-06-18",
                                                               "2025-03-26", "2024-11-05"};

// JSON-RPC 2.0 error codes, and MCP's for an unknown resource.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;
constexpr int kResourceNotFound = -32002;

// Progress notifications come no closer together than this (a fast model's pieces or a big
// ingest's files would otherwise flood the client), except the one that reaches the total.
constexpr auto kProgressInterval = std::chrono::milliseconds(100);

json Reply(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json Failure(const json& id, int code, std::string message, json data = nullptr) {
  json error = {{"code", code}, {"message", std::move(message)}};
  if (!data.is_null()) error["data"] = std::move(data);
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}

std::string Dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// A resource call's failure as JSON-RPC: the caller's mistake is -32602, an unknown document
// MCP's -32002, anything else an internal error; each carries the error.v1 object as data.
json ResourceFailure(const json& id, const Status& status) {
  int code = kInternalError;
  if (status.code() == ErrorCode::kInvalidInput) code = kInvalidParams;
  if (status.code() == ErrorCode::kDocNotFound) code = kResourceNotFound;
  return Failure(id, code, status.message(), app::wire::Error(status));
}

// The result of one tool call: structuredContent (the wire v1 object or error.v1) and a text
// block with what a model reads well.
json ToolResult(const Result<internal::ToolOutput>& output) {
  if (!output.ok()) {
    // The error.v1 object, also as text for clients that read only text (each tool's
    // outputSchema admits error.v1 beside its result).
    const json error = app::wire::Error(output.status());
    return {{"content", {{{"type", "text"}, {"text", Dump(error)}}}},
            {"structuredContent", error},
            {"isError", true}};
  }
  return {{"content", {{{"type", "text"}, {"text", output->text}}}},
          {"structuredContent", output->structured},
          {"isError", false}};
}

const internal::Tool* FindTool(const std::string& name, bool readonly) {
  for (const internal::Tool& t : internal::Tools()) {
    if (t.name == name && !(t.writes && readonly)) return &t;
  }
  return nullptr;
}

}  // namespace

struct Connection::Call {
  std::atomic<bool> cancelled{false};
  std::thread thread;  // set under mu_ before the thread can reach its end
};

Connection::Connection(app::Session& session) : session_(session) {}

Connection::~Connection() {
  WaitIdle();
}

bool Connection::initialized() const {
  std::lock_guard lock(mu_);
  return initialized_;
}

void Connection::WaitIdle() {
  std::vector<std::thread> finished;
  {
    std::unique_lock lock(mu_);
    idle_.wait(lock, [&] { return calls_.empty(); });
    finished.swap(finished_);
  }
  for (std::thread& t : finished) t.join();
}

void Connection::Receive(std::string_view line, Sender send) {
  const json message = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) {
    send({Dump(Failure(nullptr, kParseError, "parse error: not JSON")), true});
    return;
  }
  if (message.is_object() && message.value("jsonrpc", "") == "2.0" && !message.contains("method") &&
      message.contains("id") && (message.contains("result") || message.contains("error"))) {
    send({"", true});  // a response to a request the server never sends: nothing to do
    return;
  }
  if (!message.is_object() || message.value("jsonrpc", "") != "2.0" ||
      !message.contains("method") || !message["method"].is_string()) {
    const json id = message.is_object() && message.contains("id") ? message["id"] : json(nullptr);
    send({Dump(Failure(id, kInvalidRequest,
                       message.is_array() ? "batches are not supported (MCP 2025-06-18 and later)"
                                          : "not a JSON-RPC 2.0 request")),
          true});
    return;
  }
  const std::string method = message["method"];
  const bool notification = !message.contains("id");
  const json id = notification ? json(nullptr) : message["id"];
  if (!id.is_null() && !id.is_string() && !id.is_number_integer()) {
    send({Dump(Failure(nullptr, kInvalidRequest, "id must be a string or an integer")), true});
    return;
  }
  const json params = message.value("params", json::object());
  if (notification) {
    // notifications/cancelled stops the call it names; initialized and progress need nothing.
    if (method == "notifications/cancelled" && params.is_object() && params.contains("requestId")) {
      std::lock_guard lock(mu_);
      if (auto it = calls_.find(Dump(params["requestId"])); it != calls_.end()) {
        it->second->cancelled = true;
      }
    }
    send({"", true});
    return;
  }
  if (method == "tools/call") {
    if (std::optional<json> refused = StartCall(id, params, send)) send({Dump(*refused), true});
    return;
  }
  send({Dump(Answer(method, id, params)), true});
}

json Connection::Answer(const std::string& method, const json& id, const json& params) {
  if (method == "initialize") {
    const std::string asked = params.is_object() && params.contains("protocolVersion") &&
                                      params["protocolVersion"].is_string()
                                  ? params["protocolVersion"].get<std::string>()
                                  : "";
    std::string_view version = kProtocolVersions.front();
    for (std::string_view known : kProtocolVersions) {
      if (known == asked) version = known;
    }
    {
      std::lock_guard lock(mu_);
      initialized_ = true;
    }
    return Reply(
        id,
        {{"protocolVersion", version},
         {"capabilities",
          {{"tools", {{"listChanged", false}}},
           {"resources", {{"listChanged", false}, {"subscribe", false}}}}},
         {"serverInfo",
          {{"name", "kebab"}, {"title", "kebab knowledge base"}, {"version", app::kKebabVersion}}},
         {"instructions",
          "kebab searches the user's own indexed notes, documents and code (" +
              session_.config().workspace.root +
              "). Use search for passages with exact citations, fetch (or resources/read of a "
              "hit's citation.uri) to read what a hit cites, ask for an answer checked against "
              "its sources."}});
  }
  if (method == "ping") return Reply(id, json::object());
  if (!initialized()) {
    return Failure(id, kInvalidRequest, "the session is not initialized: send initialize first");
  }
  if (method == "tools/list") {
    json tools = json::array();
    for (const internal::Tool& tool : internal::Tools()) {
      if (tool.writes && session_.readonly()) continue;
      tools.push_back(internal::Describe(tool));
    }
    return Reply(id, {{"tools", std::move(tools)}});
  }
  if (method == "resources/list") {
    json cursor = params.is_object() ? params.value("cursor", json()) : json();
    if (!cursor.is_null() && !cursor.is_string()) {
      return Failure(id, kInvalidParams, "resources/list: cursor must be a string");
    }
    Result<json> page =
        internal::ListResources(session_, cursor.is_string() ? cursor.get<std::string>() : "");
    return page.ok() ? Reply(id, *std::move(page)) : ResourceFailure(id, page.status());
  }
  if (method == "resources/templates/list") return Reply(id, internal::ResourceTemplates());
  if (method == "resources/read") {
    if (!params.is_object() || !params.contains("uri") || !params["uri"].is_string()) {
      return Failure(id, kInvalidParams, "resources/read needs params.uri, a string");
    }
    Result<json> read = internal::ReadResource(session_, params["uri"].get<std::string>());
    return read.ok() ? Reply(id, *std::move(read)) : ResourceFailure(id, read.status());
  }
  return Failure(id, kMethodNotFound, "method not found: " + method);
}

std::optional<json> Connection::StartCall(const json& id, const json& params, Sender send) {
  if (!initialized()) {
    return Failure(id, kInvalidRequest, "the session is not initialized: send initialize first");
  }
  if (!params.is_object() || !params.contains("name") || !params["name"].is_string()) {
    return Failure(id, kInvalidParams, "tools/call needs params.name");
  }
  const std::string name = params["name"];
  const internal::Tool* tool = FindTool(name, session_.readonly());
  if (tool == nullptr) {
    return Failure(id, kInvalidParams,
                   "unknown tool '" + name + "'" +
                       (session_.readonly() ? " (read-only: writing tools are off)" : ""));
  }
  json arguments = params.value("arguments", json::object());
  if (Status checked = app::CheckArguments(tool->input_schema, arguments); !checked.ok()) {
    return Failure(id, kInvalidParams, checked.message());
  }
  json token;
  if (params.contains("_meta") && params["_meta"].is_object()) {
    token = params["_meta"].value("progressToken", json());
  }

  const std::string key = Dump(id);
  auto call = std::make_shared<Call>();
  std::lock_guard lock(mu_);
  if (!calls_.emplace(key, call).second) {
    return Failure(id, kInvalidRequest, "request id " + key + " is already running");
  }
  // Calls done since the last one: their threads are past their last use of the connection.
  for (std::thread& t : finished_) t.join();
  finished_.clear();
  call->thread = std::thread(
      [this, tool, id, key, call, token, send = std::move(send), arguments = std::move(arguments)] {
        internal::CallContext ctx;
        ctx.cancel = &call->cancelled;
        auto last_sent = std::chrono::steady_clock::time_point();
        double last_progress = 0;
        ctx.progress = [&](double progress, double total, const std::string& message) {
          if ((!token.is_string() && !token.is_number_integer()) || progress <= last_progress)
            return;
          const auto now = std::chrono::steady_clock::now();
          if (now - last_sent < kProgressInterval && !(total > 0 && progress >= total)) return;
          last_sent = now;
          last_progress = progress;
          json p = {{"progressToken", token}, {"progress", progress}, {"message", message}};
          if (total > 0) p["total"] = total;
          send({Dump({{"jsonrpc", "2.0"}, {"method", "notifications/progress"}, {"params", p}}),
                false});
        };
        const json result = ToolResult(tool->call(session_, arguments, ctx));
        // A cancelled request gets no reply (MCP: the client has stopped waiting for it).
        send({call->cancelled ? "" : Dump(Reply(id, result)), true});
        // Last: once calls_ is empty WaitIdle may join this thread and the connection be
        // destroyed, so nothing of it is touched after the lock is released.
        std::lock_guard lock(mu_);
        finished_.push_back(std::move(call->thread));
        calls_.erase(key);
        idle_.notify_all();
      });
  return std::nullopt;
}

std::optional<std::string> Connection::HandleLine(std::string_view line) {
  std::promise<std::string> reply;
  std::future<std::string> got = reply.get_future();
  Receive(line, [&reply](Outgoing out) {
    if (out.last) reply.set_value(std::move(out.json));
  });
  std::string json = got.get();
  if (json.empty()) return std::nullopt;
  return json;
}

void ServeStdio(app::Session& session, std::istream& in, std::ostream& out) {
  std::mutex out_mu;
  const Sender send = [&](Outgoing message) {
    if (message.json.empty()) return;
    std::lock_guard lock(out_mu);
    out << message.json << '\n';
    out.flush();
  };
  Connection connection(session);
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    connection.Receive(line, send);
  }
  connection.WaitIdle();
}

}  // namespace kebab::mcp
