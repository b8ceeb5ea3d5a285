// Whole-file writes that readers never see half done.
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"

namespace kebab {

// Writes `bytes` to a temp file beside `path` (named with the pid, so two processes writing
// the same file never share one) and renames it onto `path`, creating the parent directory.
// On failure the temp file is removed and `path` is left as it was: kIoError naming the file.
Status WriteFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace kebab
