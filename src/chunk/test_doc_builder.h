// Test helper: builds CanonicalDocuments block by block the way the Markdown parser does
// (ids "b<ordinal>", 1-based line spans, heading paths from a heading stack).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/types.h"

namespace kebab::chunk::testing {

class DocBuilder {
 public:
  explicit DocBuilder(std::string doc_id = "doc-1") { doc_.doc_id = std::move(doc_id); }

  DocBuilder& Heading(int level, std::string text, uint32_t line) {
    while (!stack_.empty() && stack_.back().first >= level) stack_.pop_back();
    stack_.emplace_back(level, text);
    Block& b = Add(BlockKind::kHeading, line, line);
    b.level = level;
    b.text = std::move(text);
    return *this;
  }
  DocBuilder& Para(std::string text, uint32_t first, uint32_t last) {
    Add(BlockKind::kParagraph, first, last).text = std::move(text);
    return *this;
  }
  DocBuilder& Quote(std::string text, uint32_t first, uint32_t last) {
    Add(BlockKind::kQuote, first, last).text = std::move(text);
    return *this;
  }
  DocBuilder& List(std::vector<std::string> items, bool ordered, uint32_t first, uint32_t last) {
    Block& b = Add(BlockKind::kList, first, last);
    b.items = std::move(items);
    b.ordered = ordered;
    return *this;
  }
  // `first`/`last` include the fence lines.
  DocBuilder& Code(std::string body, uint32_t first, uint32_t last, std::string lang = "") {
    Block& b = Add(BlockKind::kCode, first, last);
    b.text = std::move(body);
    b.lang = std::move(lang);
    return *this;
  }
  DocBuilder& Table(std::vector<std::string> headers, std::vector<std::vector<std::string>> rows,
                    uint32_t first, uint32_t last) {
    Block& b = Add(BlockKind::kTable, first, last);
    b.headers = std::move(headers);
    b.rows = std::move(rows);
    return *this;
  }
  DocBuilder& Image(std::string src, std::string alt, uint32_t line) {
    Block& b = Add(BlockKind::kImageRef, line, line);
    b.src = std::move(src);
    b.alt = std::move(alt);
    return *this;
  }
  DocBuilder& Audio(std::string src, uint32_t line) {
    Add(BlockKind::kAudioRef, line, line).src = std::move(src);
    return *this;
  }

  CanonicalDocument Build() const { return doc_; }

 private:
  Block& Add(BlockKind kind, uint32_t first, uint32_t last) {
    Block& b = doc_.blocks.emplace_back();
    b.kind = kind;
    b.ordinal = static_cast<int>(doc_.blocks.size()) - 1;
    b.block_id = "b" + std::to_string(b.ordinal);
    b.span = SourceSpan::Lines(first, last);
    for (const auto& [level, text] : stack_) b.heading_path.push_back(text);
    return b;
  }

  CanonicalDocument doc_;
  std::vector<std::pair<int, std::string>> stack_;
};

}  // namespace kebab::chunk::testing
