// Loads a GGUF model through llama.h, prints how long the load took, then tokenizes a fixed,
// varied set of strings and prints every token id, one line per (string, mode). Two builds of
// llama.cpp that tokenize identically print identical token lines, so `diff` of the outputs of
// an unpatched and a patched build is the byte-for-byte tokenization check
// (bench/tokenize_check.sh does that). Not part of the kebab build; the script compiles it.
//
// Before printing, 4 threads tokenize every input at once on the freshly loaded model (lazily
// built tokenizer tables must give the same answers under concurrency); a mismatch with the
// single-threaded results fails the run.
//
// Inputs: ~40 hand-picked strings (English, Korean, Japanese, Chinese, emoji, whitespace runs,
// long words, special-token texts, invalid UTF-8) and 2000 deterministic pseudo-random ones.
//
// Usage: llama_tokenize_dump [--vocab-only] MODEL.gguf [EXTRA_INPUTS]...
//   EXTRA_INPUTS: more inputs: a llama.cpp tokenizer test file (models/ggml-vocab-*.gguf.inp,
//   cases separated by "__ggml_vocab_test__" lines), or else one input per line.
#include <llama.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace {

void Quiet(ggml_log_level, const char*, void*) {}

std::vector<std::string> Inputs() {
  std::vector<std::string> v = {
      "",
      " ",
      "   ",
      "\n",
      "\t\n \r\n",
      "hello world",
      "Hello World!",
      "  leading and trailing spaces  ",
      "multiple     spaces\t\ttabs\n\nnewlines\r\n",
      "The quick brown fox jumps over the lazy dog.",
      "write-ahead log (WAL) checkpoint; fsync() & durability — 99.9% of the time",
      "query: how do I configure SQLite FTS5 tokenizers?",
      "passage: SQLite is a C-language library that implements a small, fast database engine.",
      "antidisestablishmentarianism pneumonoultramicroscopicsilicovolcanoconiosis",
      "supercalifragilisticexpialidocious_and_a_very_long_identifier_with_underscores_123456789",
      "https://example.com/path/to/file.md?query=1&x=y#L10-L14",
      "C++20 std::vector<std::string> v{\"a\", \"b\"}; // comment",
      "데이터베이스는 트랜잭션을 지원합니다. 한국어 형태소 분석",
      "안녕하세요, 세계!   띄어쓰기   여러  칸",
      "日本語のテキストをトークン化します。東京タワー",
      "ｶﾀｶﾅ ﾃｽﾄ ＦＵＬＬＷＩＤＴＨ　全角スペース",
      "中文分词测试：自然语言处理",
      "Ελληνικά και русский текст, עברית, العربية",
      "Café naïve façade résumé Ångström",
      "e\xCC\x81 composed vs \xC3\xA9 precomposed",
      "emoji 😀👍🏽 family 👨‍👩‍👧‍👦 flags 🇰🇷🇯🇵 ✨",
      "🙂🙂🙂🙂🙂🙂",
      "zero\xE2\x80\x8Bwidth\xE2\x80\x8Cjoiner\xEF\xBB\xBF bom",
      "\xE2\x96\x81"
      "already"
      "\xE2\x96\x81"
      "escaped"
      "\xE2\x96\x81"
      "spaces",
      "<s> </s> <unk> <pad> <mask> [CLS] [SEP] [UNK] [PAD] [MASK]",
      "text with <mask> inside and [MASK] too",
      "<s>query: special at start</s>",
      "UPPER lower MiXeD 12345 3.14159 1,000,000",
      "!!!???...,,,;;;:::---___+++===",
      "invalid utf8 \xFF\xFE bytes \xC3 end",
      "ﬁ ligature ① circled ㎏ squared Ⅻ roman",
      "a",
      "ab",
      "\xE2\x96\x81",
  };
  std::string long_word(600, 'x');
  v.push_back(long_word);
  std::string long_text;
  for (int i = 0; i < 40; ++i) long_text += "Lorem ipsum dolor sit amet, 한국어 日本語 😀 ";
  v.push_back(long_text);
  return v;
}

