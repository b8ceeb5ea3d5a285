#include "text/analyzer.h"

#include <libstemmer.h>
#include <utf8proc.h>

#include <cstdint>
#include <utility>

#include "text/identifier.h"

namespace kebab::text {
namespace {

// Longer "words" are base64 blobs, hashes or minified code: indexing them only bloats FTS5.
constexpr size_t kMaxTermBytes = 200;

// NFKC + case folding + accent stripping for non-CJK words (café → cafe, Straße → strasse,
// ＡＢＣ → abc).
constexpr auto kWordOptions = static_cast<utf8proc_option_t>(
    UTF8PROC_STABLE | UTF8PROC_COMPAT | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD | UTF8PROC_STRIPMARK);
// NFKC only for CJK characters: half-width kana become full-width, conjoining Jamo compose
// into syllables, compatibility ideographs map to unified ones. Marks must survive here
// (か + U+3099 is が, not か).
constexpr auto kCjkOptions =
    static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPAT | UTF8PROC_COMPOSE);

struct Decoded {
  int32_t cp;
  int len;  // 0 = invalid sequence
};

// Strict UTF-8 decoding (no overlongs, surrogates or code points past U+10FFFF), inlined
// because it runs on every non-ASCII character of the corpus.
inline Decoded Decode(const unsigned char* p, size_t left) {
  const unsigned char c = p[0];
  auto cont = [&](size_t i) { return i < left && (p[i] & 0xC0) == 0x80; };
  if (c < 0x80) return {c, 1};
  if (c < 0xC2) return {0, 0};
  if (c < 0xE0) {
    if (!cont(1)) return {0, 0};
    return {((c & 0x1F) << 6) | (p[1] & 0x3F), 2};
  }
  if (c < 0xF0) {
    if (!cont(1) || !cont(2)) return {0, 0};
    const int32_t cp = ((c & 0x0F) << 12) | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
    if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return {0, 0};
    return {cp, 3};
  }
  if (c < 0xF5) {
    if (!cont(1) || !cont(2) || !cont(3)) return {0, 0};
    const int32_t cp =
        ((c & 0x07) << 18) | ((p[1] & 0x3F) << 12) | ((p[2] & 0x3F) << 6) | (p[3] & 0x3F);
    if (cp < 0x10000 || cp > 0x10FFFF) return {0, 0};
    return {cp, 4};
  }
  return {0, 0};
}

inline bool InRange(int32_t cp, int32_t lo, int32_t hi) {
  return cp >= lo && cp <= hi;
}

inline bool IsAsciiAlnum(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

inline bool HasAsciiUpper(std::string_view s) {
  for (char c : s) {
    if (c >= 'A' && c <= 'Z') return true;
  }
  return false;
}

inline bool IsHangulSyllable(int32_t cp) {
  return InRange(cp, 0xAC00, 0xD7A3);
}

inline bool IsHanCompatibility(int32_t cp) {
  return InRange(cp, 0xF900, 0xFAFF) || InRange(cp, 0x2F800, 0x2FA1F);
}

// Han ideographs count as CJK whatever utf8proc's (possibly older) tables say about
// recently assigned code points. 々〆〇 (U+3005–3007) behave as ideographs.
inline bool IsHan(int32_t cp) {
  return InRange(cp, 0x4E00, 0x9FFF) || InRange(cp, 0x3400, 0x4DBF) ||
         InRange(cp, 0x3005, 0x3007) || IsHanCompatibility(cp) || InRange(cp, 0x20000, 0x323AF);
}

// Hangul Jamo and kana blocks also hold punctuation (e.g. U+30FB ・), so these need the
// general category too.
inline bool IsJamoOrKanaBlock(int32_t cp) {
  return InRange(cp, 0x1100, 0x11FF) || InRange(cp, 0x3130, 0x318F) ||
         InRange(cp, 0xA960, 0xA97F) || InRange(cp, 0xD7B0, 0xD7FF) ||
         InRange(cp, 0xFFA0, 0xFFDC) || InRange(cp, 0x3040, 0x30FF) ||
         InRange(cp, 0x31F0, 0x31FF) || InRange(cp, 0xFF66, 0xFF9D) ||
         InRange(cp, 0x1B000, 0x1B16F);
}

enum class CharClass { kSeparator, kWord, kMark, kCjk };

inline CharClass Classify(int32_t cp) {
  if (IsHangulSyllable(cp) || IsHan(cp)) return CharClass::kCjk;
  // Half-width (semi-)voiced sound marks are letters by category but combine with the
  // preceding kana under NFKC, exactly like U+3099/U+309A.
  if (cp == 0xFF9E || cp == 0xFF9F) return CharClass::kMark;
  const utf8proc_category_t cat = utf8proc_category(cp);
  if (cat >= UTF8PROC_CATEGORY_MN && cat <= UTF8PROC_CATEGORY_ME) return CharClass::kMark;
  const bool letter = cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_LO;
  const bool number = cat >= UTF8PROC_CATEGORY_ND && cat <= UTF8PROC_CATEGORY_NO;
  if (!letter && !number) return CharClass::kSeparator;
  return IsJamoOrKanaBlock(cp) ? CharClass::kCjk : CharClass::kWord;
}

// The end of the maximal run of non-CJK letters, digits and marks that starts at `start` in
// the `n` bytes at `p`; clears `*ascii` when the run holds anything but ASCII.
inline size_t WordEnd(const unsigned char* p, size_t n, size_t start, bool* ascii) {
  size_t i = start;
  while (i < n) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      if (!IsAsciiAlnum(c)) break;
      ++i;
      continue;
    }
    const Decoded d = Decode(p + i, n - i);
    if (d.len == 0) break;
    const CharClass k = Classify(d.cp);
    if (k != CharClass::kWord && k != CharClass::kMark) break;
    *ascii = false;
    i += static_cast<size_t>(d.len);
  }
  return i;
}

