#include "parse/language.h"

// compact_lang_det.h uses FILE without including <cstdio>, so that comes first.
#include <cstdio>
// CLD2's public API.
#include <cld2/public/compact_lang_det.h>

#include "core/unicode.h"

namespace kebab::parse {

std::string DetectLanguage(std::string_view text) {
  // CLD2 takes an int length and wants valid UTF-8; a document's language shows in its first
  // kilobytes anyway.
  constexpr size_t kMaxBytes = 1 << 20;
  if (text.size() > kMaxBytes) text = text.substr(0, Utf8SafePrefix(text, kMaxBytes));
  std::string repaired;
  if (!IsValidUtf8(text)) {
    repaired = SanitizeUtf8(text);
    text = repaired;
  }
  if (text.empty()) return "und";

  CLD2::Language top3[3];
  int percent3[3];
  int text_bytes = 0;
  bool reliable = false;
  CLD2::Language summary = CLD2::ExtDetectLanguageSummary(
      text.data(), static_cast<int>(text.size()),
      /*is_plain_text=*/true, top3, percent3, &text_bytes, &reliable);
  // The summary demotes English whenever another language has a share (a rule for web pages
  // with English boilerplate); a note that is 80% English with a Korean section is English,
  // so take the language with the most text.
  CLD2::Language language = top3[0] != CLD2::UNKNOWN_LANGUAGE ? top3[0] : summary;
  if (!reliable || language == CLD2::UNKNOWN_LANGUAGE || language == CLD2::TG_UNKNOWN_LANGUAGE) {
    return "und";
  }
  // CLD2 codes are ISO 639-1 where one exists, sometimes with a script or region suffix
  // ("zh-Hant"); keep the language part only.
  std::string_view code = CLD2::LanguageCode(language);
  code = code.substr(0, code.find('-'));
  return code.empty() ? "und" : std::string(code);
}

}  // namespace kebab::parse
