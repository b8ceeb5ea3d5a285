// whisper.cpp over blocks of the stream. whisper reads audio in 30-second windows and places
// its segments by the timestamps it predicts, so it is given long stretches at once, as
// whisper-cli gives it a whole file. A block is transcribed when it holds kBlockMs of audio
// (memory stays bounded on an hour-long file: ten minutes of float samples is 38 MB), when
// kMaxGapMs pass without speech (whisper makes words up in long silence, and there is nothing to
// find there: the silence is skipped), or at the end. Blocks end where an utterance the
// segmenter found ends, so no word is cut between two, and the next goes on from there. A
// recording without a long silence is one block, read exactly as whisper-cli reads it.
#include <whisper.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "parse/internal/recognizer.h"

namespace kebab::parse::internal {
namespace {

using nlohmann::json;

constexpr int64_t kBlockMs = 10 * 60 * 1000;
constexpr int64_t kMaxGapMs = 15 * 1000;
// Utterances are reported after the pause that ends them, at most max_ms (20 s) plus padding
// after they start: samples older than this cannot start one.
constexpr int64_t kLookbackMs = 30 * 1000;
constexpr int64_t kDropMs = 10 * 1000;

int64_t MsToSamples(int64_t ms) {
  return ms * kAudioSampleRate / 1000;
}

// whisper.cpp and ggml log every tensor they load to stderr; the worker's stderr is what an
// error message quotes, so only errors go there.
void QuietLog(ggml_log_level level, const char* text, void*) {
  if (level == GGML_LOG_LEVEL_ERROR) std::fputs(text, stderr);
}

class WhisperRecognizer final : public Recognizer {
 public:
  WhisperRecognizer(const RecognizerOptions& options, Emit emit)
      : language_(options.language.empty() ? "auto" : options.language),
        threads_(options.threads > 0
                     ? options.threads
                     : std::min(4, static_cast<int>(std::thread::hardware_concurrency()))),
        from_sample_(MsToSamples(options.from_ms)),
        resume_ms_(options.from_ms),
        emit_(std::move(emit)),
        last_end_(from_sample_) {}

  ~WhisperRecognizer() override {
    if (ctx_ != nullptr) whisper_free(ctx_);
  }

  // Empty on success, else why the model cannot be used.
  std::string Open(const std::string& path) {
    if (std::FILE* f = std::fopen(path.c_str(), "rb"); f != nullptr) {
      std::fclose(f);
    } else {
      return "whisper model file " + path + " is missing";
    }
    whisper_log_set(QuietLog, nullptr);
    whisper_context_params cparams = whisper_context_default_params();
    cparams.use_gpu = false;
    ctx_ = whisper_init_from_file_with_params(path.c_str(), cparams);
    if (ctx_ == nullptr) {
      return "whisper.cpp could not load " + path + " (not a whisper ggml model?)";
    }
    if (language_ != "auto" && whisper_lang_id(language_.c_str()) < 0) {
      return "whisper does not know the language \"" + language_ + "\"";
    }
    if (!whisper_is_multilingual(ctx_)) {
      if (language_ != "en" && language_ != "auto") {
        return "the whisper model " + path + " is English-only; it cannot transcribe \"" +
               language_ + "\"";
      }
      language_ = "en";
    }
    return {};
  }

  void OnSamples(const int16_t* samples, size_t n) override {
    for (size_t i = 0; i < n; ++i) pending_.push_back(samples[i] / 32768.0f);
    seen_ += static_cast<int64_t>(n);
    if (open() && seen_ - speech_end_ > MsToSamples(kMaxGapMs)) Flush(speech_end_);
    // Closed, a block can start no earlier than where the last one ended, nor than the
    // earliest sample an utterance still to come can start at, less the gap allowed before it.
    if (!open()) Drop(std::max(last_end_, seen_ - MsToSamples(kLookbackMs + kMaxGapMs)));
  }

  void OnUtterance(const Utterance& u) override {
    const int64_t start = std::max(u.start_sample, from_sample_);
    const int64_t end = u.start_sample + static_cast<int64_t>(u.samples.size());
    if (end <= start) return;  // before the resume point
    if (open() && start - speech_end_ > MsToSamples(kMaxGapMs)) Flush(speech_end_);
    if (!open()) {
      // After a short pause the block goes on from where the last one ended, so whisper
      // hears the stream as whisper-cli would; after a long silence it starts at the speech.
      speech_start_ = start - last_end_ <= MsToSamples(kMaxGapMs) ? last_end_ : start;
    }
    speech_end_ = std::max(speech_end_, end);
    if (speech_end_ - speech_start_ >= MsToSamples(kBlockMs)) Flush(speech_end_);
  }

  void Finish() override {
    if (!open()) return;
    // A short tail of silence stays with the block, as whisper-cli reads a file to its end.
    Flush(seen_ - speech_end_ <= MsToSamples(kMaxGapMs) ? seen_ : speech_end_);
  }

