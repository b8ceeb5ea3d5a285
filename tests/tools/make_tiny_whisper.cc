// Writes a random-weight whisper.cpp model in whisper.cpp's legacy ggml `.bin` format (what
// models/convert-pt-to-ggml.py writes and whisper_model_load reads; whisper.cpp loads no GGUF).
// No real weights exist on the test machines; this gives the tests and benchmarks a model of a
// real shape that whisper.cpp 1.9 loads and runs, deterministic per seed:
//   tiny  (default, for tests) 2 encoder + 3 decoder layers, 64 dims, 2 heads (~8 MB in f16);
//   base  whisper-base's shape (6+6 layers, 512 dims, 8 heads; ~148 MB in f16 like ggml-base.bin).
// Both keep the real context lengths (1500 audio frames, 448 text tokens), 80 mel bins and the
// multilingual vocabulary size (51865), so language detection and `-l ko` work. The mel
// filterbank is the real one, so the encoder sees a real spectrogram. The 50257 text tokens are
// GPT-2's byte-level BPE pieces from llama.cpp's ggml-vocab-gpt-2.gguf (Whisper's multilingual
// vocabulary has as many, though not the same), so transcripts are real word pieces; whisper.cpp
// names the special tokens (sot, eot, languages, timestamps) itself. The decoder's embeddings
// plant a short script (see WriteDecoderEmbeddings): every 30 s window decodes to two
// timestamped segments of random words, quickly and whatever the audio.
//
// Usage: make_tiny_whisper OUT.bin [--shape tiny|base] [--type f16|f32] [--seed N]
//                          [--vocab VOCAB.gguf]
#include <ggml.h>
#include <gguf.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

struct Options {
  std::string out;
  std::string shape = "tiny";
  bool f16 = true;
  uint32_t seed = 20261129;
  std::string vocab;  // empty: synthetic tokens
};

// whisper_hparams in the file's order.
struct Hparams {
  int32_t n_vocab = 51865;  // >= 51865 makes whisper.cpp treat the model as multilingual
  int32_t n_audio_ctx = 1500;
  int32_t n_audio_state = 64;
  int32_t n_audio_head = 2;
  int32_t n_audio_layer = 2;
  int32_t n_text_ctx = 448;
  int32_t n_text_state = 64;
  int32_t n_text_head = 2;
  int32_t n_text_layer = 3;  // not 2: whisper.cpp takes 2 for distil-whisper, forcing no timestamps
  int32_t n_mels = 80;
  int32_t ftype = 1;  // ggml_ftype: 0 all f32, 1 mostly f16
};

constexpr int kSampleRate = 16000;
constexpr int kFft = 400;               // Whisper's 25 ms window
constexpr int kFftBins = kFft / 2 + 1;  // 201
constexpr int kTextTokens = 50257;      // Whisper's multilingual text tokens; eot is the next id
// The special ids whisper.cpp derives for a 51865-token (99-language) vocabulary.
constexpr int kEot = 50257;
constexpr int kTimestampBegin = 50364;  // <|0.00|>; each next id is 20 ms later

bool ParseArgs(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--", 0) != 0) {
      if (!o->out.empty()) return false;
      o->out = a;
      continue;
    }
    if (i + 1 >= argc) return false;
    const std::string v = argv[++i];
    if (a == "--shape" && (v == "tiny" || v == "base")) {
      o->shape = v;
    } else if (a == "--type" && (v == "f16" || v == "f32")) {
      o->f16 = v == "f16";
    } else if (a == "--seed") {
      o->seed = static_cast<uint32_t>(std::strtoul(v.c_str(), nullptr, 10));
    } else if (a == "--vocab") {
      o->vocab = v;
    } else {
      return false;
    }
  }
  return !o->out.empty();
}

// Slaney's mel scale as librosa computes it (htk=False): linear (66.7 Hz per mel) below 1 kHz,
// logarithmic above.
const double kLogStep = std::log(6.4) / 27;
double HzToMel(double hz) {
  return hz < 1000 ? hz * 0.015 : 15 + std::log(hz / 1000) / kLogStep;
}
double MelToHz(double mel) {
  return mel < 15 ? mel / 0.015 : 1000 * std::exp(kLogStep * (mel - 15));
}

