// Citations (spec §2.1, §3.5): where a hit or an answer claim comes from, as a typed value
// and as a URI with a W3C Media Fragment: `path#L12-L34`, `path#L12`, `path#p=3`,
// `path#xywh=x,y,w,h` (an image), `path#p=2&xywh=x,y,w,h` (a region of a page),
// `path#t=822,850` (seconds, millisecond precision), `path#caption`.
// ToUri() and Parse() round-trip; `section` is display-only and not part of the URI.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "core/types.h"

namespace kebab {

struct Citation {
  enum class Kind { kLine, kPage, kRegion, kCaption, kTime, kCode };

  Kind kind = Kind::kLine;
  std::string path;                       // workspace path, POSIX
  uint32_t line_start = 0, line_end = 0;  // kLine, kCode (1-based, inclusive)
  uint32_t page = 0;                      // kPage (1-based); kRegion: its page, 0 for an image
  // kPage: the cited characters [char_start, char_end) of the page's extracted text, in code
  // points; not part of the URI (a Media Fragment names the page only).
  std::optional<uint32_t> char_start, char_end;
  // kRegion: pixels of the image as stored, or of the page rendered at `dpi` (not in the URI).
  uint32_t x = 0, y = 0, w = 0, h = 0;
  std::optional<uint32_t> dpi;
  std::string model;                        // kCaption
  uint64_t start_ms = 0, end_ms = 0;        // kTime
  std::optional<std::string> speaker;       // kTime
  std::optional<std::string> section;       // kLine, kPage: human section label
  std::optional<std::string> symbol, lang;  // kCode

  static Citation Lines(std::string path, uint32_t start, uint32_t end);

  std::string ToUri() const;
  // Parses a URI made by ToUri(). A path without a fragment is an error (a citation always
  // points inside its file).
  static Result<Citation> Parse(std::string_view uri);

  // citation.v1 wire object (flat form: kind-specific keys at top level, plus path and uri).
  nlohmann::json ToWire() const;

  bool operator==(const Citation&) const = default;
};

std::string_view CitationKindName(Citation::Kind kind);

// A time in a recording as a person writes it: seconds ("62.5") or clock time ("1:02.5",
// "00:01:02.500"), to milliseconds; nullopt when it is neither.
std::optional<uint64_t> ParseMediaTime(std::string_view text);

// A workspace path as a citation URI spells it ('%' and '#' escaped), without a fragment.
std::string CitationPath(std::string_view path);

// The citation a chunk's first source span yields.
Citation CitationFromSpan(std::string_view path, const SourceSpan& span,
                          std::optional<std::string> section);

}  // namespace kebab