// The token ids of text; {-1000} when llama.cpp threw (it lets some exceptions through its C API).
std::vector<llama_token> Tokenize(const llama_vocab* vocab, const std::string& text,
                                  bool add_special, bool parse_special) try {
  std::vector<llama_token> tok(text.size() * 2 + 16);
  int n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), tok.data(),
                         static_cast<int32_t>(tok.size()), add_special, parse_special);
  if (n < 0) {
    tok.resize(-n);
    n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), tok.data(),
                       static_cast<int32_t>(tok.size()), add_special, parse_special);
  }
  tok.resize(n < 0 ? 0 : n);
  return tok;
} catch (const std::exception&) {
  return {-1000};
}

// 2000 pseudo-random strings (a fixed generator, so every build sees the same ones): runs of
// ASCII, Hangul, CJK, kana, Cyrillic, Greek, Arabic, emoji, combining marks, odd spaces, common
// word pieces and special-token texts, some with a stray invalid UTF-8 byte.
std::vector<std::string> RandomInputs() {
  struct Range {
    uint32_t first, count;
  };
  const Range ranges[] = {{0x20, 0x5f},   {0xAC00, 400},  {0x4E00, 400},  {0x3041, 0x56},
                          {0x0400, 0x60}, {0x0391, 0x39}, {0x0621, 0x2a}, {0x1F600, 0x50}};
  const char* pieces[] = {
      "\xCC\x81", "\xE2\x80\x8B", "\xE2\x80\x8D", "\xEF\xBB\xBF", "\xE2\x96\x81", "\xE3\x80\x80",
      "\t",       "  ",           "\xC2\xA0",     "the ",         "ing",          "tion",
      " and",     "데이터",       "東京",         "ラーメン",     "http://",      ".md",
      "<s>",      "</s>",         "<mask>",       "[CLS]",        "[SEP]",        "[UNK]"};
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&](uint32_t n) {  // splitmix64, reduced to [0, n)
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<uint32_t>((z ^ (z >> 31)) % n);
  };
  auto utf8 = [](uint32_t cp, std::string& out) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
      return;
    }
    if (cp < 0x800) {
      out += static_cast<char>(0xC0 | cp >> 6);
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | cp >> 12);
      out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | cp >> 18);
      out += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
      out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    }
    out += static_cast<char>(0x80 | (cp & 0x3F));
  };
  std::vector<std::string> out;
  for (int i = 0; i < 2000; ++i) {
    std::string s;
    for (uint32_t n = 1 + next(60); n > 0; --n) {
      const uint32_t pool = next(10);
      if (pool < 8) {
        utf8(ranges[pool].first + next(ranges[pool].count), s);
      } else {
        s += pieces[next(sizeof(pieces) / sizeof(pieces[0]))];
      }
    }
    // (a stray byte of 0xE0 or more can decode past U+10FFFF, which llama.cpp throws on)
    if (next(10) == 0)
      s.insert(next(static_cast<uint32_t>(s.size()) + 1), 1, static_cast<char>(0x80 + next(0x60)));
    out.push_back(s);
  }
  return out;
}

