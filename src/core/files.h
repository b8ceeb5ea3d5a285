// Whole files: writes that readers never see half done, and reads with a size cap.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace kebab {

// Writes `bytes` to a temp file beside `path` (named with the pid, so two processes writing
// the same file never share one) and renames it onto `path`, creating the parent directory.
// On failure the temp file is removed and `path` is left as it was: kIoError naming the file.
Status WriteFileAtomically(const std::string& path, std::string_view bytes);

// The whole file, read through one descriptor: kIoError when it cannot be opened or stat'ed,
// kInvalidInput when it is larger than `max_bytes` (e.g. it grew since it was listed). A file
// that shrinks while read comes back short.
Result<std::string> ReadFileUpTo(const std::string& path, uint64_t max_bytes);

}  // namespace kebab
