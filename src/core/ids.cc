#include "core/ids.h"

#include <random>

#include "core/hash.h"
#include "core/json_text.h"
#include "core/unicode.h"

namespace kebab {
namespace {

bool IsAscii(std::string_view s) {
  for (unsigned char c : s) {
    if (c >= 0x80) return false;
  }
  return true;
}

// The first 32 hex chars of BLAKE3(canonical).
std::string IdOfCanonical(std::string_view canonical) {
  unsigned char digest[16];
  Blake3Prefix(canonical, digest, sizeof digest);
  return ToHex(digest, sizeof digest);
}

void AppendString(std::string_view s, std::string& out) {
  if (IsKnownNfc(s)) {
    AppendJsonString(out, s);
  } else {
    AppendJsonString(out, Nfc(s));
  }
}

// Writes canonical JSON without copying the value. Object keys come sorted from the
// std::map-backed json; NFC can only reorder keys that are not ASCII, so those (never used
// by kebab's recipes) take the normalizing copy first.
void AppendCanonical(const nlohmann::json& v, std::string& out);

nlohmann::json Normalized(const nlohmann::json& v);

void AppendCanonical(const nlohmann::json& v, std::string& out) {
  switch (v.type()) {
    case nlohmann::json::value_t::string:
      AppendString(v.get_ref<const std::string&>(), out);
      return;
    case nlohmann::json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& e : v) {
        if (!first) out += ',';
        first = false;
        AppendCanonical(e, out);
      }
      out += ']';
      return;
    }
    case nlohmann::json::value_t::object: {
      for (const auto& [k, e] : v.items()) {
        if (!IsAscii(k)) {
          out += Normalized(v).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
          return;
        }
      }
      out += '{';
      bool first = true;
      for (const auto& [k, e] : v.items()) {
        if (!first) out += ',';
        first = false;
        AppendString(k, out);
        out += ':';
        AppendCanonical(e, out);
      }
      out += '}';
      return;
    }
    default:
      out += v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
}

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
  std::string out;
  out.reserve(128);
  AppendCanonical(value, out);
  return out;
}

std::string IdFrom(const nlohmann::json& tuple) {
  return IdOfCanonical(CanonicalJson(tuple));
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

// The ids of the hot recipes below write their canonical JSON directly, keys in sorted order:
// they run for every document, block and chunk an ingest writes.
std::string AssetId(std::string_view content_blake3_hex) {
  std::string out;
  out.reserve(96 + content_blake3_hex.size());
  out += "{\"asset_blake3\":";
  AppendString(content_blake3_hex, out);
  out += ",\"kind\":\"asset\"}";
  return IdOfCanonical(out);
}

std::string DocId(std::string_view workspace_path, std::string_view asset_id,
                  std::string_view parser_version) {
  std::string out;
  out.reserve(128 + workspace_path.size());
  out += "{\"asset_id\":";
  AppendString(asset_id, out);
  out += ",\"kind\":\"doc\",\"parser_version\":";
  AppendString(parser_version, out);
  out += ",\"workspace_path\":";
  AppendString(NormalizeWorkspacePath(workspace_path), out);
  out += '}';
  return IdOfCanonical(out);
}

std::string BlockId(std::string_view doc_id, std::string_view block_kind,
                    const std::vector<std::string>& heading_path, int ordinal,
                    const SourceSpan& source_span) {
  size_t heading_bytes = 0;
  for (const auto& h : heading_path) heading_bytes += h.size() + 3;
  std::string out;
  out.reserve(224 + heading_bytes);
  out += "{\"block_kind\":";
  AppendString(block_kind, out);
  out += ",\"doc_id\":";
  AppendString(doc_id, out);
  out += ",\"heading_path\":[";
  for (size_t i = 0; i < heading_path.size(); ++i) {
    if (i) out += ',';
    AppendString(heading_path[i], out);
  }
  out += "],\"kind\":\"block\",\"ordinal\":";
  out += std::to_string(ordinal);
  out += ",\"source_span\":";
  // A span's JSON has sorted keys, ASCII strings and integers only: already canonical.
  AppendSpanJson(out, source_span);
  out += '}';
  return IdOfCanonical(out);
}

std::string ChunkId(std::string_view doc_id, std::string_view chunker_version,
                    const std::vector<std::string>& block_ids, std::string_view policy_hash) {
  std::string out;
  out.reserve(160 + policy_hash.size() + 35 * block_ids.size());
  out += "{\"block_ids\":[";
  for (size_t i = 0; i < block_ids.size(); ++i) {
    if (i) out += ',';
    AppendString(block_ids[i], out);
  }
  out += "],\"chunker_version\":";
  AppendString(chunker_version, out);
  out += ",\"doc_id\":";
  AppendString(doc_id, out);
  out += ",\"kind\":\"chunk\",\"policy_hash\":";
  AppendString(policy_hash, out);
  out += '}';
  return IdOfCanonical(out);
}

std::string RandomHex(size_t bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::random_device rd;
  std::string hex;
  hex.reserve(bytes * 2);
  for (size_t i = 0; i < bytes; ++i) {
    const auto b = static_cast<unsigned>(rd()) & 0xffu;
    hex += kHex[b >> 4];
    hex += kHex[b & 0xfu];
  }
  return hex;
}

}  // namespace kebab