// librosa.filters.mel(sr=16000, n_fft=400, n_mels) with Slaney area normalisation: the matrix
// Whisper ships in mel_filters.npz, row-major [n_mels][201].
std::vector<float> MelFilters(int n_mels) {
  std::vector<double> mel_hz(n_mels + 2);
  const double mel_max = HzToMel(kSampleRate / 2.0);
  for (int i = 0; i < n_mels + 2; ++i) mel_hz[i] = MelToHz(mel_max * i / (n_mels + 1));
  std::vector<float> filters(static_cast<size_t>(n_mels) * kFftBins);
  for (int m = 0; m < n_mels; ++m) {
    const double enorm = 2.0 / (mel_hz[m + 2] - mel_hz[m]);
    for (int k = 0; k < kFftBins; ++k) {
      const double hz = static_cast<double>(k) * kSampleRate / kFft;
      const double lower = (hz - mel_hz[m]) / (mel_hz[m + 1] - mel_hz[m]);
      const double upper = (mel_hz[m + 2] - hz) / (mel_hz[m + 2] - mel_hz[m + 1]);
      filters[m * kFftBins + k] = static_cast<float>(std::max(0.0, std::min(lower, upper)) * enorm);
    }
  }
  return filters;
}

// GPT-2's bytes_to_unicode() inverted: byte-level BPE spells each byte as one code point, the
// printable Latin-1 bytes as themselves and the others as U+0100 upwards in byte order. Indexed
// by code point (< 512); -1 where no byte maps.
std::vector<int> ByteDecoder() {
  std::vector<int> decoder(512, -1);
  int next = 256;
  for (int b = 0; b < 256; ++b) {
    const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
    decoder[printable ? b : next++] = b;
  }
  return decoder;
}

// The raw bytes of byte-level BPE token `token` (the UTF-8 of the mapped code points); false if
// a code point maps to no byte.
bool TokenBytes(const std::string& token, const std::vector<int>& decoder, std::string* bytes) {
  bytes->clear();
  for (size_t i = 0; i < token.size();) {
    const auto c = static_cast<unsigned char>(token[i]);
    const size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (i + len > token.size()) return false;
    uint32_t cp = len == 1 ? c : c & (0x3F >> (len - 1));
    for (size_t j = 1; j < len; ++j)
      cp = cp << 6 | (static_cast<unsigned char>(token[i + j]) & 0x3F);
    if (cp >= decoder.size() || decoder[cp] < 0) return false;
    bytes->push_back(static_cast<char>(decoder[cp]));
    i += len;
  }
  return true;
}

// Whisper's 50257 text tokens as byte strings: GPT-2's from `path`, or, if `path` is empty,
// synthetic ones (the 256 single bytes, then " tok<N>" pieces). Empty on error.
std::vector<std::string> TextTokens(const std::string& path) {
  std::vector<std::string> tokens;
  if (path.empty()) {
    for (int i = 0; i < kTextTokens; ++i) {
      tokens.push_back(i < 256 ? std::string(1, static_cast<char>(i)) : " tok" + std::to_string(i));
    }
    return tokens;
  }
  gguf_init_params params{/*no_alloc=*/true, /*ctx=*/nullptr};
  gguf_context* gguf = gguf_init_from_file(path.c_str(), params);
  if (gguf == nullptr) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    return tokens;
  }
  const int64_t key = gguf_find_key(gguf, "tokenizer.ggml.tokens");
  const size_t n = key >= 0 ? gguf_get_arr_n(gguf, key) : 0;
  const std::vector<int> decoder = ByteDecoder();
  std::string bytes;
  // GPT-2's last token is <|endoftext|>; Whisper's id 50256 is an (empty) text token, its eot
  // is 50257, so only the first 50256 pieces are taken.
  for (size_t i = 0; i < n && tokens.size() < kTextTokens - 1; ++i) {
    const std::string token = gguf_get_arr_str(gguf, key, i);
    if (!TokenBytes(token, decoder, &bytes)) {
      std::fprintf(stderr, "%s: token %zu is not byte-level BPE\n", path.c_str(), i);
      tokens.clear();
      break;
    }
    tokens.push_back(bytes);
  }
  gguf_free(gguf);
  if (key < 0 || n < kTextTokens - 1) {
    std::fprintf(stderr, "%s: fewer than %d tokens\n", path.c_str(), kTextTokens - 1);
    tokens.clear();
  }
  if (!tokens.empty()) tokens.emplace_back();  // id 50256, empty as in the real multilingual file
  return tokens;
}

