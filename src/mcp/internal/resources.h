// MCP resources: every indexed document is the resource kebab://doc/<workspace path>, listed a
// page at a time (resources/list), and resources/read returns a document or exactly the text a
// citation cites: kebab://doc/notes/x.md#L10-L14, or a hit's bare citation.uri
// (notes/x.md#L10-L14), so an agent can open what a search hit cites. Each is a thin call
// into the app facade; errors are its Status (doc_not_found for an unknown path, invalid_input
// for a bad cursor or URI), which the protocol layer maps to JSON-RPC errors.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/session.h"
#include "core/status.h"

namespace kebab::mcp::internal {

using nlohmann::json;

inline constexpr char kDocUriPrefix[] = "kebab://doc/";
inline constexpr int kResourcePageSize = 100;

// The resources/list result for `cursor` (empty: the first page; else a nextCursor it gave).
Result<json> ListResources(app::Session& session, const std::string& cursor);

// The resources/templates/list result.
json ResourceTemplates();

// The resources/read result for `uri`; contents[0].uri is `uri` as given.
Result<json> ReadResource(app::Session& session, const std::string& uri);

}  // namespace kebab::mcp::internal
