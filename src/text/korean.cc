#include "text/korean.h"

#include <string_view>

#include "core/unicode.h"

namespace kebab::text {
namespace {

// Particles, alone and stacked (`에서는`). One-syllable particles that also end many nouns
// (`이`, `가`, `도`, `로`) are listed too: the caller searches the whole word as well, so a noun
// that merely ends like a particle (`고양이`) still matches itself, and the minimum stem keeps
// two-syllable nouns (`경로`, `추가`) whole.
// clang-format off
constexpr std::string_view kParticles[] = {
    "을", "를", "이", "가", "은", "는", "의", "에", "로", "와", "과", "도", "만", "나", "랑",
    "께", "엔", "란",
    "에서", "에게", "한테", "께서", "으로", "에는", "에도", "에만", "에의", "로는", "로도",
    "로서", "로써", "로의", "와는", "과는", "와도", "과도", "와의", "과의", "이나", "이랑",
    "처럼", "보다", "마다", "까지", "부터", "조차", "마저", "밖에", "만큼", "이며", "이란",
    "라는", "라고", "이든", "라도", "같이",
    "에서는", "에서도", "에서의", "에서만", "으로는", "으로도", "으로서", "으로써", "으로의",
    "에게는", "에게도", "에게만", "까지는", "까지도", "까지의", "부터는", "부터의", "로부터",
    "에게서", "한테서", "이라는", "이라고", "이라면", "이든지", "이라도",
    "에서부터", "으로부터"};

// Endings of 하다, 되다, 이다 and 시키다 predicates, then polite and question endings.
constexpr std::string_view kEndings[] = {
    "한", "할", "함", "해", "된", "될", "됨", "돼", "인", "일", "임",
    "하다", "한다", "하는", "하던", "하고", "하며", "하면", "하여", "해서", "하기", "하지",
    "하게", "했다", "했던", "할까", "해요",
    "합니다", "합니까", "하세요", "하려면", "하려고", "하도록", "하는지", "할까요", "하나요",
    "하였다", "하십시오", "해주세요", "했습니다", "하였습니다", "하셨습니다",
    "되다", "된다", "되는", "되던", "되고", "되며", "되면", "되어", "되기", "되지", "되게",
    "되도록", "되는지", "되나요", "되었다", "됩니다", "됩니까", "됐습니다", "되었습니다",
    "이다", "이었다", "였다", "입니다", "입니까", "인가", "인가요", "인지",
    "시키다", "시킨다", "시키는", "시킨", "시켜",
    "나요", "까요", "는가", "은가", "는지", "은지", "니까", "습니까", "습니다", "세요"};
// clang-format on

}  // namespace

KoreanSuffix FindKoreanSuffix(std::string_view word, size_t min_stem_syllables) {
  const size_t total = Utf8Length(word);
  KoreanSuffix best;
  auto consider = [&](std::string_view suffix, KoreanSuffixKind kind) {
    if (!word.ends_with(suffix)) return;
    const size_t n = Utf8Length(suffix);  // every suffix is Hangul syllables only
    if (n > best.syllables && total >= n + min_stem_syllables) best = {kind, n};
  };
  for (std::string_view s : kParticles) consider(s, KoreanSuffixKind::kParticle);
  for (std::string_view s : kEndings) consider(s, KoreanSuffixKind::kEnding);
  return best;
}

KoreanRunSuffix FindKoreanSuffix(std::string_view text, const ScriptRun& run,
                                 size_t min_stem_syllables) {
  KoreanRunSuffix out{{}, run.end};
  if (run.kind != RunKind::kCjk || run.units.empty() ||
      run.units.back().script != CjkScript::kHangul) {
    return out;
  }
  out.suffix = FindKoreanSuffix(text.substr(run.start, run.end - run.start), min_stem_syllables);
  if (out.suffix.syllables > 0) {
    out.start = run.units[run.units.size() - out.suffix.syllables].start;
  }
  return out;
}

}  // namespace kebab::text