  int64_t resume_ms() const override { return resume_ms_; }
  int64_t done_ms(int64_t decoded_ms) const override {
    return open() ? SamplesToMs(speech_start_) : decoded_ms;
  }

 private:
  bool open() const { return speech_start_ >= 0; }

  // Forgets the samples before `sample`, in steps of kDropMs at least: erasing the front of
  // the buffer moves what follows, which every decoded packet must not do.
  void Drop(int64_t sample) {
    const int64_t n = std::clamp<int64_t>(sample - base_, 0, Size());
    if (n < MsToSamples(kDropMs)) return;
    pending_.erase(pending_.begin(), pending_.begin() + n);
    base_ += n;
  }

  // Transcribes the open block up to `end` and closes it.
  void Flush(int64_t end) {
    const int64_t begin = std::max(speech_start_, base_);
    end = std::min(end, base_ + Size());
    speech_start_ = speech_end_ = -1;
    if (end > begin) Transcribe(begin, end);
    Drop(end);
    last_end_ = std::max(last_end_, end);
    resume_ms_ = std::max(resume_ms_, SamplesToMs(last_end_));
  }

  int64_t Size() const { return static_cast<int64_t>(pending_.size()); }

  void Transcribe(int64_t begin, int64_t end) {
    whisper_full_params params = whisper_full_default_params(WHISPER_SAMPLING_GREEDY);
    params.n_threads = threads_;
    params.language = language_.c_str();
    params.print_progress = false;
    params.print_realtime = false;
    params.print_timestamps = false;
    params.print_special = false;
    block_begin_ = begin;
    block_end_ = end;
    params.new_segment_callback = [](whisper_context* ctx, whisper_state*, int n_new, void* self) {
      static_cast<WhisperRecognizer*>(self)->OnSegments(ctx, n_new);
    };
    params.new_segment_callback_user_data = this;
    params.progress_callback = [](whisper_context*, whisper_state*, int percent, void* self) {
      static_cast<WhisperRecognizer*>(self)->OnProgress(percent);
    };
    params.progress_callback_user_data = this;
    const float* samples = pending_.data() + (begin - base_);
    if (whisper_full(ctx_, params, samples, static_cast<int>(end - begin)) != 0) {
      std::fputs("whisper_full failed on a block\n", stderr);
      return;
    }
    const int lang = whisper_full_lang_id(ctx_);
    if (lang >= 0) emit_({{"kind", "language"}, {"language", whisper_lang_str(lang)}});
  }

  void OnSegments(whisper_context* ctx, int n_new) {
    const int n = whisper_full_n_segments(ctx);
    const int64_t base_ms = SamplesToMs(block_begin_);
    for (int i = n - n_new; i < n; ++i) {
      std::string text = whisper_full_get_segment_text(ctx, i);
      const size_t first = text.find_first_not_of(' ');
      if (first == std::string::npos) continue;
      text.erase(0, first);
      // whisper's times are in centiseconds from the block's start.
      const int64_t t0 = base_ms + whisper_full_get_segment_t0(ctx, i) * 10;
      const int64_t t1 = std::max(t0, base_ms + whisper_full_get_segment_t1(ctx, i) * 10);
      // The tokens decoded (special ones included, as whisper-cli's JSON lists them): the
      // benchmark checks both decoded as much.
      emit_({{"kind", "segment"},
             {"start_ms", t0},
             {"end_ms", std::min(t1, SamplesToMs(block_end_))},
             {"text", text},
             {"tokens", whisper_full_n_tokens(ctx, i)}});
      resume_ms_ = std::max(resume_ms_, std::min(t1, SamplesToMs(block_end_)));
    }
  }

  void OnProgress(int percent) {
    const int64_t done = block_begin_ + (block_end_ - block_begin_) * percent / 100;
    emit_({{"kind", "progress"}, {"done_ms", SamplesToMs(done)}, {"resume_ms", resume_ms_}});
  }

  std::string language_;
  const int threads_;
  const int64_t from_sample_;
  int64_t resume_ms_;
  const Emit emit_;
  whisper_context* ctx_ = nullptr;

  std::vector<float> pending_;  // samples from base_ on
  int64_t base_ = 0, seen_ = 0;
  int64_t last_end_;                             // where the last block ended
  int64_t speech_start_ = -1, speech_end_ = -1;  // the open block; -1 when none
  int64_t block_begin_ = 0, block_end_ = 0;      // the block being transcribed
};

}  // namespace

std::unique_ptr<Recognizer> MakeWhisperRecognizer(const RecognizerOptions& options, Emit emit,
                                                  std::string* error) {
  auto recognizer = std::make_unique<WhisperRecognizer>(options, std::move(emit));
  *error = recognizer->Open(options.model);
  if (!error->empty()) return nullptr;
  return recognizer;
}

std::string WhisperVersion() {
  return whisper_version();
}

}  // namespace kebab::parse::internal