// A single code point that NFKC leaves unchanged, so the unit's bytes are its term.
inline bool IsPlainCjk(int32_t cp) {
  return IsHangulSyllable(cp) || (IsHan(cp) && !IsHanCompatibility(cp)) ||
         InRange(cp, 0x3041, 0x3096) || InRange(cp, 0x30A1, 0x30FE);
}

// Conjoining Jamo (decomposed Hangul, e.g. from macOS file names) are grouped into one
// syllable unit so that NFD and NFC text index identically.
enum class Jamo { kNone, kLeading, kLeadingVowel };

inline bool IsLeadingJamo(int32_t cp) {
  return InRange(cp, 0x1100, 0x115F) || InRange(cp, 0xA960, 0xA97C);
}
inline bool IsVowelJamo(int32_t cp) {
  return InRange(cp, 0x1160, 0x11A7) || InRange(cp, 0xD7B0, 0xD7C6);
}
inline bool IsTrailingJamo(int32_t cp) {
  return InRange(cp, 0x11A8, 0x11FF) || InRange(cp, 0xD7CB, 0xD7FB);
}

inline Jamo JamoStateOf(int32_t cp) {
  if (IsLeadingJamo(cp)) return Jamo::kLeading;
  if (IsHangulSyllable(cp) && (cp - 0xAC00) % 28 == 0) return Jamo::kLeadingVowel;
  return Jamo::kNone;
}

// Applies `options` to `src` using `buf` as scratch; false when utf8proc rejects the input.
bool Normalize(std::string_view src, utf8proc_option_t options, std::vector<utf8proc_int32_t>& buf,
               std::string& out) {
  const auto* s = reinterpret_cast<const utf8proc_uint8_t*>(src.data());
  const auto len = static_cast<utf8proc_ssize_t>(src.size());
  utf8proc_ssize_t n =
      utf8proc_decompose(s, len, buf.data(), static_cast<utf8proc_ssize_t>(buf.size()), options);
  if (n < 0) return false;
  if (static_cast<size_t>(n) > buf.size()) {
    buf.resize(static_cast<size_t>(n));
    n = utf8proc_decompose(s, len, buf.data(), n, options);
    if (n < 0) return false;
  }
  // Re-encoding in place is safe: a code point never needs more than its 4 int32 bytes.
  n = utf8proc_reencode(buf.data(), n, options);
  if (n < 0) return false;
  out.assign(reinterpret_cast<const char*>(buf.data()), static_cast<size_t>(n));
  return true;
}

