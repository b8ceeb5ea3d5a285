#include "core/citation.h"

#include <charconv>
#include <cstdio>
#include <vector>

namespace kebab {
namespace {

std::string EscapePath(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (char c : path) {
    if (c == '%') {
      out += "%25";
    } else if (c == '#') {
      out += "%23";
    } else {
      out += c;
    }
  }
  return out;
}

std::string UnescapePath(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '%' && i + 2 < path.size()) {
      std::string_view code = path.substr(i + 1, 2);
      if (code == "25") {
        out += '%';
        i += 2;
        continue;
      }
      if (code == "23") {
        out += '#';
        i += 2;
        continue;
      }
    }
    out += path[i];
  }
  return out;
}

bool ParseU32(std::string_view s, uint32_t* out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t i = 0;
  while (true) {
    size_t j = s.find(sep, i);
    parts.push_back(s.substr(i, j == std::string_view::npos ? s.npos : j - i));
    if (j == std::string_view::npos) break;
    i = j + 1;
  }
  return parts;
}

// Clock time as the spec writes it, hh:mm:ss with milliseconds when there are any
// ("00:12:04.5", "01:00:00"): what a person finds in a player's timeline.
std::string FormatClock(uint64_t ms) {
  char buf[48];
  const auto s = static_cast<unsigned long long>(ms / 1000);
  std::snprintf(buf, sizeof buf, "%02llu:%02llu:%02llu", s / 3600, s / 60 % 60, s % 60);
  std::string out = buf;
  if (ms % 1000 != 0) {
    std::snprintf(buf, sizeof buf, ".%03llu", static_cast<unsigned long long>(ms % 1000));
    out += buf;
    while (out.back() == '0') out.pop_back();
  }
  return out;
}

// Seconds ("12", "12.5") or clock time ("hh:mm:ss[.mmm]", "mm:ss") to milliseconds.
bool ParseSeconds(std::string_view s, uint64_t* ms) {
  if (s.starts_with("npt:")) s.remove_prefix(4);
  uint64_t total = 0;
  auto fields = Split(s, ':');
  if (fields.size() > 3) return false;
  for (size_t i = 0; i < fields.size(); ++i) {
    std::string_view f = fields[i];
    bool last = i + 1 == fields.size();
    uint64_t whole = 0, frac_ms = 0;
    size_t dot = f.find('.');
    std::string_view int_part = f.substr(0, dot);
    if (int_part.empty()) return false;
    for (char c : int_part) {
      if (c < '0' || c > '9') return false;
      whole = whole * 10 + static_cast<uint64_t>(c - '0');
    }
    if (dot != std::string_view::npos) {
      if (!last) return false;
      std::string_view frac = f.substr(dot + 1);
      if (frac.empty() || frac.size() > 3) return false;
      uint64_t scale = 100;
      for (char c : frac) {
        if (c < '0' || c > '9') return false;
        frac_ms += static_cast<uint64_t>(c - '0') * scale;
        scale /= 10;
      }
    }
    total = total * 60 + whole;
    if (last) {
      *ms = total * 1000 + frac_ms;
    }
  }
  return true;
}

Status BadUri(std::string_view uri, std::string_view why) {
  return InvalidInput("invalid citation '" + std::string(uri) + "': " + std::string(why),
                      "expected path#L12-L34, path#L12, path#p=3, path#xywh=x,y,w,h, "
                      "path#p=3&xywh=x,y,w,h or path#t=start,end");
}

}  // namespace

std::optional<uint64_t> ParseMediaTime(std::string_view text) {
  uint64_t ms = 0;
  if (!ParseSeconds(text, &ms)) return std::nullopt;
  return ms;
}

std::string_view CitationKindName(Citation::Kind kind) {
  switch (kind) {
    case Citation::Kind::kLine:
      return "line";
    case Citation::Kind::kPage:
      return "page";
    case Citation::Kind::kRegion:
      return "region";
    case Citation::Kind::kCaption:
      return "caption";
    case Citation::Kind::kTime:
      return "time";
    case Citation::Kind::kCode:
      return "code";
  }
  return "line";
}

