// The audio extractor (parse/extractor.h): wav, flac, mp3, ogg/opus, m4a/aac and webm, read
// by the kebab-audio worker (FFmpeg to 16 kHz mono, utterances cut at pauses, pocketsphinx or
// whisper.cpp).
// Each utterance becomes a paragraph block whose span is its time range, cited
// `talk.m4a#t=00:00:12.5,00:00:19.04`; a description block (file name, the tags' title, artist,
// album and date, the length) spans the whole recording, so one without speech is still found. The
// transcript is cached by the Transcriber (parse/audio.h); an interrupted one goes on where it
// stopped. Module-private.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "parse/extractor.h"

namespace kebab::parse::internal {

inline constexpr char kAudioParserVersion[] = "audio-v1";

// One utterance of a transcript: what was said, from when to when in the recording.
struct Segment {
  uint64_t start_ms = 0, end_ms = 0;
  std::string text;
};

// What the worker said of one recording, as cached (a partial one after an interruption).
struct Transcript {
  nlohmann::json info;  // the worker's info line: length, codec, tags
  std::vector<Segment> segments;
  bool complete = false;
  int64_t resume_ms = 0;        // every utterance starting before this has been transcribed
  int64_t done_ms = 0;          // audio decoded
  int64_t resumed_from_ms = 0;  // where the run that finished it began (0: from the start)
  std::string language;         // what whisper heard ("en", "ko"); empty for pocketsphinx

  std::string ToJson() const;
  // nullopt for an entry that is not a transcript (it is then transcribed again).
  static std::optional<Transcript> FromJson(const std::string& text);
};

class AudioExtractor final : public Extractor {
 public:
  std::string_view version() const override { return kAudioParserVersion; }
  // "audio-v1+asr(pocketsphinx-5prealpha|en-us|seg2)".
  std::string VersionFor(const ExtractServices& services) const override;
  Result<CanonicalDocument> Extract(const ExtractInput& input) const override;
  // No Check: doctor's `transcription` check runs the worker with the configured model.

 private:
  // Fills `out` from the cache or the worker (going on from a cached partial transcript).
  Status Transcribe(const ExtractInput& input, Transcript* out, bool* from_cache,
                    std::vector<std::string>* warnings) const;
  CanonicalDocument Document(const ExtractInput& input, const Transcript& transcript,
                             bool from_cache, std::vector<std::string> warnings) const;
};

}  // namespace kebab::parse::internal