// Snowball's output depends only on the word and word frequencies are Zipfian, so a small
// direct-mapped cache skips most stemmer calls (otherwise the larger part of tokenizing).
class CachedStemmer {
 public:
  explicit CachedStemmer(sb_stemmer* stemmer) : stemmer_(stemmer) {}
  ~CachedStemmer() { sb_stemmer_delete(stemmer_); }
  CachedStemmer(const CachedStemmer&) = delete;
  CachedStemmer& operator=(const CachedStemmer&) = delete;

  // The stem of non-empty `word`; valid until the next call.
  std::string_view Stem(std::string_view word) {
    if (word.size() > kMaxCachedBytes) return StemUncached(word);
    // A query stems a handful of words, and a search's snippets a few thousand; building the
    // 1 MB table would cost them more than the stems (every `kebab search` process paid ~250
    // page faults for it, a third of its own, at 512 stems before the table), so it waits
    // for an ingest's volume.
    if (entries_.empty()) {
      if (++uncached_calls_ < kCallsBeforeCaching) return StemUncached(word);
      entries_.resize(kEntries);
    }
    Entry& entry = entries_[Hash(word) & (kEntries - 1)];
    if (entry.word != word) {
      entry.stem.assign(StemUncached(word));
      entry.word.assign(word);
    }
    return entry.stem;
  }

 private:
  // A power of two. An ingest worker on 2,400 tldr pages stemmed 26k times with 4,096 entries
  // (and 8,192 stems before the table), 17k times with these.
  static constexpr size_t kEntries = 16384;
  static constexpr size_t kMaxCachedBytes = 32;
  static constexpr size_t kCallsBeforeCaching = 8192;

  struct Entry {
    std::string word;  // empty = unused; empty words are never stemmed
    std::string stem;
  };

  static uint64_t Hash(std::string_view word) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (unsigned char c : word) h = (h ^ c) * 1099511628211ull;
    return h;
  }

  std::string_view StemUncached(std::string_view word) {
    const sb_symbol* stem = sb_stemmer_stem(
        stemmer_, reinterpret_cast<const sb_symbol*>(word.data()), static_cast<int>(word.size()));
    if (stem == nullptr) return word;  // out of memory: index the word unstemmed
    return {reinterpret_cast<const char*>(stem), static_cast<size_t>(sb_stemmer_length(stemmer_))};
  }

  sb_stemmer* stemmer_;
  size_t uncached_calls_ = 0;
  std::vector<Entry> entries_;
};

// Buffers reused across tokens and calls, so steady-state tokenizing does not allocate.
struct Scratch {
  std::vector<utf8proc_int32_t> codepoints = std::vector<utf8proc_int32_t>(4 * kMaxTermBytes);
  std::string word;
  std::string prev_unit;
  std::string cur_unit;
  std::string bigram;
  std::string whole;  // an identifier's words joined
  std::vector<IdentifierPart> parts;
};

// One pass over one text; holds the cursor state so the scanning helpers stay small.
class Segmenter {
 public:
  Segmenter(std::string_view text, CachedStemmer* stemmer, bool identifier_words, Scratch& scratch,
            TokenSink& sink)
      : p_(reinterpret_cast<const unsigned char*>(text.data())),
        n_(text.size()),
        stemmer_(stemmer),
        identifier_words_(identifier_words),
        word_(scratch.word),
        codepoints_(scratch.codepoints),
        prev_unit_(scratch.prev_unit),
        cur_unit_(scratch.cur_unit),
        bigram_(scratch.bigram),
        whole_(scratch.whole),
        parts_(scratch.parts),
        sink_(sink) {}

