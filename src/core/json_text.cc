#include "core/json_text.h"

#include <cstdint>
#include <cstring>

namespace kebab {

namespace {

constexpr uint64_t kOnes = 0x0101010101010101ull;
constexpr uint64_t kHighBits = 0x8080808080808080ull;

// Whether any byte of `word` is below 0x20, a quote or a backslash (exact, not a guess).
bool NeedsEscape(uint64_t word) {
  const uint64_t below_space = (word - kOnes * 0x20) & ~word;
  const uint64_t quote = word ^ (kOnes * '"');
  const uint64_t backslash = word ^ (kOnes * '\\');
  const uint64_t has_quote = (quote - kOnes) & ~quote;
  const uint64_t has_backslash = (backslash - kOnes) & ~backslash;
  return ((below_space | has_quote | has_backslash) & kHighBits) != 0;
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  size_t run = 0;  // start of the pending unescaped run
  size_t i = 0;
  while (i < s.size()) {
    // Eight bytes at a time through text with nothing to escape, the common case.
    if (s.size() - i >= 8) {
      uint64_t word;
      std::memcpy(&word, s.data() + i, sizeof word);
      if (!NeedsEscape(word)) {
        i += 8;
        continue;
      }
    }
    const unsigned char c = static_cast<unsigned char>(s[i++]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.substr(run, i - 1 - run));
    run = i;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xf];
    }
  }
  out.append(s.substr(run));
  out += '"';
}

namespace {

// {"<k1>":"<v1>","<k2>":"<v2>"}; keys must be given in sorted order, as nlohmann dumps them.
void AppendStringPairObject(std::string& out, std::string_view k1, std::string_view v1,
                            std::string_view k2, std::string_view v2) {
  out += "{\"";
  out.append(k1);
  out += "\":";
  AppendJsonString(out, v1);
  out += ",\"";
  out.append(k2);
  out += "\":";
  AppendJsonString(out, v2);
  out += '}';
}

// [v, v, ...], each value written by `append(out, value)`.
template <typename T, typename Append>
void AppendArray(std::string& out, const std::vector<T>& values, Append append) {
  out += '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    append(out, values[i]);
  }
  out += ']';
}

void AppendKey(std::string& out, char separator, std::string_view key) {
  out += separator;
  out += '"';
  out.append(key);
  out += "\":";
}

}  // namespace

void AppendJsonStringArray(std::string& out, const std::vector<std::string>& values) {
  AppendArray(out, values, [](std::string& o, const std::string& v) { AppendJsonString(o, v); });
}

void AppendSpanJson(std::string& out, const SourceSpan& span) {
  if (span.kind != SourceSpan::Kind::kLine) {
    out += span.ToJson().dump();
    return;
  }
  out += "{\"end\":";
  out += std::to_string(span.end);
  out += ",\"kind\":\"line\",\"start\":";
  out += std::to_string(span.start);
  out += '}';
}

void AppendSpansJson(std::string& out, const std::vector<SourceSpan>& spans) {
  AppendArray(out, spans, AppendSpanJson);
}

void AppendBlockPayloadJson(std::string& out, const Block& b) {
  switch (b.kind) {
    case BlockKind::kHeading:
      out += "{\"level\":";
      out += std::to_string(b.level);
      out += ",\"text\":";
      AppendJsonString(out, b.text);
      out += '}';
      return;
    case BlockKind::kParagraph:
    case BlockKind::kQuote:
      out += '{';
      if (b.confidence) {
        // nlohmann's spelling of the number, as PayloadJson().dump() has it.
        out += "\"confidence\":" + nlohmann::json(*b.confidence).dump() + ',';
      }
      out += "\"text\":";
      AppendJsonString(out, b.text);
      out += '}';
      return;
    case BlockKind::kList:
      out += "{\"items\":";
      AppendJsonStringArray(out, b.items);
      out += b.ordered ? ",\"ordered\":true}" : ",\"ordered\":false}";
      return;
    case BlockKind::kCode:
      AppendStringPairObject(out, "code", b.text, "lang", b.lang);
      return;
    case BlockKind::kTable:
      out += "{\"headers\":";
      AppendJsonStringArray(out, b.headers);
      out += ",\"rows\":[";
      for (size_t i = 0; i < b.rows.size(); ++i) {
        if (i) out += ',';
        AppendJsonStringArray(out, b.rows[i]);
      }
      out += "]}";
      return;
    case BlockKind::kImageRef:
    case BlockKind::kAudioRef:
      AppendStringPairObject(out, "alt", b.alt, "src", b.src);
      return;
  }
  out += "{}";
}

void AppendMetadataJson(std::string& out, const Metadata& m) {
  AppendKey(out, '{', "aliases");
  AppendJsonStringArray(out, m.aliases);
  auto optional = [&](const char* key) {
    for (const auto& [k, value] : Metadata::OptionalFieldsOf(m)) {
      if (*value && std::string_view(k) == key) {
        AppendKey(out, ',', key);
        AppendJsonString(out, **value);
      }
    }
  };
  // Keys in nlohmann's (sorted) order, so the text equals ToJson().dump().
  optional("code_lang");
  AppendKey(out, ',', "created_at");
  AppendJsonString(out, m.created_at);
  optional("git_branch");
  optional("git_commit");
  optional("git_remote");
  optional("repo");
  AppendKey(out, ',', "source_type");
  AppendJsonString(out, SourceTypeName(m.source_type));
  AppendKey(out, ',', "tags");
  AppendJsonStringArray(out, m.tags);
  AppendKey(out, ',', "trust_level");
  AppendJsonString(out, TrustLevelName(m.trust_level));
  AppendKey(out, ',', "updated_at");
  AppendJsonString(out, m.updated_at);
  AppendKey(out, ',', "user");
  if (m.user.is_object() && m.user.empty()) {
    out += "{}";
  } else {
    out += m.user.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  out += '}';
}

void AppendProvenanceJson(std::string& out, const std::vector<ProvenanceEvent>& events) {
  AppendArray(out, events, [](std::string& o, const ProvenanceEvent& e) {
    AppendKey(o, '{', "agent");
    AppendJsonString(o, e.agent);
    AppendKey(o, ',', "at");
    AppendJsonString(o, e.at);
    AppendKey(o, ',', "kind");
    AppendJsonString(o, e.kind);
    AppendKey(o, ',', "note");
    AppendJsonString(o, e.note);
    o += '}';
  });
}

}  // namespace kebab