std::string CitationPath(std::string_view path) {
  return EscapePath(path);
}

Citation Citation::Lines(std::string path, uint32_t start, uint32_t end) {
  Citation c;
  c.kind = Kind::kLine;
  c.path = std::move(path);
  c.line_start = start;
  c.line_end = end;
  return c;
}

std::string Citation::ToUri() const {
  std::string uri = EscapePath(path);
  switch (kind) {
    case Kind::kLine:
    case Kind::kCode:
      uri += "#L" + std::to_string(line_start);
      if (line_end != line_start) uri += "-L" + std::to_string(line_end);
      break;
    case Kind::kPage:
      uri += "#p=" + std::to_string(page);
      break;
    case Kind::kRegion:
      uri += page > 0 ? "#p=" + std::to_string(page) + "&xywh=" : std::string("#xywh=");
      uri += std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(w) + "," +
             std::to_string(h);
      break;
    case Kind::kCaption:
      uri += "#caption";
      break;
    case Kind::kTime:
      uri += "#t=" + FormatClock(start_ms) + "," + FormatClock(end_ms);
      if (speaker) uri += "&speaker=" + *speaker;
      break;
  }
  return uri;
}

Result<Citation> Citation::Parse(std::string_view uri) {
  size_t hash = uri.rfind('#');
  if (hash == std::string_view::npos) return BadUri(uri, "no '#' fragment");
  Citation c;
  c.path = UnescapePath(uri.substr(0, hash));
  if (c.path.empty()) return BadUri(uri, "empty path");
  std::string_view frag = uri.substr(hash + 1);
  if (frag.starts_with("L")) {
    c.kind = Kind::kLine;
    size_t dash = frag.find('-');
    if (dash == std::string_view::npos) {
      if (!ParseU32(frag.substr(1), &c.line_start)) return BadUri(uri, "bad line number");
      c.line_end = c.line_start;
    } else {
      std::string_view end = frag.substr(dash + 1);
      if (end.starts_with("L")) end.remove_prefix(1);
      if (!ParseU32(frag.substr(1, dash - 1), &c.line_start) || !ParseU32(end, &c.line_end)) {
        return BadUri(uri, "bad line range");
      }
    }
    if (c.line_start == 0 || c.line_end < c.line_start) {
      return BadUri(uri, "lines are 1-based and the range must not run backwards");
    }
    return c;
  }
  if (frag.starts_with("p=") || frag.starts_with("page=")) {
    c.kind = Kind::kPage;
    const size_t amp = frag.find('&');
    if (!ParseU32(frag.substr(frag.find('=') + 1, amp == std::string_view::npos
                                                      ? std::string_view::npos
                                                      : amp - frag.find('=') - 1),
                  &c.page) ||
        c.page == 0) {
      return BadUri(uri, "bad page number");
    }
    if (amp == std::string_view::npos) return c;
    frag = frag.substr(amp + 1);
    if (!frag.starts_with("xywh=")) return BadUri(uri, "unknown page parameter");
  }
  if (frag.starts_with("xywh=")) {
    c.kind = Kind::kRegion;
    std::string_view v = frag.substr(5);
    if (v.starts_with("pixel:")) v.remove_prefix(6);
    auto parts = Split(v, ',');
    if (parts.size() != 4 || !ParseU32(parts[0], &c.x) || !ParseU32(parts[1], &c.y) ||
        !ParseU32(parts[2], &c.w) || !ParseU32(parts[3], &c.h)) {
      return BadUri(uri, "region needs four non-negative integers");
    }
    return c;
  }
  if (frag == "caption") {
    c.kind = Kind::kCaption;
    return c;
  }
  if (frag.starts_with("t=")) {
    c.kind = Kind::kTime;
    std::string_view v = frag.substr(2);
    size_t amp = v.find('&');
    if (amp != std::string_view::npos) {
      std::string_view rest = v.substr(amp + 1);
      v = v.substr(0, amp);
      if (!rest.starts_with("speaker=")) return BadUri(uri, "unknown time parameter");
      c.speaker = std::string(rest.substr(8));
    }
    auto parts = Split(v, ',');
    if (parts.size() != 2 || !ParseSeconds(parts[0], &c.start_ms) ||
        !ParseSeconds(parts[1], &c.end_ms) || c.end_ms < c.start_ms) {
      return BadUri(uri, "time needs start,end in seconds");
    }
    return c;
  }
  return BadUri(uri, "unknown fragment");
}