  void Run() {
    size_t i = 0;
    while (i < n_ && !sink_.stopped()) {
      const unsigned char c = p_[i];
      if (c < 0x80) {
        i = IsAsciiAlnum(c) ? Word(i) : i + 1;
        continue;
      }
      const Decoded d = Decode(p_ + i, n_ - i);
      if (d.len == 0) {
        ++i;
        continue;
      }
      switch (Classify(d.cp)) {
        case CharClass::kSeparator:
          i += static_cast<size_t>(d.len);
          break;
        case CharClass::kCjk:
          i = Cjk(i);
          break;
        case CharClass::kWord:
        case CharClass::kMark:
          i = Word(i);
          break;
      }
    }
  }

 private:
  std::string_view Source(size_t start, size_t end) const {
    return {reinterpret_cast<const char*>(p_ + start), end - start};
  }

  void Emit(std::string_view term, size_t start, size_t end, bool colocated = false) {
    if (term.empty() || term.size() > kMaxTermBytes) return;
    if (colocated) {
      sink_.OnColocated(term, static_cast<int>(start), static_cast<int>(end));
    } else {
      sink_.OnToken(term, static_cast<int>(start), static_cast<int>(end));
    }
  }

  // Emits the word that starts at `start`; returns its end. An ASCII word with a change of
  // case or an underscore after it may be an identifier (identifier.h): then each of its words,
  // and the whole at the last one's position.
  size_t Word(size_t start) {
    bool ascii = true;
    const size_t end = WordEnd(p_, n_, start, &ascii);
    if (identifier_words_ && ascii &&
        ((end < n_ && p_[end] == '_') || HasAsciiUpper(Source(start + 1, end)))) {
      const size_t ident_end = ScanIdentifier(Source(0, n_), start, end, &parts_);
      if (parts_.size() > 1) {
        EmitIdentifier(start, ident_end);
        return ident_end;
      }
    }
    EmitWord(start, end, ascii);
    return end;
  }

  void EmitIdentifier(size_t start, size_t end) {
    whole_.clear();
    for (const IdentifierPart& part : parts_) {
      whole_.append(Source(part.start, part.end));
      EmitWord(part.start, part.end, true);
    }
    if (whole_.size() > kMaxTermBytes) return;
    for (char& c : whole_) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
    std::string_view term = whole_;
    if (stemmer_ != nullptr) term = stemmer_->Stem(term);
    Emit(term, start, end, true);
  }

