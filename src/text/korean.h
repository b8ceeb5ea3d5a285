// Korean particles (조사) and predicate endings (어미), as a query needs them: a question says
// `회의록을 작성한`, the passage `회의록` and `작성하였다`, and the index holds character
// bigrams, so the question's `록을` and `성한` are bigrams only the particle and ending make.
// This is a suffix list, not a morphological analyzer: it knows the common particles (alone
// and stacked, `에서는`), the 하다/되다/이다 verb endings and polite and question endings, and
// leaves everything else alone.
//
// Pure functions over UTF-8; thread-safe.
#pragma once

#include <cstddef>
#include <string_view>

#include "text/analyzer.h"

namespace kebab::text {

enum class KoreanSuffixKind { kNone, kParticle, kEnding };

struct KoreanSuffix {
  KoreanSuffixKind kind = KoreanSuffixKind::kNone;
  size_t syllables = 0;
};

// The particle or ending that ends `word` (NFC): the longest one that leaves at least
// `min_stem_syllables` characters before it. `회의록을` → particle of 1, `저장소에서는` →
// particle of 3, `커밋합니다` → ending of 3, `가을` → none with a minimum stem of 2.
KoreanSuffix FindKoreanSuffix(std::string_view word, size_t min_stem_syllables);

// FindKoreanSuffix for one run of `text` as ScriptRuns cut it (none unless the run is CJK and
// ends in Hangul), with the byte offset in `text` where the suffix starts (run.end if none).
struct KoreanRunSuffix {
  KoreanSuffix suffix;
  size_t start = 0;
};
KoreanRunSuffix FindKoreanSuffix(std::string_view text, const ScriptRun& run,
                                 size_t min_stem_syllables);

}  // namespace kebab::text
