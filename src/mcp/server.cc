#include "mcp/server.h"

#include <array>
#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "app/admin.h"
#include "app/wire.h"
#include "mcp/internal/args.h"
#include "mcp/internal/tools.h"

namespace kebab::mcp {
namespace {

using nlohmann::json;

// Newest first: the first is what a client that asks for something else is offered.
constexpr std::array<std::string_view, 4> kProtocolVersions = {"2025-11-25", "2025-06-18",
                                                               "2025-03-26", "2024-11-05"};

// JSON-RPC 2.0 error codes.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;

json Reply(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json Failure(const json& id, int code, std::string message) {
  return {
      {"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", std::move(message)}}}};
}

std::string Dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

Server::Server(app::Session& session) : session_(session) {}

std::optional<std::string> Server::HandleLine(std::string_view line) {
  const json message = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) return Dump(Failure(nullptr, kParseError, "parse error: not JSON"));
  if (!message.is_object() || message.value("jsonrpc", "") != "2.0" ||
      !message.contains("method") || !message["method"].is_string()) {
    const json id = message.is_object() && message.contains("id") ? message["id"] : json(nullptr);
    return Dump(Failure(id, kInvalidRequest,
                        message.is_array() ? "batches are not supported (MCP 2025-06-18 and later)"
                                           : "not a JSON-RPC 2.0 request"));
  }
  const std::string method = message["method"];
  const bool notification = !message.contains("id");
  const json id = notification ? json(nullptr) : message["id"];
  if (!id.is_null() && !id.is_string() && !id.is_number_integer()) {
    return Dump(Failure(nullptr, kInvalidRequest, "id must be a string or an integer"));
  }
  const json params = message.value("params", json::object());
  if (notification) return std::nullopt;  // initialized, cancelled, progress: nothing to say

  if (method == "initialize") {
    const std::string asked = params.value("protocolVersion", "");
    std::string_view version = kProtocolVersions.front();
    for (std::string_view known : kProtocolVersions) {
      if (known == asked) version = known;
    }
    initialized_ = true;
    const config::Config& config = session_.config();
    return Dump(Reply(
        id,
        {{"protocolVersion", version},
         {"capabilities", {{"tools", {{"listChanged", false}}}}},
         {"serverInfo",
          {{"name", "kebab"}, {"title", "kebab knowledge base"}, {"version", app::kKebabVersion}}},
         {"instructions",
          "kebab searches the user's own indexed notes, documents and code (" +
              config.workspace.root +
              "). Use search for passages with exact citations, fetch to read what a hit "
              "cites, ask for an answer checked against its sources."}}));
  }
  if (method == "ping") return Dump(Reply(id, json::object()));
  if (!initialized_) {
    return Dump(
        Failure(id, kInvalidRequest, "the session is not initialized: send initialize first"));
  }
  if (method == "tools/list") {
    json tools = json::array();
    for (const internal::Tool& tool : internal::Tools()) {
      if (tool.writes && session_.readonly()) continue;
      tools.push_back(internal::Describe(tool));
    }
    return Dump(Reply(id, {{"tools", std::move(tools)}}));
  }
  if (method == "tools/call") {
    if (!params.is_object() || !params.contains("name") || !params["name"].is_string()) {
      return Dump(Failure(id, kInvalidParams, "tools/call needs params.name"));
    }
    const std::string name = params["name"];
    const internal::Tool* tool = nullptr;
    for (const internal::Tool& t : internal::Tools()) {
      if (t.name == name && !(t.writes && session_.readonly())) tool = &t;
    }
    if (tool == nullptr) {
      return Dump(Failure(id, kInvalidParams,
                          "unknown tool '" + name + "'" +
                              (session_.readonly() ? " (read-only: writing tools are off)" : "")));
    }
    const json arguments = params.value("arguments", json::object());
    if (Status checked = internal::CheckArguments(tool->input_schema, arguments); !checked.ok()) {
      return Dump(Failure(id, kInvalidParams, checked.message()));
    }
    Result<internal::ToolOutput> output = tool->call(session_, arguments);
    if (!output.ok()) {
      // The error.v1 object, also as text for clients that read only text (each tool's
      // outputSchema admits error.v1 beside its result).
      const json error = app::wire::Error(output.status());
      return Dump(Reply(id, {{"content", {{{"type", "text"}, {"text", Dump(error)}}}},
                             {"structuredContent", error},
                             {"isError", true}}));
    }
    return Dump(Reply(id, {{"content", {{{"type", "text"}, {"text", output->text}}}},
                           {"structuredContent", std::move(output->structured)},
                           {"isError", false}}));
  }
  return Dump(Failure(id, kMethodNotFound, "method not found: " + method));
}

void Server::Serve(std::istream& in, std::ostream& out) {
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (std::optional<std::string> reply = HandleLine(line)) {
      out << *reply << '\n';
      out.flush();
    }
  }
}

}  // namespace kebab::mcp
