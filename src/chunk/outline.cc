#include "chunk/outline.h"

#include <algorithm>
#include <string_view>

namespace kebab::chunk {
namespace {

int LevelOf(const Block& b) {
  return std::clamp(b.level, 1, 6);
}

}  // namespace

Outline::Outline(const std::vector<Block>& blocks)
    : blocks_(blocks), owner_(blocks.size(), -1), numbers_(blocks.size()) {
  int first_heading = -1;
  int h1_count = 0;
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].kind != BlockKind::kHeading) continue;
    if (first_heading < 0) first_heading = static_cast<int>(i);
    if (LevelOf(blocks[i]) == 1) ++h1_count;
  }
  if (h1_count == 1 && LevelOf(blocks[first_heading]) == 1) title_ = first_heading;

  // Open headings, outermost first. The title sits at level 0 so nothing closes it, and its
  // empty number makes its children "1", "2", ... like top-level sections.
  struct Open {
    int block;
    int level;
    int children;
  };
  std::vector<Open> open;
  int top_level_sections = 0;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const Block& b = blocks[i];
    const int self = static_cast<int>(i);
    if (b.kind == BlockKind::kHeading) {
      owner_[i] = self;
      if (self == title_) {
        open.push_back({self, 0, 0});
        continue;
      }
      const int level = LevelOf(b);
      while (!open.empty() && open.back().level >= level) open.pop_back();
      int& siblings = open.empty() ? top_level_sections : open.back().children;
      std::string ordinal = std::to_string(++siblings);
      std::string_view parent = open.empty() ? std::string_view() : numbers_[open.back().block];
      numbers_[i] = parent.empty() ? std::move(ordinal) : std::string(parent) + "." + ordinal;
      open.push_back({self, level, 0});
      continue;
    }
    if (b.heading_path.empty()) continue;
    for (auto it = open.rbegin(); it != open.rend(); ++it) {
      if (blocks[it->block].heading_path == b.heading_path) {
        owner_[i] = it->block;
        break;
      }
    }
  }
}

std::string Outline::Label(size_t i) const {
  if (i >= blocks_.size() || blocks_[i].heading_path.empty()) return {};
  const std::string& text = blocks_[i].heading_path.back();
  const int owner = owner_[i];
  if (owner < 0 || owner == title_ || numbers_[owner].empty()) return text;
  return "§" + numbers_[owner] + " " + text;
}

}  // namespace kebab::chunk