// Writes the ggml `.bin` stream: little-endian int32 fields and raw tensor data, as
// convert-pt-to-ggml.py packs them. Weights are drawn in f32 from one generator in tensor order
// (so a model is the same for the same shape whatever its type), then stored as f16 or f32.
struct Writer {
  FILE* f;
  bool f16;  // matrices (and conv kernels) in f16
  std::mt19937 rng;
  bool ok = true;

  void Bytes(const void* data, size_t n) { ok = ok && std::fwrite(data, 1, n, f) == n; }
  void Int(int32_t v) { Bytes(&v, sizeof v); }

  // A tensor named `name` of ggml shape `ne` (innermost first) holding `values`; `matrix` tensors
  // are f16 in an f16 model, everything else f32, as the converter stores them.
  void Tensor(const std::string& name, const std::vector<int32_t>& ne,
              const std::vector<float>& values, bool matrix) {
    const bool half = matrix && f16;
    Int(static_cast<int32_t>(ne.size()));
    Int(static_cast<int32_t>(name.size()));
    Int(half ? 1 : 0);  // ggml_type: 0 f32, 1 f16
    for (int32_t d : ne) Int(d);
    Bytes(name.data(), name.size());
    if (half) {
      std::vector<ggml_fp16_t> h(values.size());
      ggml_fp32_to_fp16_row(values.data(), h.data(), static_cast<int64_t>(values.size()));
      Bytes(h.data(), h.size() * sizeof(ggml_fp16_t));
    } else {
      Bytes(values.data(), values.size() * sizeof(float));
    }
  }

  // A tensor filled with N(0, stddev), or with `fill` when stddev is 0 (norm weights 1, biases 0).
  void Random(const std::string& name, const std::vector<int32_t>& ne, float stddev,
              bool matrix = false, float fill = 0) {
    size_t n = 1;
    for (int32_t d : ne) n *= static_cast<size_t>(d);
    std::vector<float> values(n, fill);
    std::normal_distribution<float> dist(0, 1);
    for (float& v : values) v = stddev > 0 ? stddev * dist(rng) : fill;
    Tensor(name, ne, values, matrix);
  }

  // A layer norm: weight 1, bias 0.
  void Norm(const std::string& prefix, int32_t n) {
    Random(prefix + ".weight", {n}, 0, false, 1);
    Random(prefix + ".bias", {n}, 0);
  }

  // An attention block (query, key without bias, value, out) as Whisper's MultiHeadAttention.
  void Attention(const std::string& prefix, int32_t n, float s) {
    for (const char* proj : {"query", "key", "value", "out"}) {
      Random(prefix + "." + proj + ".weight", {n, n}, s, true);
      if (std::string(proj) != "key") Random(prefix + "." + proj + ".bias", {n}, 0);
    }
  }

  void Mlp(const std::string& prefix, int32_t n, float s) {
    Random(prefix + ".mlp.0.weight", {n, 4 * n}, s, true);
    Random(prefix + ".mlp.0.bias", {4 * n}, 0);
    Random(prefix + ".mlp.2.weight", {4 * n, n}, s, true);
    Random(prefix + ".mlp.2.bias", {n}, 0);
  }
};