  void EmitWord(size_t start, size_t end, bool ascii) {
    if (end - start > kMaxTermBytes) return;
    std::string_view term = Source(start, end);
    if (!ascii) {
      if (!Normalize(term, kWordOptions, codepoints_, word_)) return;
      term = word_;
    } else if (HasAsciiUpper(term)) {
      word_.resize(term.size());
      for (size_t i = 0; i < term.size(); ++i) {
        const char c = term[i];
        word_[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
      }
      term = word_;
    }
    if (stemmer_ != nullptr && !term.empty()) term = stemmer_->Stem(term);
    Emit(term, start, end);
  }

  struct Unit {
    size_t start = 0;
    size_t end = 0;
    bool plain = true;
    Jamo jamo = Jamo::kNone;
  };

  // Scans a maximal CJK run starting at `start` (a CJK character) and emits its bigrams, or
  // the lone character of a one-character run; returns the run's end.
  size_t Cjk(size_t start) {
    size_t i = start;
    Unit cur;
    bool have_cur = false;
    units_ = 0;
    while (i < n_ && !sink_.stopped()) {
      if (p_[i] < 0x80) break;
      const Decoded d = Decode(p_ + i, n_ - i);
      if (d.len == 0) break;
      const auto len = static_cast<size_t>(d.len);
      const CharClass k = Classify(d.cp);
      if (k == CharClass::kMark && have_cur) {
        cur.end += len;
        cur.plain = false;
        cur.jamo = Jamo::kNone;
      } else if (k != CharClass::kCjk) {
        break;
      } else if ((cur.jamo == Jamo::kLeading && IsVowelJamo(d.cp)) ||
                 (cur.jamo == Jamo::kLeadingVowel && IsTrailingJamo(d.cp))) {
        cur.end += len;
        cur.plain = false;
        cur.jamo = cur.jamo == Jamo::kLeading ? Jamo::kLeadingVowel : Jamo::kNone;
      } else {
        if (have_cur) FinishUnit(cur);
        cur = Unit{i, i + len, IsPlainCjk(d.cp), JamoStateOf(d.cp)};
        have_cur = true;
      }
      i += len;
    }
    if (have_cur && !sink_.stopped()) FinishUnit(cur);
    if (units_ == 1 && !sink_.stopped()) Emit(PrevTerm(), prev_start_, prev_end_);
    return i;
  }

  // Normalizes one CJK character (with its marks) and pairs it with the previous one.
  // A plain unit's term is its source bytes, and units of a run are contiguous, so the
  // common bigram of two plain units is a view of the input and needs no copy.
  void FinishUnit(const Unit& unit) {
    const std::string_view src = Source(unit.start, unit.end);
    const bool plain = unit.plain || !Normalize(src, kCjkOptions, codepoints_, cur_unit_);
    if (units_ > 0) {
      if (prev_plain_ && plain) {
        Emit(Source(prev_start_, unit.end), prev_start_, unit.end);
      } else {
        bigram_.assign(PrevTerm());
        bigram_ += plain ? src : std::string_view(cur_unit_);
        Emit(bigram_, prev_start_, unit.end);
      }
    }
    if (!plain) std::swap(prev_unit_, cur_unit_);
    prev_plain_ = plain;
    prev_start_ = unit.start;
    prev_end_ = unit.end;
    ++units_;
  }

  std::string_view PrevTerm() const {
    return prev_plain_ ? Source(prev_start_, prev_end_) : std::string_view(prev_unit_);
  }

  const unsigned char* p_;
  size_t n_;
  CachedStemmer* stemmer_;
  const bool identifier_words_;
  std::string& word_;
  std::vector<utf8proc_int32_t>& codepoints_;
  std::string& prev_unit_;
  std::string& cur_unit_;
  std::string& bigram_;
  std::string& whole_;
  std::vector<IdentifierPart>& parts_;
  TokenSink& sink_;
  size_t units_ = 0;
  size_t prev_start_ = 0;
  size_t prev_end_ = 0;
  bool prev_plain_ = true;
};

inline CjkScript ScriptOf(int32_t cp) {
  if (IsHangulSyllable(cp) || IsLeadingJamo(cp) || IsVowelJamo(cp) || IsTrailingJamo(cp) ||
      InRange(cp, 0x3130, 0x318F) || InRange(cp, 0xFFA0, 0xFFDC)) {
    return CjkScript::kHangul;
  }
  return IsHan(cp) ? CjkScript::kHan : CjkScript::kKana;
}

// The scanning rules of Segmenter::Run, Word and Cjk, without normalizing or emitting.
class RunScanner {
 public:
  explicit RunScanner(std::string_view text)
      : p_(reinterpret_cast<const unsigned char*>(text.data())), n_(text.size()) {}

  std::vector<ScriptRun> Scan() {
    std::vector<ScriptRun> runs;
    size_t i = 0;
    while (i < n_) {
      if (p_[i] < 0x80) {
        if (!IsAsciiAlnum(p_[i])) {
          ++i;
          continue;
        }
        runs.push_back(WordRun(i));
      } else {
        const Decoded d = Decode(p_ + i, n_ - i);
        const CharClass k = d.len == 0 ? CharClass::kSeparator : Classify(d.cp);
        if (k == CharClass::kSeparator) {
          i += d.len == 0 ? 1 : static_cast<size_t>(d.len);
          continue;
        }
        runs.push_back(k == CharClass::kCjk ? CjkRun(i) : WordRun(i));
      }
      i = runs.back().end;
    }
    return runs;
  }

