// The MCP tools: each is a name, the schemas and annotations an agent reads, and a thin call
// into the app facade that returns the wire v1 object (structuredContent) and its plain-text
// rendering (the text block). Errors are the facade's Status; the protocol layer turns them
// into isError results.
#pragma once

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

struct Tool {
  std::string name, title, description;
  json input_schema, output_schema;
  bool writes = false;      // changes the index: hidden in a read-only session
  bool idempotent = false;  // calling twice with the same arguments has no further effect
  std::function<Result<ToolOutput>(app::Session&, const json& arguments)> call;
};

// Every tool, in the order tools/list shows them.
const std::vector<Tool>& Tools();

// The tools/list entry of `tool` (MCP Tool: name, title, description, inputSchema,
// outputSchema, annotations).
json Describe(const Tool& tool);

}  // namespace kebab::mcp::internal
