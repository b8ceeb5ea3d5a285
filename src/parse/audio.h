// Speech to text for the audio extractor: a Transcriber holds what the kebab-audio worker
// (audio_worker.cc: FFmpeg decoding, pocketsphinx) is run with and the cache its transcripts
// go into, keyed by the recording's bytes and every setting that changes a transcript, so a
// renamed, moved or re-ingested recording is never transcribed twice. A transcription that
// is interrupted keeps what it finished in the cache, and the next one goes on from there.
// Thread safety: a Transcriber is immutable after construction; extractors on many threads
// share it. Its DerivationCache must be thread-safe.
// Ownership: the caller (app's ingest) owns it and the cache for one run and hands extractors
// a pointer through ExtractInput.
#pragma once

#include <string>

#include "core/status.h"
#include "parse/ocr.h"

namespace kebab::parse {

struct TranscriptionSettings {
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
  // What of the engine and settings changes a transcript ("pocketsphinx-5prealpha en-us"):
  // part of the parser_version of recordings and of the cache key.
  std::string Signature() const;

  // Runs the worker's --version and checks the model is installed: "kebab-audio at PATH
  // (FFmpeg 5.1.x, pocketsphinx 5prealpha, model en-us)", or the error with the fix.
  Result<std::string> Check() const;

 private:
  const TranscriptionSettings settings_;
  DerivationCache* const cache_;
  const std::string worker_path_;
};

// $KEBAB_AUDIO_WORKER, else kebab-audio beside the running executable.
std::string AudioWorkerPath();

// What to do when the worker cannot be run (said by the extractor and doctor alike).
extern const char kAudioWorkerHint[];

}  // namespace kebab::parse
