// The arguments of an operation (app/api.h; MCP's tools) against its input schema: the subset
// of JSON Schema the operations declare (an object of string, integer, number, boolean, enum
// and array properties; required; minimum / maximum; minItems / maxItems; no additional
// properties), checked before any facade call so that a wrong argument is the caller's error
// naming the field (MCP's -32602), not an error deep inside a search.
// Thread safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/status.h"

namespace kebab::app {

using nlohmann::json;

// Schema builders: each property carries the description an agent reads.
json Str(std::string description);
json Int(std::string description, std::optional<long long> minimum = std::nullopt,
         std::optional<long long> maximum = std::nullopt);
json Num(std::string description, double minimum, double maximum);
json Bool(std::string description);
json Enum(std::string description, std::initializer_list<const char*> values);
json StrList(std::string description);
// {"type": "object", "properties": ..., "required": ..., "additionalProperties": false}.
json Object(json properties, std::initializer_list<const char*> required = {});

// OK, or kInvalidInput whose message names the argument ("argument 'k' must be an integer").
Status CheckArguments(const json& schema, const json& arguments);

}  // namespace kebab::app
