#include "eval/internal/collection.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/unicode.h"

namespace kebab::eval::internal {

void WarningList::Add(std::string warning) {
  if (kept_.size() < kMax) {
    kept_.push_back(std::move(warning));
  } else {
    ++dropped_;
  }
}

std::vector<std::string> WarningList::Take() {
  std::vector<std::string> out = std::move(kept_);
  if (dropped_ > 0) out.push_back("... and " + std::to_string(dropped_) + " more warnings");
  kept_.clear();
  dropped_ = 0;
  return out;
}

Result<std::string> ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError("cannot read " + path.string() + ": " + std::strerror(errno));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return IoError("cannot read " + path.string());
  return std::move(buffer).str();
}

std::string Where(std::string_view file, int line) {
  return std::string(file) + ":" + std::to_string(line);
}

Status LineError(std::string_view file, int line, std::string_view message) {
  return InvalidInput(Where(file, line) + ": " + std::string(message));
}

void SanitizeFile(std::string_view display_name, std::string* text, WarningList* warnings) {
  if (IsValidUtf8(*text)) return;
  LineReader lines(*text);
  std::string_view line;
  int bad_line = 0;
  while (bad_line == 0 && lines.Next(&line)) {
    if (!IsValidUtf8(line)) bad_line = lines.number();
  }
  warnings->Add(Where(display_name, bad_line) +
                ": invalid UTF-8 replaced with U+FFFD (this line and maybe later ones)");
  *text = SanitizeUtf8(*text);
}

bool LineReader::Next(std::string_view* line) {
  if (pos_ >= text_.size()) return false;
  size_t end = text_.find('\n', pos_);
  if (end == std::string_view::npos) end = text_.size();
  *line = text_.substr(pos_, end - pos_);
  if (!line->empty() && line->back() == '\r') line->remove_suffix(1);
  pos_ = end + 1;
  ++number_;
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

bool ParseInt(std::string_view s, int* value) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-') s.remove_prefix(1);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *value);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

}  // namespace kebab::eval::internal
