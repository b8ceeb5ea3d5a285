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

std::string JsonStringArray(const std::vector<std::string>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    AppendJsonString(out, values[i]);
  }
  out += ']';
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

}  // namespace kebab
