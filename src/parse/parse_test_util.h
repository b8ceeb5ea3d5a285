// Helpers shared by the parse module's tests: fixture loading and the span check that ties a
// block to the source lines it cites.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"
#include "parse/markdown.h"

namespace kebab::parse::testing {

inline std::string ReadFixture(const std::string& name) {
  std::ifstream in(std::string(KEBAB_TESTDATA_DIR) + "/parse/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << name;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Lines split the way editors and cmark do (LF, CRLF, lone CR), terminators removed.
inline std::vector<std::string> SplitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find_first_of("\r\n", pos);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(pos, end - pos));
    pos = end;
    if (pos < text.size() && text[pos] == '\r') ++pos;
    if (pos < text.size() && text[pos] == '\n') ++pos;
  }
  return lines;
}

// Whitespace-separated words with surrounding ASCII punctuation removed ("[x]" and "-->"
// stay as they are when nothing else is left).
inline std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> words;
  std::istringstream in{std::string(text)};
  for (std::string word; in >> word;) {
    size_t begin = 0, end = word.size();
    while (begin < end && std::ispunct(static_cast<unsigned char>(word[begin]))) ++begin;
    while (end > begin && std::ispunct(static_cast<unsigned char>(word[end - 1]))) --end;
    words.push_back(begin < end ? word.substr(begin, end - begin) : word);
  }
  return words;
}

// A table delimiter row or a setext underline: it holds no words of its block.
inline bool IsUnderline(std::string_view line) {
  return !line.empty() && line.find_first_not_of(" \t|:-=") == std::string_view::npos;
}

// Every word of the block occurs in the lines its span cites; the first cited line holds the
// block's first word and the last cited line its last word (for fenced code: the fences; for
// a table without rows or a setext heading: the underline), so the span is neither too short
// nor padded.
inline void ExpectSpanHolds(const Block& block, const std::vector<std::string>& lines) {
  SCOPED_TRACE("block " + std::to_string(block.ordinal) + " (" +
               std::string(BlockKindName(block.kind)) + ")");
  ASSERT_EQ(block.span.kind, SourceSpan::Kind::kLine);
  ASSERT_GE(block.span.start, 1u);
  ASSERT_LE(block.span.start, block.span.end);
  ASSERT_LE(block.span.end, lines.size());
  std::vector<std::string> words;
  auto add = [&](std::string_view text) {
    for (std::string& w : Words(text)) words.push_back(std::move(w));
  };
  add(block.text);
  for (const std::string& item : block.items) add(item);
  for (const std::string& cell : block.headers) add(cell);
  for (const auto& row : block.rows) {
    for (const std::string& cell : row) add(cell);
  }
  add(block.alt);
  add(block.src);
  std::string cited;
  for (uint64_t line = block.span.start; line <= block.span.end; ++line) {
    cited += lines[line - 1];
    cited += '\n';
  }
  for (const std::string& word : words) {
    EXPECT_NE(cited.find(word), std::string::npos) << "'" << word << "' not in:\n" << cited;
  }
  const std::string& first = lines[block.span.start - 1];
  const std::string& last = lines[block.span.end - 1];
  std::string_view fence = first;
  fence.remove_prefix(std::min(fence.find_first_not_of(' '), fence.size()));
  if (block.kind == BlockKind::kCode && (fence.starts_with("```") || fence.starts_with("~~~"))) {
    std::string_view closing = last;
    closing.remove_prefix(std::min(closing.find_first_not_of(' '), closing.size()));
    bool closed = closing.starts_with(fence.substr(0, 3)) && block.span.end > block.span.start;
    bool ends_at_text = !words.empty() && last.find(words.back()) != std::string::npos;
    EXPECT_TRUE(closed || ends_at_text) << "code span ends at: " << last;
  } else if (!words.empty()) {
    EXPECT_NE(first.find(words.front()), std::string::npos) << "first line: " << first;
    if (!IsUnderline(last)) {
      EXPECT_NE(last.find(words.back()), std::string::npos) << "last line: " << last;
    }
  }
}

inline void ExpectAllSpansHold(const CanonicalDocument& doc, std::string_view source) {
  std::vector<std::string> lines = SplitLines(source);
  for (const Block& block : doc.blocks) ExpectSpanHolds(block, lines);
}

inline CanonicalDocument ParseText(std::string_view text, const std::string& path = "note.md") {
  MarkdownInput input;
  input.bytes = text;
  input.workspace_path = path;
  input.asset_id = "asset-" + path;
  input.discovered_at = "2025-01-02T03:04:05Z";
  Result<CanonicalDocument> doc = ParseMarkdown(input);
  EXPECT_TRUE(doc.ok()) << doc.status().ToString();
  return doc.ok() ? std::move(doc).value() : CanonicalDocument{};
}

}  // namespace kebab::parse::testing