nlohmann::json Citation::ToWire() const {
  nlohmann::json j = {{"schema_version", "citation.v1"},
                      {"kind", CitationKindName(kind)},
                      {"path", path},
                      {"uri", ToUri()}};
  switch (kind) {
    case Kind::kLine:
      j["start"] = line_start;
      j["end"] = line_end;
      j["section"] = section ? nlohmann::json(*section) : nlohmann::json(nullptr);
      break;
    case Kind::kCode:
      j["line_start"] = line_start;
      j["line_end"] = line_end;
      j["symbol"] = symbol ? nlohmann::json(*symbol) : nlohmann::json(nullptr);
      j["lang"] = lang ? nlohmann::json(*lang) : nlohmann::json(nullptr);
      break;
    case Kind::kPage:
      j["page"] = page;
      j["section"] = section ? nlohmann::json(*section) : nlohmann::json(nullptr);
      if (char_start && char_end) {
        j["char_start"] = *char_start;
        j["char_end"] = *char_end;
      }
      break;
    case Kind::kRegion:
      if (page > 0) j["page"] = page;
      j["x"] = x;
      j["y"] = y;
      j["w"] = w;
      j["h"] = h;
      j["unit"] = "pixel";
      if (dpi) j["dpi"] = *dpi;
      j["section"] = section ? nlohmann::json(*section) : nlohmann::json(nullptr);
      break;
    case Kind::kCaption:
      j["model"] = model;
      break;
    case Kind::kTime:
      j["start_ms"] = start_ms;
      j["end_ms"] = end_ms;
      j["speaker"] = speaker ? nlohmann::json(*speaker) : nlohmann::json(nullptr);
      break;
  }
  return j;
}

Citation CitationFromSpan(std::string_view path, const SourceSpan& span,
                          std::optional<std::string> section) {
  Citation c;
  c.path = std::string(path);
  c.section = std::move(section);
  switch (span.kind) {
    case SourceSpan::Kind::kLine:
    case SourceSpan::Kind::kByte:
      c.kind = Citation::Kind::kLine;
      c.line_start = static_cast<uint32_t>(span.start);
      c.line_end = static_cast<uint32_t>(span.end);
      break;
    case SourceSpan::Kind::kCode:
      c.kind = Citation::Kind::kCode;
      c.line_start = static_cast<uint32_t>(span.start);
      c.line_end = static_cast<uint32_t>(span.end);
      c.symbol = span.symbol;
      c.lang = span.lang;
      break;
    case SourceSpan::Kind::kPage:
      c.kind = Citation::Kind::kPage;
      c.page = span.page;
      c.char_start = span.char_start;
      c.char_end = span.char_end;
      break;
    case SourceSpan::Kind::kRegion:
      c.kind = Citation::Kind::kRegion;
      c.page = span.page;
      c.dpi = span.dpi;
      c.x = span.x;
      c.y = span.y;
      c.w = span.w;
      c.h = span.h;
      break;
    case SourceSpan::Kind::kTime:
      c.kind = Citation::Kind::kTime;
      c.start_ms = span.start;
      c.end_ms = span.end;
      break;
    case SourceSpan::Kind::kCaption:
      c.kind = Citation::Kind::kCaption;
      c.model = span.model;
      break;
  }
  return c;
}

}  // namespace kebab
