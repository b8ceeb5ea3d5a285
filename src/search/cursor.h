// Search cursors: opaque base64url tokens that carry the next offset, the corpus revision
// they were issued at, and a fingerprint of the query they belong to.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace kebab::search {

struct CursorState {
  int64_t offset = 0;
  int64_t corpus_revision = 0;
  std::string query_fingerprint;
};

std::string EncodeCursor(const CursorState& state);
// kInvalidInput for tokens that are not kebab cursors.
Result<CursorState> DecodeCursor(std::string_view token);

}  // namespace kebab::search
