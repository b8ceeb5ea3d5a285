// The files an import writes into its workspace (internal to eval): document file names and
// Markdown, and writes that leave identical files alone so an incremental ingest has nothing
// to do after a re-import.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_set>

#include "core/status.h"

namespace kebab::eval::internal {

// "<id>.md" with every byte outside [A-Za-z0-9._-], and a leading '.', written as %XX ('%'
// included, so distinct ids never share a name). A name that would pass the file system's
// 255-byte limit is cut and ends with '~' and a hash of the id instead.
std::string DocFileName(std::string_view id);

// The document as Markdown that kebab indexes word for word: "# <title>\n\n<text>\n" (title
// whitespace collapsed), or "<text>\n" without a title. Lines are trimmed, runs of blanks
// become one space and runs of empty lines one, so indentation never turns prose into a code
// block; the file never starts with a front matter fence (`---`, `+++`) and no line reads as
// a link reference definition, both of which would hide their words from the index.
std::string DocMarkdown(std::string_view title, std::string_view text);

// Writes `content` to `path` (temp file + rename) unless the file already holds exactly that.
// Returns whether it wrote. kIoError naming the path.
Result<bool> WriteIfChanged(const std::filesystem::path& path, std::string_view content);

// Deletes the *.md files directly in `dir` whose names are not in `keep`; returns how many.
Result<int> RemoveStaleMarkdown(const std::filesystem::path& dir,
                                const std::unordered_set<std::string>& keep);

}  // namespace kebab::eval::internal
