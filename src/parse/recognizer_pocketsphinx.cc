// pocketsphinx 5prealpha (Debian's 0.8 API: cmd_ln_init, ps_init, ps_seg_iter) over one
// utterance at a time, as the segmenter cuts them.
#include <pocketsphinx.h>

#include <fstream>

#include "parse/internal/recognizer.h"

namespace kebab::parse::internal {
namespace {

using nlohmann::json;

bool Exists(const std::string& path) {
  return std::ifstream(path).good();
}

class PocketsphinxRecognizer final : public Recognizer {
 public:
  PocketsphinxRecognizer(int64_t from_ms, Emit emit)
      : from_ms_(from_ms), resume_ms_(from_ms), emit_(std::move(emit)) {}

  ~PocketsphinxRecognizer() override {
    if (decoder_ != nullptr) ps_free(decoder_);
    if (config_ != nullptr) cmd_ln_free_r(config_);
  }

  // Empty on success, else what is missing.
  std::string Open(const std::string& dir) {
    const std::string hmm = dir + "/en-us", lm = dir + "/en-us.lm.bin",
                      dict = dir + "/cmudict-en-us.dict";
    for (const std::string& f : {hmm + "/mdef", lm, dict}) {
      if (!Exists(f)) return "pocketsphinx model file " + f + " is missing";
    }
    // Silence is kept so that frame numbers count from the utterance's first sample: the
    // segmenter already cut the stream at pauses.
    config_ = cmd_ln_init(nullptr, ps_args(), TRUE, "-hmm", hmm.c_str(), "-lm", lm.c_str(), "-dict",
                          dict.c_str(), "-logfn", "/dev/null", "-remove_silence", "no", nullptr);
    if (config_ == nullptr) return "pocketsphinx rejected its configuration";
    decoder_ = ps_init(config_);
    if (decoder_ == nullptr) return "pocketsphinx could not load the model in " + dir;
    frame_rate_ = cmd_ln_int32_r(config_, "-frate");
    return {};
  }

  void OnSamples(const int16_t*, size_t) override {}

  // An utterance that started before the resume point was recognized by the run that stopped.
  void OnUtterance(const Utterance& u) override {
    if (SamplesToMs(u.start_sample) < from_ms_) return;
    json segment = Recognize(u);
    if (!segment.is_null()) emit_(segment);
    resume_ms_ = SamplesToMs(u.start_sample + static_cast<int64_t>(u.samples.size()));
  }

  void Finish() override {}
  int64_t resume_ms() const override { return resume_ms_; }
  int64_t done_ms(int64_t decoded_ms) const override { return decoded_ms; }

 private:
  // The words said in `u`, with the times of the first and the last in the recording.
  json Recognize(const Utterance& u) {
    if (ps_start_utt(decoder_) < 0) return nullptr;
    ps_process_raw(decoder_, u.samples.data(), u.samples.size(), FALSE, TRUE);
    ps_end_utt(decoder_);
    std::string text;
    int first = -1, last = -1;
    for (ps_seg_t* seg = ps_seg_iter(decoder_); seg != nullptr; seg = ps_seg_next(seg)) {
      std::string word = ps_seg_word(seg);
      // Fillers (<s>, </s>, <sil>, [NOISE], (NULL)) are not words.
      if (word.empty() || word[0] == '<' || word[0] == '[' || word[0] == '(') continue;
      // "read(2)": the dictionary's second pronunciation of "read".
      if (const size_t paren = word.find('('); paren != std::string::npos) word.resize(paren);
      int sf = 0, ef = 0;
      ps_seg_frames(seg, &sf, &ef);
      if (first < 0) first = sf;
      last = ef;
      if (!text.empty()) text += ' ';
      text += word;
    }
    if (text.empty()) return nullptr;
    const int64_t base = SamplesToMs(u.start_sample);
    return {{"kind", "segment"},
            {"start_ms", base + int64_t{first} * 1000 / frame_rate_},
            {"end_ms", base + int64_t{last + 1} * 1000 / frame_rate_},
            {"text", text}};
  }

  const int64_t from_ms_;
  int64_t resume_ms_;
  const Emit emit_;
  cmd_ln_t* config_ = nullptr;
  ps_decoder_t* decoder_ = nullptr;
  int frame_rate_ = 100;
};

}  // namespace

std::unique_ptr<Recognizer> MakePocketsphinxRecognizer(const RecognizerOptions& options, Emit emit,
                                                       std::string* error) {
  auto recognizer = std::make_unique<PocketsphinxRecognizer>(options.from_ms, std::move(emit));
  *error = recognizer->Open(options.model);
  if (!error->empty()) return nullptr;
  return recognizer;
}

}  // namespace kebab::parse::internal
