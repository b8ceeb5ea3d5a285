#include "core/ids.h"

#include "core/hash.h"
#include "core/unicode.h"

namespace kebab {
namespace {

nlohmann::json Normalized(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::string:
      return Nfc(v.get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& e : v) out.push_back(Normalized(e));
      return out;
    }
    case nlohmann::json::value_t::object: {
      // nlohmann::json objects are std::map-backed, so keys come out sorted by bytes.
      nlohmann::json out = nlohmann::json::object();
      for (const auto& [k, e] : v.items()) out[Nfc(k)] = Normalized(e);
      return out;
    }
    default:
      return v;
  }
}

}  // namespace

std::string CanonicalJson(const nlohmann::json& value) {
  return Normalized(value).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string IdFrom(const nlohmann::json& tuple) {
  return Blake3Hex(CanonicalJson(tuple)).substr(0, 32);
}

std::string NormalizeWorkspacePath(std::string_view path) {
  std::string p = Nfc(path);
  for (char& c : p) {
    if (c == '\\') c = '/';
  }
  std::string out;
  out.reserve(p.size());
  size_t i = 0;
  while (i <= p.size()) {
    size_t j = p.find('/', i);
    if (j == std::string::npos) j = p.size();
    std::string_view seg(p.data() + i, j - i);
    if (!seg.empty() && seg != ".") {
      if (!out.empty()) out += '/';
      out += seg;
    }
    i = j + 1;
  }
  return out;
}

std::string AssetId(std::string_view content_blake3_hex) {
  return IdFrom({{"kind", "asset"}, {"asset_blake3", content_blake3_hex}});
}

std::string DocId(std::string_view workspace_path, std::string_view asset_id,
                  std::string_view parser_version) {
  return IdFrom({{"kind", "doc"},
                 {"workspace_path", NormalizeWorkspacePath(workspace_path)},
                 {"asset_id", asset_id},
                 {"parser_version", parser_version}});
}

std::string BlockId(std::string_view doc_id, std::string_view block_kind,
                    const std::vector<std::string>& heading_path, int ordinal,
                    const nlohmann::json& source_span) {
  return IdFrom({{"kind", "block"},
                 {"doc_id", doc_id},
                 {"block_kind", block_kind},
                 {"heading_path", heading_path},
                 {"ordinal", ordinal},
                 {"source_span", source_span}});
}

std::string ChunkId(std::string_view doc_id, std::string_view chunker_version,
                    const std::vector<std::string>& block_ids, std::string_view policy_hash) {
  return IdFrom({{"kind", "chunk"},
                 {"doc_id", doc_id},
                 {"chunker_version", chunker_version},
                 {"block_ids", block_ids},
                 {"policy_hash", policy_hash}});
}

}  // namespace kebab
