// Speech to text for the audio extractor: a Transcriber holds what the kebab-audio worker
// (audio_worker.cc: FFmpeg decoding; pocketsphinx or whisper.cpp) is run with and the cache its
// transcripts go into, keyed by the recording's bytes and every setting that changes a transcript,
// so a renamed, moved or re-ingested recording is never transcribed twice. A transcription that is
// interrupted keeps what it finished in the cache, and the next one goes on from there. Thread
// safety: a Transcriber is immutable after construction; extractors on many threads share it. Its
// DerivationCache must be thread-safe. Ownership: the caller (app's ingest) owns it and the cache
// for one run and hands extractors a pointer through ExtractInput.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "parse/ocr.h"

namespace kebab::parse {

enum class SpeechEngine {
  kPocketsphinx,  // English only, no download: Debian's pocketsphinx-en-us
  kWhisper,       // whisper.cpp with a ggml model the user pulled: 99 languages, far fewer errors
};

// "pocketsphinx" | "whisper"
std::string_view SpeechEngineName(SpeechEngine engine);

struct TranscriptionSettings {
  SpeechEngine engine = SpeechEngine::kPocketsphinx;
  // whisper: the ggml .bin file, and the language spoken ("auto": whisper detects it).
  std::string whisper_model;
  std::string language = "auto";
  int threads = 0;  // whisper: 0 = min(4, cores)
  // How to get the whisper model when it is missing (the pull command for its name).
  std::string whisper_model_hint =
      "kebab models pull whisper-base, or set ingest.audio.whisper_model to a whisper.cpp ggml "
      ".bin file";
  // pocketsphinx's model folder (en-us/, en-us.lm.bin, cmudict-en-us.dict); Debian's
  // pocketsphinx-en-us installs it at the default.
  std::string pocketsphinx_model = "/usr/share/pocketsphinx/model/en-us";
  // The budget of one recording is this plus `seconds_per_audio_second` times its length,
  // so a worker that hangs is stopped and a long recording still finishes.
  int base_seconds = 60;
  double seconds_per_audio_second = 2.0;
};

class Transcriber {
 public:
  // `worker_path` empty: the kebab-audio beside the running executable, or
  // $KEBAB_AUDIO_WORKER. `cache` may be null (nothing is kept).
  Transcriber(TranscriptionSettings settings, DerivationCache* cache, std::string worker_path = "");

  const TranscriptionSettings& settings() const { return settings_; }
  DerivationCache* cache() const { return cache_; }
  const std::string& worker_path() const { return worker_path_; }
  // What of the engine and settings changes a transcript ("pocketsphinx-5prealpha|en-us|seg2",
  // "whisper.cpp-1.9.1|whisper-base.bin:147951465|auto|seg2"): part of the parser_version of
  // recordings and of the cache key.
  const std::string& Signature() const { return signature_; }
  // The engine and model a document records: "whisper.cpp 1.9.1", "/path/whisper-base.bin".
  std::string EngineLabel() const;
  std::string ModelLabel() const;

  // The worker's arguments after its path for a transcription (engine, model, language).
  std::vector<std::string> WorkerArgs() const;

  // Runs the worker's --version and checks the model is installed: "kebab-audio at PATH
  // (FFmpeg 5.1.x, whisper.cpp 1.9.1, model /m/whisper-base.bin)", or the error with the fix
  // (also when the language set is not English and only pocketsphinx is there).
  Result<std::string> Check() const;

 private:
  const TranscriptionSettings settings_;
  DerivationCache* const cache_;
  const std::string worker_path_;
  const std::string signature_;  // made once: the whisper model's size is read from disk
};

// $KEBAB_AUDIO_WORKER, else kebab-audio beside the running executable.
std::string AudioWorkerPath();

// What to do when the worker cannot be run (said by the extractor and doctor alike).
extern const char kAudioWorkerHint[];

}  // namespace kebab::parse