std::string Escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\r')
      out += "\\r";
    else if (c < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      out += b;
    } else
      out += static_cast<char>(c);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  int arg = 1;
  const bool vocab_only = argc > arg && std::strcmp(argv[arg], "--vocab-only") == 0;
  if (vocab_only) ++arg;
  if (argc <= arg) {
    std::fprintf(stderr, "usage: %s [--vocab-only] MODEL.gguf [EXTRA_INPUTS]...\n", argv[0]);
    return 2;
  }
  const char* model_path = argv[arg++];
  llama_log_set(Quiet, nullptr);
  llama_backend_init();
  std::vector<std::string> inputs = Inputs();
  for (std::string& s : RandomInputs()) inputs.push_back(std::move(s));
  for (; arg < argc; ++arg) {
    std::ifstream in(argv[arg], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "cannot read %s\n", argv[arg]);
      return 2;
    }
    const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string sep = "\n__ggml_vocab_test__\n";
    if (all.find(sep) != std::string::npos) {
      for (size_t pos = 0; pos < all.size();) {
        size_t end = all.find(sep, pos);
        if (end == std::string::npos) end = all.size();
        inputs.push_back(all.substr(pos, end - pos));
        pos = end + sep.size();
      }
    } else {
      for (size_t pos = 0; pos < all.size();) {
        size_t end = all.find('\n', pos);
        if (end == std::string::npos) end = all.size();
        inputs.push_back(all.substr(pos, end - pos));
        pos = end + 1;
      }
    }
  }

  llama_model_params mp = llama_model_default_params();
  mp.load_mode = LLAMA_LOAD_MODE_MMAP;
  mp.vocab_only = vocab_only;
  const auto t0 = std::chrono::steady_clock::now();
  llama_model* model = llama_model_load_from_file(model_path, mp);
  const auto t1 = std::chrono::steady_clock::now();
  if (model == nullptr) {
    std::fprintf(stderr, "cannot load %s\n", model_path);
    return 1;
  }
  std::fprintf(stderr, "load_ms %.1f\n",
               std::chrono::duration<double, std::milli>(t1 - t0).count());
  const llama_vocab* vocab = llama_model_get_vocab(model);

  // Concurrent first use: 4 threads, each over every input and mode, from a different start.
  constexpr int kThreads = 4;
  const size_t n_cases = inputs.size() * 4;
  std::vector<std::vector<std::vector<llama_token>>> concurrent(
      kThreads, std::vector<std::vector<llama_token>>(n_cases));
  {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (size_t k = 0; k < n_cases; ++k) {
          const size_t c = (k + t * n_cases / kThreads) % n_cases;
          concurrent[t][c] = Tokenize(vocab, inputs[c / 4], c % 4 & 1, c % 4 & 2);
        }
      });
    }
    for (auto& th : threads) th.join();
  }

  std::printf("n_vocab %d type %d\n", llama_vocab_n_tokens(vocab), llama_vocab_type(vocab));
  size_t mismatches = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string& text = inputs[i];
    for (int mode = 0; mode < 4; ++mode) {
      const bool add_special = mode & 1, parse_special = mode & 2;
      const std::vector<llama_token> tok = Tokenize(vocab, text, add_special, parse_special);
      for (int t = 0; t < kThreads; ++t) mismatches += concurrent[t][i * 4 + mode] != tok;
      std::printf("[%s] add=%d parse=%d n=%zu:", Escape(text).c_str(), add_special, parse_special,
                  tok.size());
      for (llama_token id : tok) std::printf(" %d", id);
      std::printf("\n");
    }
  }
  std::fprintf(stderr, "concurrent tokenization (%d threads, %zu cases): %s\n", kThreads, n_cases,
               mismatches == 0 ? "same as sequential" : "MISMATCH");
  if (mismatches != 0) return 1;
  // Every piece, both ways, and attributes: token_to_piece and token attributes must not change.
  const int n_vocab = llama_vocab_n_tokens(vocab);
  for (int id = 0; id < n_vocab; ++id) {
    char buf[256];
    const int n0 = llama_token_to_piece(vocab, id, buf, sizeof buf, 0, false);
    std::string p0 = n0 >= 0 ? std::string(buf, n0) : "<ERR>";
    const int n1 = llama_token_to_piece(vocab, id, buf, sizeof buf, 0, true);
    std::string p1 = n1 >= 0 ? std::string(buf, n1) : "<ERR>";
    std::printf("piece %d attr=%d score=%.6g [%s] [%s] [%s]\n", id, llama_vocab_get_attr(vocab, id),
                llama_vocab_get_score(vocab, id), Escape(llama_vocab_get_text(vocab, id)).c_str(),
                Escape(p0).c_str(), Escape(p1).c_str());
  }
  std::printf("bos %d eos %d eot %d sep %d nl %d pad %d mask %d add_bos %d add_eos %d add_sep %d\n",
              llama_vocab_bos(vocab), llama_vocab_eos(vocab), llama_vocab_eot(vocab),
              llama_vocab_sep(vocab), llama_vocab_nl(vocab), llama_vocab_pad(vocab),
              llama_vocab_mask(vocab), llama_vocab_get_add_bos(vocab),
              llama_vocab_get_add_eos(vocab), llama_vocab_get_add_sep(vocab));
  for (int id = 0; id < n_vocab; ++id) {
    if (llama_vocab_is_eog(vocab, id)) std::printf("eog %d\n", id);
  }
  llama_model_free(model);
  llama_backend_free();
  return 0;
}
