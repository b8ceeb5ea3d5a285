#include "search/cursor.h"

#include <nlohmann/json.hpp>

namespace kebab::search {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string Base64UrlEncode(std::string_view in) {
  std::string out;
  size_t i = 0;
  while (i + 2 < in.size()) {
    uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(v >> s) & 63];
    i += 3;
  }
  if (i + 1 == in.size()) {
    uint32_t v = uint8_t(in[i]) << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
  } else if (i + 2 == in.size()) {
    uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
  }
  return out;
}

bool Base64UrlDecode(std::string_view in, std::string* out) {
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    const char* p = std::char_traits<char>::find(kAlphabet, 64, c);
    if (!p) return false;
    acc = (acc << 6) | static_cast<uint32_t>(p - kAlphabet);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return true;
}

}  // namespace

std::string EncodeCursor(const CursorState& state) {
  nlohmann::json j = {
      {"o", state.offset}, {"r", state.corpus_revision}, {"q", state.query_fingerprint}};
  return Base64UrlEncode(j.dump());
}

Result<CursorState> DecodeCursor(std::string_view token) {
  auto bad = InvalidInput("invalid --cursor value",
                          "pass the next_cursor of a previous search with the same query");
  std::string raw;
  if (token.empty() || !Base64UrlDecode(token, &raw)) return bad;
  nlohmann::json j = nlohmann::json::parse(raw, nullptr, false);
  if (!j.is_object() || !j.contains("o") || !j["o"].is_number_integer() || !j.contains("r") ||
      !j["r"].is_number_integer() || !j.contains("q") || !j["q"].is_string() ||
      j["o"].get<int64_t>() < 0) {
    return bad;
  }
  return CursorState{j["o"].get<int64_t>(), j["r"].get<int64_t>(), j["q"].get<std::string>()};
}

}  // namespace kebab::search