// Whisper's sinusoidal encoder positions (whisper/model.py sinusoids()): the encoder's
// positional embedding is fixed, not learned, so the real one is cheap to give.
std::vector<float> Sinusoids(int32_t length, int32_t channels) {
  std::vector<float> pe(static_cast<size_t>(length) * channels);
  const int32_t half = channels / 2;
  const double increment = std::log(10000.0) / (half - 1);
  for (int32_t t = 0; t < length; ++t) {
    for (int32_t i = 0; i < half; ++i) {
      const double angle = t * std::exp(-increment * i);
      pe[static_cast<size_t>(t) * channels + i] = static_cast<float>(std::sin(angle));
      pe[static_cast<size_t>(t) * channels + half + i] = static_cast<float>(std::cos(angle));
    }
  }
  return pe;
}

// The token the decoder is planted to predict at position q. The prompt (sot, language, task)
// takes positions 0-2, so the first output is predicted at q = 2: <|0.00|>, four words, <|0.50|>
// <|0.60|>, three words, <|1.00|>, eot, i.e. two timestamped segments; the script repeats every
// 12 positions, so a window whose prompt is longer (previous text) still ends within 12 tokens.
int ScriptedToken(int q, const std::vector<int>& words, std::mt19937& rng) {
  const int phase = (q + 10) % 12;
  // 100 ms per phase, so the timestamps increase within a window.
  if (phase == 0 || phase == 5 || phase == 6 || phase == 10) return kTimestampBegin + 5 * phase;
  if (phase == 11) return kEot;
  return words[std::uniform_int_distribution<size_t>(0, words.size() - 1)(rng)];
}

// The decoder's positional and token embeddings. Purely random ones give near-uniform logits
// over 51865 tokens: every step has log-probability about -11, so whisper.cpp rejects each pass
// (logprob_thold -1) and retries at five more temperatures with five decoders, each running to
// the 224-token limit (minutes for a second of audio). So a script is planted instead: position
// q's embedding is a unit-variance direction d (dominating the residual stream, which the small
// random layers barely change) and the scripted token's embedding gains (16 / n) d, so after the
// final layer norm its logit is about 16 and the others' about 0. Decoding is then confident
// (no fallbacks), short and the same whatever the audio; the tied output projection makes the
// token embedding serve as both.
void WriteDecoderEmbeddings(const Hparams& h, const std::vector<std::string>& tokens, float s,
                            Writer* w) {
  const int32_t n = h.n_text_state;
  std::vector<int> words;  // " word"-like pieces, so the transcript reads as words
  for (int i = 256; i < static_cast<int>(tokens.size()); ++i) {
    const std::string& t = tokens[i];
    bool alpha = t.size() >= 4 && t[0] == ' ';
    for (size_t j = 1; alpha && j < t.size(); ++j)
      alpha = std::isalnum(static_cast<unsigned char>(t[j]));
    if (alpha) words.push_back(i);
  }
  std::normal_distribution<float> normal(0, 1);
  std::vector<float> embd(static_cast<size_t>(n) * h.n_vocab);
  for (float& v : embd) v = s * normal(w->rng);
  std::vector<float> pos(static_cast<size_t>(n) * h.n_text_ctx);
  std::vector<std::vector<float>> dirs(h.n_vocab);  // one direction per scripted token
  for (int q = 0; q < h.n_text_ctx; ++q) {
    const int token = ScriptedToken(q, words, w->rng);
    std::vector<float>& d = dirs[token];
    if (d.empty()) {
      d.resize(n);
      for (int32_t i = 0; i < n; ++i) {
        d[i] = normal(w->rng);
        embd[static_cast<size_t>(token) * n + i] += 16.0f / n * d[i];
      }
    }
    std::copy(d.begin(), d.end(), pos.begin() + static_cast<ptrdiff_t>(q) * n);
  }
  w->Tensor("decoder.positional_embedding", {n, h.n_text_ctx}, pos, false);
  w->Tensor("decoder.token_embedding.weight", {n, h.n_vocab}, embd, true);
}

