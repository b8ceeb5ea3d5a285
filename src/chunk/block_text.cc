#include "chunk/block_text.h"

#include <algorithm>

#include "chunk/oversize.h"

namespace kebab::chunk {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::string_view TrimSpace(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

// Lines in `s`, not counting the empty remainder after a final line break.
size_t LineCount(std::string_view s) {
  if (s.empty()) return 0;
  size_t n = static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
  return s.back() == '\n' ? n : n + 1;
}

void AppendJoined(const std::vector<std::string>& cells, std::string* out) {
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) *out += " | ";
    *out += TrimSpace(cells[i]);
  }
}

void RenderList(const Block& b, std::string* out) {
  int number = 0;
  for (const std::string& raw : b.items) {
    std::string_view item = TrimSpace(raw);
    if (item.empty()) continue;
    if (!out->empty()) *out += '\n';
    if (b.ordered) {
      *out += std::to_string(++number);
      *out += ". ";
    } else {
      *out += "- ";
    }
    *out += item;
  }
}

void RenderTable(const Block& b, std::string* out) {
  if (!b.headers.empty()) AppendJoined(b.headers, out);
  for (const auto& row : b.rows) {
    if (!out->empty()) *out += '\n';
    AppendJoined(row, out);
  }
}

// Alt text, or the last path segment of src without query or fragment.
std::string RefText(const Block& b) {
  std::string_view alt = TrimSpace(b.alt);
  if (!alt.empty()) return std::string(alt);
  std::string_view src = TrimSpace(b.src);
  std::string_view path = src.substr(0, src.find_first_of("?#"));
  size_t slash = path.find_last_of("/\\");
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return std::string(name.empty() ? src : name);
}

}  // namespace

bool BlockText::Render(const Block& block, size_t index) {
  block_ = &block;
  index_ = index;
  rendered_.clear();
  owns_text_ = true;
  switch (block.kind) {
    case BlockKind::kList:
      RenderList(block, &rendered_);
      break;
    case BlockKind::kTable:
      RenderTable(block, &rendered_);
      break;
    case BlockKind::kImageRef:
    case BlockKind::kAudioRef:
      rendered_ = RefText(block);
      break;
    default:
      owns_text_ = false;
  }
  std::string_view source = owns_text_ ? std::string_view(rendered_) : block.text;

  // Whole blank lines come off the front (and are counted, so line numbers still line up);
  // a code block keeps the indentation of its first line.
  size_t begin = 0;
  lead_lines_ = 0;
  while (true) {
    size_t p = begin;
    while (p < source.size() && (source[p] == ' ' || source[p] == '\t' || source[p] == '\r')) {
      ++p;
    }
    if (p < source.size() && source[p] == '\n') {
      begin = p + 1;
      ++lead_lines_;
      continue;
    }
    if (block.kind != BlockKind::kCode) begin = p;
    break;
  }
  size_t end = source.size();
  while (end > begin && IsSpace(source[end - 1])) --end;
  if (begin >= end) return false;
  begin_ = begin;
  end_ = end;

  TokenTally tally;
  tally.Add(text());
  tokens_ = tally.Tokens();
  PickLineMap(source);
  return true;
}

void BlockText::PickLineMap(std::string_view source) {
  map_ = LineMap::kWhole;
  offset_ = 0;
  const SourceSpan& span = block_->span;
  if (span.start == 0 || span.end < span.start) return;
  if (block_->kind == BlockKind::kImageRef || block_->kind == BlockKind::kAudioRef) return;
  const uint64_t span_lines = span.end - span.start + 1;
  const uint64_t lines = LineCount(source);
  if (lines == span_lines) {
    map_ = LineMap::kOffset;
  } else if (block_->kind == BlockKind::kCode && lines + 2 == span_lines) {
    map_ = LineMap::kOffset;
    offset_ = 1;
  } else if (block_->kind == BlockKind::kCode && lines + 1 == span_lines) {
    map_ = LineMap::kFenceOrIndent;
  } else if (block_->kind == BlockKind::kTable && lines + 1 == span_lines) {
    map_ = LineMap::kTable;
  }
}

std::pair<uint64_t, uint64_t> BlockText::SourceLines(size_t k) const {
  const SourceSpan& span = block_->span;
  const uint64_t raw = k + lead_lines_;
  auto clamp = [&](uint64_t line) { return std::clamp(line, span.start, span.end); };
  switch (map_) {
    case LineMap::kWhole:
      break;
    case LineMap::kOffset: {
      uint64_t line = clamp(span.start + offset_ + raw);
      return {line, line};
    }
    case LineMap::kFenceOrIndent:
      return {clamp(span.start + raw), clamp(span.start + raw + 1)};
    case LineMap::kTable: {
      uint64_t line = clamp(raw == 0 ? span.start : span.start + raw + 1);
      return {line, line};
    }
  }
  return {span.start, span.end};
}

}  // namespace kebab::chunk
