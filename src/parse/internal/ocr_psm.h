// How kebab-ocr chooses a page's Tesseract page segmentation mode when [ingest.ocr]
// page_segmentation_mode is "auto". Pure functions over what the worker measured, shared by
// the worker (ocr_worker.cc, which links nothing of kebab's, hence header-only) and its tests.
//
// Why (issue 37; bench/ocr_bench.py): psm 3 finds columns and blocks and reads English best,
// but on Korean text its layout analysis drops or reorders parts of lines; psm 6 reads the page
// as one block, which is right for one column of Korean and wrong for English or any text in
// columns, which it reads across. On ../shared/data/ocr, pooled CER English / Korean: psm 3
// 0.010 / 0.118, psm 6 0.099 / 0.103, this choice 0.010 / 0.103; on 22 more Korean pages and
// images (two-column ones among them) psm 3 0.29, psm 6 0.38, this choice 0.24. So: psm 6 for
// Hangul in one column, psm 3 otherwise. Tesseract's orientation-and-script detection (its osd
// data, about 0.3 s a page) guesses the script before the page is read; the text read and its
// columns decide, and a page is read again only when they say otherwise than the guess (a
// Korean page in columns, a wrong guess, no osd data: then every Korean page is read twice).
// Time per page: 1.17x a single pass in the CLI's best mode on ../shared/data/ocr.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace kebab::parse::internal {

// "auto" in OCR cache keys and parser versions (OcrSettings::CacheVersion): a new value with
// every change to how the mode is chosen, so pages read the old way are read again.
inline constexpr char kAutoPsmVersion[] = "auto1";

// Tesseract's modes (tesseract::PageSegMode) that "auto" chooses between.
inline constexpr int kPsmAuto = 3;         // PSM_AUTO: columns and blocks found
inline constexpr int kPsmSingleBlock = 6;  // PSM_SINGLE_BLOCK: one uniform block of text

enum class PageScript { kUnknown, kHangul, kOther };

// True for a Tesseract language that reads Hangul ("kor", "kor_vert", "script/Hangul"): only
// then may "auto" choose psm 6.
inline bool ReadsHangul(std::string_view lang) {
  return lang == "kor" || lang == "kor_vert" || lang.starts_with("script/Hangul");
}

// The script of OCR text: kHangul when at least 40% of its letters (Hangul or Latin) are Hangul,
// kOther under 10%, kUnknown in between or with fewer than 10 letters. (Korean pages of
// lshort-ko read 0.28-0.89 Hangul, English pages read with kor+eng at most 0.002; pages under
// 0.4 are mostly LaTeX code and read as well at psm 3.)
inline PageScript ScriptOfText(std::string_view utf8) {
  int64_t hangul = 0, latin = 0;
  for (size_t i = 0; i < utf8.size();) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    if (c < 0x80) {
      if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ++latin;
      ++i;
      continue;
    }
    const int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (len == 3 && i + 2 < utf8.size()) {
      const uint32_t cp = ((c & 0x0Fu) << 12) |
                          ((static_cast<unsigned char>(utf8[i + 1]) & 0x3Fu) << 6) |
                          (static_cast<unsigned char>(utf8[i + 2]) & 0x3Fu);
      // Syllables, conjoining jamo, compatibility jamo.
      if ((cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0x1100 && cp <= 0x11FF) ||
          (cp >= 0x3130 && cp <= 0x318F)) {
        ++hangul;
      }
    }
    i += static_cast<size_t>(len);
  }
  const int64_t letters = hangul + latin;
  if (letters < 10) return PageScript::kUnknown;
  if (hangul * 10 >= letters * 4) return PageScript::kHangul;
  if (hangul * 10 < letters) return PageScript::kOther;
  return PageScript::kUnknown;
}

// The script Tesseract's orientation-and-script detection names: "Korean" (Hangul with Han) or
// "Hangul" is kHangul, an empty name (no answer) kUnknown, any other kOther.
inline PageScript ScriptOfOsd(std::string_view name) {
  if (name.empty()) return PageScript::kUnknown;
  return name == "Korean" || name == "Hangul" ? PageScript::kHangul : PageScript::kOther;
}

// A word's box as Tesseract read it, in pixels.
struct WordBox {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// The height that `spans` (top, bottom) cover together.
inline int64_t CoveredHeight(std::vector<std::pair<int, int>> spans) {
  std::sort(spans.begin(), spans.end());
  int64_t covered = 0;
  int top = 0, bottom = 0;
  bool open = false;
  for (const auto& [t, b] : spans) {
    if (b <= t) continue;
    if (open && t <= bottom) {
      bottom = std::max(bottom, b);
      continue;
    }
    if (open) covered += bottom - top;
    top = t, bottom = b, open = true;
  }
  return open ? covered + bottom - top : covered;
}

// True when the text read stands in columns. The words of each line (left to right) are
// joined into phrases where less than the line's height apart, so a gap between words never
// looks like a gutter; then some vertical through the middle half of the text must have
// phrases wholly on each side of it over a quarter of the text's height more than it has
// phrases crossing it. (On 29 Korean pages and images read at psm 3 or 6, two columns scored
// 0.35-0.94 of the text's height, one column at most 0.07.)
inline bool HasColumns(std::span<const std::vector<WordBox>> lines) {
  std::vector<WordBox> phrases;
  for (std::vector<WordBox> words : lines) {
    if (words.empty()) continue;
    std::sort(words.begin(), words.end(),
              [](const WordBox& a, const WordBox& b) { return a.x0 < b.x0; });
    int top = words[0].y0, bottom = words[0].y1;
    for (const WordBox& w : words) top = std::min(top, w.y0), bottom = std::max(bottom, w.y1);
    WordBox phrase = words[0];
    for (size_t i = 1; i < words.size(); ++i) {
      const WordBox& w = words[i];
      if (w.x0 - phrase.x1 < bottom - top) {
        phrase = {phrase.x0, std::min(phrase.y0, w.y0), std::max(phrase.x1, w.x1),
                  std::max(phrase.y1, w.y1)};
      } else {
        phrases.push_back(phrase);
        phrase = w;
      }
    }
    phrases.push_back(phrase);
  }
  if (phrases.size() < 2) return false;
  int left = phrases[0].x0, right = phrases[0].x1;
  std::vector<std::pair<int, int>> all;
  for (const WordBox& p : phrases) {
    left = std::min(left, p.x0);
    right = std::max(right, p.x1);
    all.emplace_back(p.y0, p.y1);
  }
  const int64_t text = CoveredHeight(all);
  if (text <= 0) return false;
  for (int percent = 25; percent <= 75; ++percent) {
    const int x = left + (right - left) * percent / 100;
    std::vector<std::pair<int, int>> before, after, crossing;
    for (const WordBox& p : phrases) {
      (p.x1 <= x ? before : p.x0 >= x ? after : crossing).emplace_back(p.y0, p.y1);
    }
    const int64_t beside = std::min(CoveredHeight(before), CoveredHeight(after));
    if ((beside - CoveredHeight(crossing)) * 4 >= text) return true;
  }
  return false;
}

// The mode for a page in `script` whose lines do or do not stand in columns.
inline int ChoosePsm(PageScript script, bool columns) {
  return script == PageScript::kHangul && !columns ? kPsmSingleBlock : kPsmAuto;
}

}  // namespace kebab::parse::internal
