// Where the C and C++ macro blanking (code_macros.cc) looks: the errors of a tree-sitter tree,
// each with the region of the source (its declaration or statement) where a macro may have caused
// it, and how much error a stretch of the source holds, to tell whether a blanking helped.
// Module-private to parse. Thread safety: pure functions over a tree the caller owns.
#pragma once

#include <cstdint>
#include <vector>

#include "parse/internal/code_lang.h"

namespace kebab::parse::internal {

// An error in a tree — an ERROR node, the stray tokens between the items of one (HoldsItems) or a
// MISSING node (zero bytes wide) — and the region of the source where a macro may have caused it.
struct ErrorSite {
  uint32_t begin = 0, end = 0;
  bool missing = false;
  uint32_t region_begin = 0, region_end = 0;
  bool in_code = false;  // the error is inside a function (a block holds it)
};

// Bytes [begin, end) of the source, blanked or kept as one.
struct Region {
  uint32_t begin = 0, end = 0;
};

// The errors of `tree`, in source order; they do not overlap.
std::vector<ErrorSite> Errors(const TSTree* tree);

// How much error `errors` holds in bytes [begin, end): each error node's bytes there and one
// for each error, so fewer errors or smaller ones are better.
uint64_t Badness(const std::vector<ErrorSite>& errors, uint32_t begin, uint32_t end);
uint64_t TotalBadness(const std::vector<ErrorSite>& errors);

// The regions of `errors`, overlapping ones merged, in source order.
std::vector<Region> Regions(const std::vector<ErrorSite>& errors);

}  // namespace kebab::parse::internal
