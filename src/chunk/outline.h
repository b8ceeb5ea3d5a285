// Outline numbers of a document's headings ("2.1") and the section label a chunk shows,
// e.g. "§2.1 Flags". A document whose only H1 comes before every other heading has that H1
// as its title: the title is not numbered and its sections count from 1 at H2.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/types.h"

namespace kebab::chunk {

class Outline {
 public:
  // `blocks` must outlive the Outline.
  explicit Outline(const std::vector<Block>& blocks);

  // Label for a chunk whose heading_path is that of blocks[i]: "" when the path is empty,
  // the title text under the title, else "§<number> <last heading>".
  std::string Label(size_t i) const;

 private:
  const std::vector<Block>& blocks_;
  std::vector<int> owner_;            // per block: index of the heading it sits under, or -1
  std::vector<std::string> numbers_;  // per block: outline number, set for headings only
  int title_ = -1;
};

}  // namespace kebab::chunk
