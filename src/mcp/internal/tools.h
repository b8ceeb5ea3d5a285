// The MCP tools: each is a name, the schemas and annotations an agent reads, and a thin call
// into the app facade that returns the wire v1 object (structuredContent) and its plain-text
// rendering (the text block). Errors are the facade's Status; the protocol layer turns them
// into isError results.
#pragma once

#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/session.h"
#include "core/status.h"

namespace kebab::mcp::internal {

using nlohmann::json;

struct ToolOutput {
  json structured;  // the wire v1 object
  std::string text;
};

// What a running call may use besides its arguments.
struct CallContext {
  // Set when the client cancels the request (notifications/cancelled). May be null.
  const std::atomic<bool>* cancel = nullptr;
  // Reports how far the call got (increasing; total 0 when unknown). Never null; a no-op when
  // the client sent no progress token. The server spaces the notifications out.
  std::function<void(double progress, double total, const std::string& message)> progress;
};

struct Tool {
  std::string name, title, description;
  json input_schema, output_schema;
  bool writes = false;      // changes the index: hidden in a read-only session
  bool idempotent = false;  // calling twice with the same arguments has no further effect
  std::function<Result<ToolOutput>(app::Session&, const json& arguments, const CallContext&)> call;
};

// Every tool, in the order tools/list shows them.
const std::vector<Tool>& Tools();

// The tools/list entry of `tool` (MCP Tool: name, title, description, inputSchema,
// outputSchema, annotations).
json Describe(const Tool& tool);

}  // namespace kebab::mcp::internal
