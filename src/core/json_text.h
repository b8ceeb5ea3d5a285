// Small, allocation-light JSON text writers for the hot ingest path (ids and stored JSON
// columns). Each appends to `out`, byte-identical to nlohmann::json's compact dump of the same
// value; strings must be valid UTF-8 (parsers sanitize their input).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace kebab {

// `s` as a JSON string literal (quotes, escapes; UTF-8 passed through).
void AppendJsonString(std::string& out, std::string_view s);

// ["a","b"] for a list of strings.
void AppendJsonStringArray(std::string& out, const std::vector<std::string>& values);

// SourceSpan::ToJson().
void AppendSpanJson(std::string& out, const SourceSpan& span);

// [span, span, ...].
void AppendSpansJson(std::string& out, const std::vector<SourceSpan>& spans);

// Block::PayloadJson().
void AppendBlockPayloadJson(std::string& out, const Block& block);

// Metadata::ToJson().
void AppendMetadataJson(std::string& out, const Metadata& metadata);

// [{"agent":…,"at":…,"kind":…,"note":…}, …].
void AppendProvenanceJson(std::string& out, const std::vector<ProvenanceEvent>& events);

}  // namespace kebab
