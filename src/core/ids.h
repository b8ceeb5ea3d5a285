// Content-derived identifiers (spec §4): every id is the first 32 hex chars of
// BLAKE3(canonical_json(tuple)), where canonical JSON has sorted keys, no whitespace and
// NFC-normalized strings. Changing any input of a recipe changes the id, which is how
// re-ingest, re-chunk and re-embed decisions cascade (§4.3).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace kebab {

// Canonical JSON text of `value`: keys sorted by UTF-8 bytes, no whitespace, every string
// (keys included) NFC-normalized, arrays in order.
std::string CanonicalJson(const nlohmann::json& value);

// First 32 hex chars of BLAKE3(CanonicalJson(tuple)).
std::string IdFrom(const nlohmann::json& tuple);

// Workspace-relative path in canonical form: POSIX slashes, NFC, no leading "./", no
// duplicate or trailing slashes, "." segments removed.
std::string NormalizeWorkspacePath(std::string_view path);

// `bytes` random bytes (the OS's entropy, /dev/urandom) as lowercase hex: secrets and
// session ids, never content ids.
std::string RandomHex(size_t bytes);

// The §4.2 recipes.
std::string AssetId(std::string_view content_blake3_hex);
std::string DocId(std::string_view workspace_path, std::string_view asset_id,
                  std::string_view parser_version);
std::string BlockId(std::string_view doc_id, std::string_view block_kind,
                    const std::vector<std::string>& heading_path, int ordinal,
                    const SourceSpan& source_span);
std::string ChunkId(std::string_view doc_id, std::string_view chunker_version,
                    const std::vector<std::string>& block_ids, std::string_view policy_hash);

}  // namespace kebab
