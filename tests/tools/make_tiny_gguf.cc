// Writes a tiny random-weight BERT-architecture GGUF embedding model around the vocabulary of a
// vocab-only GGUF from the llama.cpp source (models/ggml-vocab-*.gguf). No real weights exist on
// the test machines; this gives the tests real models of real architectures and tokenizers
// (WordPiece from bert-bge, SentencePiece from an XLM-R vocabulary), deterministic per seed.
//
// Usage: make_tiny_gguf VOCAB.gguf OUT.gguf NAME POOLING(mean|cls) [N_EMBD] [N_CTX]
#include <ggml.h>
#include <gguf.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int kLayers = 2;
constexpr int kHeads = 4;

struct Writer {
  ggml_context* ctx;
  gguf_context* gguf;
  std::mt19937 rng{20261122};

  // A tensor of shape {ne0, ne1} filled with N(mean, stddev).
  void Add(const std::string& name, int64_t ne0, int64_t ne1, float mean, float stddev) {
    ggml_tensor* t = ne1 == 0 ? ggml_new_tensor_1d(ctx, GGML_TYPE_F32, ne0)
                              : ggml_new_tensor_2d(ctx, GGML_TYPE_F32, ne0, ne1);
    ggml_set_name(t, name.c_str());
    std::normal_distribution<float> dist(mean, stddev);
    auto* data = static_cast<float*>(t->data);
    for (int64_t i = 0; i < ggml_nelements(t); ++i) data[i] = stddev == 0 ? mean : dist(rng);
    gguf_add_tensor(gguf, t);
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s VOCAB.gguf OUT.gguf NAME mean|cls [N_EMBD] [N_CTX]\n", argv[0]);
    return 2;
  }
  const std::string pooling = argv[4];
  const int64_t n_embd = argc > 5 ? std::atoi(argv[5]) : 64;
  const int64_t n_ctx = argc > 6 ? std::atoi(argv[6]) : 128;
  const int64_t n_ff = 2 * n_embd;

  gguf_init_params params{/*no_alloc=*/true, /*ctx=*/nullptr};
  gguf_context* vocab = gguf_init_from_file(argv[1], params);
  if (vocab == nullptr) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  const int64_t tokens_key = gguf_find_key(vocab, "tokenizer.ggml.tokens");
  if (tokens_key < 0) {
    std::fprintf(stderr, "%s has no tokenizer.ggml.tokens\n", argv[1]);
    return 1;
  }
  const int64_t n_vocab = static_cast<int64_t>(gguf_get_arr_n(vocab, tokens_key));
  const int64_t arch_key = gguf_find_key(vocab, "general.architecture");
  const std::string old_arch = arch_key >= 0 ? gguf_get_val_str(vocab, arch_key) : "";

  gguf_context* out = gguf_init_empty();
  gguf_set_kv(out, vocab);
  // Keys of the vocab file's own architecture would only confuse readers of this one.
  for (int64_t i = gguf_get_n_kv(out) - 1; i >= 0; --i) {
    const std::string key = gguf_get_key(out, i);
    if (!old_arch.empty() && key.rfind(old_arch + ".", 0) == 0) gguf_remove_key(out, key.c_str());
  }
  gguf_set_val_str(out, "general.architecture", "bert");
  gguf_set_val_str(out, "general.name", argv[3]);
  gguf_set_val_u32(out, "general.file_type", 0);
  gguf_set_val_u32(out, "bert.context_length", static_cast<uint32_t>(n_ctx));
  gguf_set_val_u32(out, "bert.embedding_length", static_cast<uint32_t>(n_embd));
  gguf_set_val_u32(out, "bert.feed_forward_length", static_cast<uint32_t>(n_ff));
  gguf_set_val_u32(out, "bert.block_count", kLayers);
  gguf_set_val_u32(out, "bert.attention.head_count", kHeads);
  gguf_set_val_f32(out, "bert.attention.layer_norm_epsilon", 1e-12f);
  gguf_set_val_bool(out, "bert.attention.causal", false);
  gguf_set_val_u32(out, "bert.pooling_type", pooling == "cls" ? 2 : 1);
  // BERT vocabularies have two token types (sentence A/B); XLM-R's has one.
  const int64_t types_key = gguf_find_key(out, "tokenizer.ggml.token_type_count");
  const int64_t n_types = types_key >= 0 ? gguf_get_val_u32(out, types_key) : 2;
  if (types_key < 0) gguf_set_val_u32(out, "tokenizer.ggml.token_type_count", 2);

  const size_t floats =
      static_cast<size_t>(n_embd * (n_vocab + 2 + n_ctx + 2) +
                          kLayers * (4 * n_embd * n_embd + 2 * n_embd * n_ff + 10 * n_embd + n_ff));
  ggml_init_params ctx_params{floats * sizeof(float) + 1024 * ggml_tensor_overhead(), nullptr,
                              false};
  Writer w{ggml_init(ctx_params), out};
  const float s = 0.05f;
  w.Add("token_embd.weight", n_embd, n_vocab, 0, s);
  w.Add("token_types.weight", n_embd, n_types, 0, s);
  w.Add("position_embd.weight", n_embd, n_ctx, 0, s);
  w.Add("token_embd_norm.weight", n_embd, 0, 1, 0);
  w.Add("token_embd_norm.bias", n_embd, 0, 0, 0);
  for (int l = 0; l < kLayers; ++l) {
    const std::string p = "blk." + std::to_string(l) + ".";
    for (const char* m : {"attn_q", "attn_k", "attn_v", "attn_output"}) {
      w.Add(p + m + ".weight", n_embd, n_embd, 0, s);
      w.Add(p + m + ".bias", n_embd, 0, 0, s);
    }
    w.Add(p + "attn_output_norm.weight", n_embd, 0, 1, 0);
    w.Add(p + "attn_output_norm.bias", n_embd, 0, 0, 0);
    w.Add(p + "ffn_up.weight", n_embd, n_ff, 0, s);
    w.Add(p + "ffn_up.bias", n_ff, 0, 0, s);
    w.Add(p + "ffn_down.weight", n_ff, n_embd, 0, s);
    w.Add(p + "ffn_down.bias", n_embd, 0, 0, s);
    w.Add(p + "layer_output_norm.weight", n_embd, 0, 1, 0);
    w.Add(p + "layer_output_norm.bias", n_embd, 0, 0, 0);
  }
  const bool ok = gguf_write_to_file(out, argv[2], /*only_meta=*/false);
  ggml_free(w.ctx);
  gguf_free(out);
  gguf_free(vocab);
  if (!ok) {
    std::fprintf(stderr, "cannot write %s\n", argv[2]);
    return 1;
  }
  return 0;
}
