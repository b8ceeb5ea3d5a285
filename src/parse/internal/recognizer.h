// The speech recognizers of the kebab-audio worker (audio_worker.cc): pocketsphinx, which
// transcribes one utterance at a time, and whisper.cpp, which reads up to ten minutes of speech
// at once in its own 30-second windows. The worker feeds a recognizer every decoded sample and
// every utterance the segmenter cuts; the recognizer sends what was said through `emit` as
// {"kind":"segment","start_ms":N,"end_ms":N,"text":S} lines, times in the recording.
// Not thread-safe: one worker process, one thread, one recognizer. Worker-private.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "parse/internal/audio_decode.h"
#include "parse/internal/speech_segmenter.h"

namespace kebab::parse::internal {

using Emit = std::function<void(const nlohmann::json&)>;

class Recognizer {
 public:
  virtual ~Recognizer() = default;

  // Every sample the decoder gives, in order, before the utterances cut from them.
  virtual void OnSamples(const int16_t* samples, size_t n) = 0;
  // An utterance the segmenter cut (its samples, padding included).
  virtual void OnUtterance(const Utterance& u) = 0;
  // The stream has ended: recognize what is held back.
  virtual void Finish() = 0;

  // The time before which every word has been sent, for resuming an interrupted run (the
  // worker's --from-ms), and how far transcription has got, given how far decoding has.
  virtual int64_t resume_ms() const = 0;
  virtual int64_t done_ms(int64_t decoded_ms) const = 0;
};

struct RecognizerOptions {
  std::string model;     // pocketsphinx's model folder, or whisper's ggml .bin file
  std::string language;  // whisper: "auto" or a code ("en", "ko"); pocketsphinx: en only
  int threads = 0;       // whisper: 0 = min(4, cores), as whisper-cli
  int64_t from_ms = 0;   // resume: nothing before this is recognized
};

// Null with `*error` set when the model cannot be loaded.
std::unique_ptr<Recognizer> MakePocketsphinxRecognizer(const RecognizerOptions& options, Emit emit,
                                                       std::string* error);
std::unique_ptr<Recognizer> MakeWhisperRecognizer(const RecognizerOptions& options, Emit emit,
                                                  std::string* error);

// "1.9.1": the whisper.cpp the worker is built with.
std::string WhisperVersion();

inline int64_t SamplesToMs(int64_t samples) {
  return samples * 1000 / kAudioSampleRate;
}

}  // namespace kebab::parse::internal
