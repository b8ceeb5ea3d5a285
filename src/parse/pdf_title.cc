// A PDF's title as a person would write it: the document info's Title, else the opening lines
// of its first page, with layout whitespace, running page numbers and broken lines undone.
#include <array>
#include <string_view>

#include "core/unicode.h"
#include "parse/internal/pdf.h"

namespace kebab::parse::internal {
namespace {

constexpr size_t kTitleCodePoints = 80;
constexpr size_t kMaxTitleLines = 4;

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f';
}

bool IsAllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool IsRomanNumeral(std::string_view s) {
  if (s.empty() || s.size() > 8) return false;
  for (char c : s) {
    if (std::string_view("ivxlcdmIVXLCDM").find(c) == std::string_view::npos) return false;
  }
  return true;
}

// Cuts a number standing apart from the words at a line's end or start: a running head sets
// the page number a layout gap (two or more spaces, or a tab) away from its title.
std::string_view DropRunningNumbers(std::string_view line) {
  auto gap_before = [&](size_t pos) {
    return pos >= 2 && IsSpace(line[pos - 1]) && IsSpace(line[pos - 2]);
  };
  size_t end = line.find_last_not_of(" \t\r");
  if (end == std::string_view::npos) return {};
  line = line.substr(0, end + 1);
  const size_t last = line.find_last_of(" \t");
  if (last != std::string_view::npos) {
    const std::string_view tail = line.substr(last + 1);
    if ((IsAllDigits(tail) || IsRomanNumeral(tail)) &&
        (line[last] == '\t' || gap_before(last + 1))) {
      line = line.substr(0, line.find_last_not_of(" \t", last) + 1);
    }
  }
  const size_t start = line.find_first_not_of(" \t");
  line.remove_prefix(start);
  const size_t first_gap = line.find_first_of(" \t");
  if (first_gap != std::string_view::npos) {
    const std::string_view head = line.substr(0, first_gap);
    const bool gap =
        line[first_gap] == '\t' || (first_gap + 1 < line.size() && IsSpace(line[first_gap + 1]));
    if ((IsAllDigits(head) || IsRomanNumeral(head)) && gap) {
      line.remove_prefix(line.find_first_not_of(" \t", first_gap));
    }
  }
  return line;
}

// A line that ends on a word a title cannot end on ("R: A Language and Environment for")
// goes on in the next line.
bool EndsMidPhrase(std::string_view title) {
  static constexpr std::array<std::string_view, 24> kJoiners = {
      "a",  "an", "the", "of",   "for",   "and", "or", "to", "in", "on", "with", "from",
      "by", "at", "as",  "into", "about", "&",   "-",  "–",  "—",  ":",  "vs.",  "via"};
  if (title.empty()) return false;
  if (title.back() == ',' || title.back() == ':' || title.back() == '-') return true;
  const size_t space = title.find_last_of(' ');
  std::string last(title.substr(space == std::string_view::npos ? 0 : space + 1));
  for (char& c : last) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  for (std::string_view j : kJoiners) {
    if (last == j) return true;
  }
  return false;
}

}  // namespace

std::string TitleFromText(std::string_view text) {
  std::string title;
  size_t lines_taken = 0;
  size_t pos = 0;
  while (pos < text.size() && lines_taken < kMaxTitleLines) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string line = CollapseWhitespace(DropRunningNumbers(text.substr(pos, nl - pos)));
    pos = nl + 1;
    if (line.empty() || IsAllDigits(line) || IsRomanNumeral(line)) {
      if (title.empty()) continue;  // a page number above the title
      break;                        // a blank line ends the title
    }
    title += (title.empty() ? "" : " ") + line;
    ++lines_taken;
    if (Utf8Length(title) >= kTitleCodePoints || !EndsMidPhrase(title)) break;
  }
  // A footnote mark on the title ("MPICH User's Guide*") points at a note, not at the name.
  for (std::string_view mark : {"*", "\u2020", "\u2021"}) {
    if (title.size() > mark.size() && title.ends_with(mark))
      title.resize(title.size() - mark.size());
  }
  if (Utf8Length(title) <= kTitleCodePoints) return Nfc(title);
  // Cut at the last word that fits rather than inside one.
  std::string cut(CodePointPrefix(title, kTitleCodePoints));
  const size_t space = cut.find_last_of(' ');
  if (space != std::string::npos && space > cut.size() / 2) cut.resize(space);
  return Nfc(cut);
}

}  // namespace kebab::parse::internal
