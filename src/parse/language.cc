#include "parse/language.h"

#include <dlfcn.h>

// compact_lang_det.h uses FILE without including <cstdio>, so that comes first.
#include <cstdio>
// CLD2's public API (types only: the library itself is loaded on first use).
#include <cld2/public/compact_lang_det.h>

#include <algorithm>
#include <mutex>

#include "core/unicode.h"

namespace kebab::parse {
namespace {

// libcld2 exists only as a shared library, and it drags the shared libstdc++ in with it.
// Only ingest detects languages, so it is opened on first use rather than linked: every
// `kebab search` process would otherwise pay for loading and relocating both.
struct Cld2 {
  decltype(static_cast<CLD2::Language (*)(const char*, int, bool, CLD2::Language*, int*, int*,
                                          bool*)>(&CLD2::ExtDetectLanguageSummary)) detect =
      nullptr;
  decltype(&CLD2::LanguageCode) code = nullptr;
};

const Cld2& LoadCld2() {
  static Cld2 cld2;
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = dlopen("libcld2.so.0", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) return;
    // The C++ (Itanium ABI) names of the two functions used, in CLD2 0.0.197.
    cld2.detect = reinterpret_cast<decltype(cld2.detect)>(
        dlsym(lib, "_ZN4CLD224ExtDetectLanguageSummaryEPKcibPNS_8LanguageEPiS4_Pb"));
    cld2.code =
        reinterpret_cast<decltype(cld2.code)>(dlsym(lib, "_ZN4CLD212LanguageCodeENS_8LanguageE"));
    if (cld2.detect == nullptr || cld2.code == nullptr) cld2 = {};
  });
  return cld2;
}

}  // namespace

// URLs are rare, so this looks for them rather than at every word.
void AppendWithoutUrls(std::string_view text, std::string& out) {
  size_t copied = 0;  // text[0, copied) is handled
  size_t from = 0;
  while (from < text.size()) {
    const size_t scheme = text.find("://", from);
    const size_t www = text.find("www.", from);
    const size_t hit = std::min(scheme, www);
    if (hit == std::string_view::npos) break;
    size_t start = hit;
    while (start > copied && !IsAsciiSpace(text[start - 1])) --start;
    if (hit == www && start != hit) {  // "www." inside a word
      from = hit + 4;
      continue;
    }
    size_t end = hit;
    while (end < text.size() && !IsAsciiSpace(text[end])) ++end;
    out.append(text.substr(copied, start - copied));
    copied = from = end;
  }
  out.append(text.substr(copied));
}

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
  const Cld2& cld2 = LoadCld2();
  if (cld2.detect == nullptr) return "und";
  CLD2::Language summary =
      cld2.detect(text.data(), static_cast<int>(text.size()),
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
  std::string_view code = cld2.code(language);
  code = code.substr(0, code.find('-'));
  return code.empty() ? "und" : std::string(code);
}

}  // namespace kebab::parse