 private:
  ScriptRun WordRun(size_t start) const {
    bool ascii = true;
    return {RunKind::kWord, start, WordEnd(p_, n_, start, &ascii), {}};
  }

  ScriptRun CjkRun(size_t start) const {
    ScriptRun run{RunKind::kCjk, start, start, {}};
    Jamo jamo = Jamo::kNone;
    size_t i = start;
    while (i < n_ && p_[i] >= 0x80) {
      const Decoded d = Decode(p_ + i, n_ - i);
      if (d.len == 0) break;
      const auto len = static_cast<size_t>(d.len);
      const CharClass k = Classify(d.cp);
      if (k == CharClass::kMark && !run.units.empty()) {
        jamo = Jamo::kNone;
      } else if (k != CharClass::kCjk) {
        break;
      } else if ((jamo == Jamo::kLeading && IsVowelJamo(d.cp)) ||
                 (jamo == Jamo::kLeadingVowel && IsTrailingJamo(d.cp))) {
        jamo = jamo == Jamo::kLeading ? Jamo::kLeadingVowel : Jamo::kNone;
      } else {
        run.units.push_back({i, i, ScriptOf(d.cp)});
        jamo = JamoStateOf(d.cp);
      }
      i += len;
      run.units.back().end = i;
    }
    run.end = i;
    return run;
  }

  const unsigned char* p_;
  size_t n_;
};

class CollectingSink : public TokenSink {
 public:
  explicit CollectingSink(std::vector<std::string>& out) : out_(out) {}
  void OnToken(std::string_view term, int, int) override { out_.emplace_back(term); }

 private:
  std::vector<std::string>& out_;
};

bool WantsStemming(std::string_view name) {
  return !name.empty() && name != "none";
}

}  // namespace

struct Analyzer::State {
  std::unique_ptr<CachedStemmer> stemmer;  // null when not stemming
  Scratch scratch;
};

Analyzer::Analyzer(AnalyzerOptions options)
    : options_(std::move(options)), state_(std::make_unique<State>()) {
  if (WantsStemming(options_.stemmer)) {
    sb_stemmer* stemmer = sb_stemmer_new(options_.stemmer.c_str(), "UTF_8");
    if (stemmer != nullptr) state_->stemmer = std::make_unique<CachedStemmer>(stemmer);
  }
}

Analyzer::~Analyzer() = default;

bool Analyzer::IsKnownStemmer(std::string_view name) {
  if (!WantsStemming(name)) return true;
  for (const char** list = sb_stemmer_list(); *list != nullptr; ++list) {
    if (name == *list) return true;
  }
  // Aliases such as "en" or "porter" are accepted by sb_stemmer_new but not listed.
  const std::string owned(name);
  sb_stemmer* stemmer = sb_stemmer_new(owned.c_str(), "UTF_8");
  sb_stemmer_delete(stemmer);
  return stemmer != nullptr;
}

std::vector<std::string> Analyzer::StemmerNames() {
  std::vector<std::string> names;
  for (const char** list = sb_stemmer_list(); *list != nullptr; ++list) names.emplace_back(*list);
  return names;
}

void Analyzer::Run(std::string_view text, TokenSink& sink, bool stem) const {
  Segmenter(text, stem ? state_->stemmer.get() : nullptr, options_.identifier_words,
            state_->scratch, sink)
      .Run();
}

void Analyzer::Tokenize(std::string_view text, TokenSink& sink) const {
  Run(text, sink, true);
}

void Analyzer::TokenizeUnstemmed(std::string_view text, TokenSink& sink) const {
  Run(text, sink, false);
}

std::vector<ScriptRun> ScriptRuns(std::string_view text) {
  return RunScanner(text).Scan();
}

std::vector<std::string> Analyzer::Terms(std::string_view text) const {
  std::vector<std::string> out;
  CollectingSink sink(out);
  Tokenize(text, sink);
  return out;
}

}  // namespace kebab::text
