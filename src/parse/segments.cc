#include "parse/segments.h"

#include <string>

#include "parse/lines.h"

namespace kebab::parse {
namespace {

// HTML block kinds 1-5 of the CommonMark spec: the ones a blank line does not end.
enum class HtmlBlock { kNone, kRawText, kComment, kProcessing, kDeclaration, kCdata };

bool IsAsciiAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

char AsciiLower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (AsciiLower(s[i]) != prefix[i]) return false;
  }
  return true;
}

// Position of the first non-space character when the line is indented by at most three
// spaces (so it can open or close a block), npos otherwise.
size_t BlockStart(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && i < 4 && line[i] == ' ') ++i;
  return i <= 3 && i < line.size() ? i : std::string_view::npos;
}

struct Fence {
  char ch = 0;
  size_t len = 0;
};

bool OpensFence(std::string_view line, Fence* fence) {
  size_t i = BlockStart(line);
  if (i == std::string_view::npos || (line[i] != '`' && line[i] != '~')) return false;
  size_t n = 0;
  while (i + n < line.size() && line[i + n] == line[i]) ++n;
  if (n < 3) return false;
  if (line[i] == '`' && line.find('`', i + n) != std::string_view::npos) return false;
  *fence = {line[i], n};
  return true;
}

bool ClosesFence(std::string_view line, const Fence& fence) {
  size_t i = BlockStart(line);
  if (i == std::string_view::npos) return false;
  size_t n = 0;
  while (i + n < line.size() && line[i + n] == fence.ch) ++n;
  return n >= fence.len && IsBlankLine(line.substr(i + n));
}

// The kind of HTML block `line` opens, and in `after` where its end marker may start.
HtmlBlock OpensHtml(std::string_view line, size_t* after) {
  size_t i = BlockStart(line);
  if (i == std::string_view::npos || line[i] != '<') return HtmlBlock::kNone;
  std::string_view rest = line.substr(i);
  if (rest.starts_with("<!--")) {
    *after = i + 4;
    return HtmlBlock::kComment;
  }
  if (rest.starts_with("<?")) {
    *after = i + 2;
    return HtmlBlock::kProcessing;
  }
  if (rest.starts_with("<![CDATA[")) {
    *after = i + 9;
    return HtmlBlock::kCdata;
  }
  if (rest.size() > 2 && rest[1] == '!' && IsAsciiAlpha(rest[2])) {
    *after = i + 2;
    return HtmlBlock::kDeclaration;
  }
  for (std::string_view tag : {"script", "pre", "style", "textarea"}) {
    if (!StartsWithNoCase(rest.substr(1), tag)) continue;
    size_t next = 1 + tag.size();
    if (next == rest.size() || rest[next] == ' ' || rest[next] == '\t' || rest[next] == '>') {
      *after = i + next;
      return HtmlBlock::kRawText;
    }
  }
  return HtmlBlock::kNone;
}

bool EndsHtml(HtmlBlock kind, std::string_view text) {
  switch (kind) {
    case HtmlBlock::kComment:
      return text.find("-->") != std::string_view::npos;
    case HtmlBlock::kProcessing:
      return text.find("?>") != std::string_view::npos;
    case HtmlBlock::kDeclaration:
      return text.find('>') != std::string_view::npos;
    case HtmlBlock::kCdata:
      return text.find("]]>") != std::string_view::npos;
    case HtmlBlock::kRawText: {
      std::string lower(text);
      for (char& c : lower) c = AsciiLower(c);
      for (std::string_view end : {"</script>", "</pre>", "</style>", "</textarea>"}) {
        if (lower.find(end) != std::string::npos) return true;
      }
      return false;
    }
    case HtmlBlock::kNone:
      break;
  }
  return true;
}

// True when a column-0 line (after a blank line) necessarily starts a new top-level block:
// a paragraph or table (letter, non-ASCII) or an ATX heading.
bool StartsTopLevelBlock(std::string_view line) {
  if (line.empty()) return false;
  unsigned char c = static_cast<unsigned char>(line[0]);
  if (c >= 0x80 || IsAsciiAlpha(line[0])) return true;
  if (c != '#') return false;
  size_t n = 0;
  while (n < line.size() && line[n] == '#') ++n;
  return n <= 6 && (n == line.size() || line[n] == ' ' || line[n] == '\t');
}

}  // namespace

std::vector<BodySegment> SplitBody(std::string_view body, size_t target_bytes) {
  std::vector<BodySegment> out;
  if (body.size() <= target_bytes) {
    out.push_back({body, 0});
    return out;
  }
  size_t segment_start = 0;
  uint32_t segment_line = 0;
  uint32_t line_number = 0;
  bool previous_blank = false;
  bool in_fence = false;
  Fence fence;
  HtmlBlock html = HtmlBlock::kNone;
  for (size_t pos = 0; pos < body.size(); ++line_number) {
    size_t end = LineEnd(body, pos);
    std::string_view line = body.substr(pos, end - pos);
    if (previous_blank && !in_fence && html == HtmlBlock::kNone &&
        pos - segment_start >= target_bytes && StartsTopLevelBlock(line)) {
      out.push_back({body.substr(segment_start, pos - segment_start), segment_line});
      segment_start = pos;
      segment_line = line_number;
    }
    if (in_fence) {
      in_fence = !ClosesFence(line, fence);
    } else if (html != HtmlBlock::kNone) {
      if (EndsHtml(html, line)) html = HtmlBlock::kNone;
    } else if (OpensFence(line, &fence)) {
      in_fence = true;
    } else {
      size_t after = 0;
      html = OpensHtml(line, &after);
      if (html != HtmlBlock::kNone && EndsHtml(html, line.substr(after))) html = HtmlBlock::kNone;
    }
    previous_blank = IsBlankLine(line);
    pos = SkipTerminator(body, end);
  }
  out.push_back({body.substr(segment_start), segment_line});
  return out;
}

}  // namespace kebab::parse