// The tensors in the order and shapes whisper_model_load's table expects (any order loads; this
// is the converter's, the PyTorch state dict's).
void WriteTensors(const Hparams& h, const std::vector<std::string>& tokens, Writer* w) {
  const float s = 0.02f;  // GPT-2/Whisper's init scale: keeps activations and logits moderate
  const int32_t na = h.n_audio_state, nt = h.n_text_state;
  WriteDecoderEmbeddings(h, tokens, s, w);
  for (int l = 0; l < h.n_text_layer; ++l) {
    const std::string p = "decoder.blocks." + std::to_string(l);
    w->Attention(p + ".attn", nt, s);
    w->Norm(p + ".attn_ln", nt);
    w->Attention(p + ".cross_attn", nt, s);
    w->Norm(p + ".cross_attn_ln", nt);
    w->Mlp(p, nt, s);
    w->Norm(p + ".mlp_ln", nt);
  }
  w->Norm("decoder.ln", nt);
  w->Tensor("encoder.positional_embedding", {na, h.n_audio_ctx}, Sinusoids(h.n_audio_ctx, na),
            false);
  // Conv1d kernels (PyTorch [out, in, 3]) are 3-D and so f16 in an f16 model; their biases are
  // reshaped to [out, 1] and kept f32 by the converter, and the loader expects exactly that.
  w->Random("encoder.conv1.weight", {3, h.n_mels, na}, s, true);
  w->Random("encoder.conv1.bias", {1, na}, 0);
  w->Random("encoder.conv2.weight", {3, na, na}, s, true);
  w->Random("encoder.conv2.bias", {1, na}, 0);
  for (int l = 0; l < h.n_audio_layer; ++l) {
    const std::string p = "encoder.blocks." + std::to_string(l);
    w->Attention(p + ".attn", na, s);
    w->Norm(p + ".attn_ln", na);
    w->Mlp(p, na, s);
    w->Norm(p + ".mlp_ln", na);
  }
  w->Norm("encoder.ln_post", na);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!ParseArgs(argc, argv, &o)) {
    std::fprintf(stderr,
                 "usage: %s OUT.bin [--shape tiny|base] [--type f16|f32] [--seed N] "
                 "[--vocab VOCAB.gguf]\n",
                 argv[0]);
    return 2;
  }
  Hparams h;
  if (o.shape == "base") {
    h.n_audio_state = h.n_text_state = 512;
    h.n_audio_head = h.n_text_head = 8;
    h.n_audio_layer = h.n_text_layer = 6;
  }
  h.ftype = o.f16 ? 1 : 0;
  if (o.vocab.empty()) std::fprintf(stderr, "make_tiny_whisper: no --vocab: synthetic tokens\n");
  const std::vector<std::string> tokens = TextTokens(o.vocab);
  if (tokens.empty()) return 1;

  FILE* f = std::fopen(o.out.c_str(), "wb");
  if (f == nullptr) {
    std::fprintf(stderr, "cannot write %s\n", o.out.c_str());
    return 1;
  }
  Writer w{f, o.f16, std::mt19937(o.seed)};
  w.Int(static_cast<int32_t>(GGML_FILE_MAGIC));
  for (int32_t v :
       {h.n_vocab, h.n_audio_ctx, h.n_audio_state, h.n_audio_head, h.n_audio_layer, h.n_text_ctx,
        h.n_text_state, h.n_text_head, h.n_text_layer, h.n_mels, h.ftype}) {
    w.Int(v);
  }
  const std::vector<float> filters = MelFilters(h.n_mels);
  w.Int(h.n_mels);
  w.Int(kFftBins);
  w.Bytes(filters.data(), filters.size() * sizeof(float));
  // Only the text tokens are written, as the converter does: the loader names the remaining
  // n_vocab - 50257 ids (eot, sot, languages, task tokens, timestamps) itself.
  w.Int(static_cast<int32_t>(tokens.size()));
  for (const std::string& t : tokens) {
    w.Int(static_cast<int32_t>(t.size()));
    w.Bytes(t.data(), t.size());
  }
  WriteTensors(h, tokens, &w);
  const bool closed = std::fclose(f) == 0;
  if (!w.ok || !closed) {
    std::fprintf(stderr, "cannot write %s\n", o.out.c_str());
    return 1;
  }
  return 0;
}
