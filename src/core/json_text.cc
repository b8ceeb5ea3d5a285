#include "core/json_text.h"

namespace kebab {

void AppendJsonString(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  size_t run = 0;  // start of the pending unescaped run
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.substr(run, i - run));
    run = i + 1;
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

void AppendJsonStrings(std::string& out, const std::vector<std::string>& values) {
  out += '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    AppendJsonString(out, values[i]);
  }
  out += ']';
}

// {"<k1>":"<v1>","<k2>":"<v2>"}; keys must be given in sorted order, as nlohmann dumps them.
std::string StringPairObject(std::string_view k1, std::string_view v1, std::string_view k2,
                             std::string_view v2) {
  std::string out = "{\"";
  out.append(k1);
  out += "\":";
  AppendJsonString(out, v1);
  out += ",\"";
  out.append(k2);
  out += "\":";
  AppendJsonString(out, v2);
  out += '}';
  return out;
}

}  // namespace

std::string JsonStringArray(const std::vector<std::string>& values) {
  std::string out;
  AppendJsonStrings(out, values);
  return out;
}

std::string SpanJson(const SourceSpan& span) {
  if (span.kind != SourceSpan::Kind::kLine) return span.ToJson().dump();
  return "{\"end\":" + std::to_string(span.end) +
         ",\"kind\":\"line\",\"start\":" + std::to_string(span.start) + "}";
}

std::string SpansJson(const std::vector<SourceSpan>& spans) {
  std::string out = "[";
  for (size_t i = 0; i < spans.size(); ++i) {
    if (i) out += ',';
    out += SpanJson(spans[i]);
  }
  out += ']';
  return out;
}

std::string BlockPayloadJson(const Block& b) {
  std::string out;
  switch (b.kind) {
    case BlockKind::kHeading:
      out = "{\"level\":" + std::to_string(b.level) + ",\"text\":";
      AppendJsonString(out, b.text);
      out += '}';
      return out;
    case BlockKind::kParagraph:
    case BlockKind::kQuote:
      out = "{\"text\":";
      AppendJsonString(out, b.text);
      out += '}';
      return out;
    case BlockKind::kList:
      out = "{\"items\":";
      AppendJsonStrings(out, b.items);
      out += b.ordered ? ",\"ordered\":true}" : ",\"ordered\":false}";
      return out;
    case BlockKind::kCode:
      return StringPairObject("code", b.text, "lang", b.lang);
    case BlockKind::kTable:
      out = "{\"headers\":";
      AppendJsonStrings(out, b.headers);
      out += ",\"rows\":[";
      for (size_t i = 0; i < b.rows.size(); ++i) {
        if (i) out += ',';
        AppendJsonStrings(out, b.rows[i]);
      }
      out += "]}";
      return out;
    case BlockKind::kImageRef:
    case BlockKind::kAudioRef:
      return StringPairObject("alt", b.alt, "src", b.src);
  }
  return "{}";
}

}  // namespace kebab
