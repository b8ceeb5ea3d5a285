// Small, allocation-light JSON text writers for the hot ingest path (ids and stored JSON
// columns). Output is byte-identical to nlohmann::json's compact dump of the same value.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace kebab {

// Appends `s` as a JSON string literal (quotes, escapes; UTF-8 passed through).
void AppendJsonString(std::string& out, std::string_view s);

// ["a","b"] for a list of strings.
std::string JsonStringArray(const std::vector<std::string>& values);

// SourceSpan::ToJson().dump() without building the object.
std::string SpanJson(const SourceSpan& span);

// [span, span, ...].
std::string SpansJson(const std::vector<SourceSpan>& spans);

// block.PayloadJson().dump() without building the object.
std::string BlockPayloadJson(const Block& block);

}  // namespace kebab
