// Splits a stream of 16 kHz mono samples into utterances at pauses, for a recognizer that
// decodes one utterance at a time (pocketsphinx): 10 ms frames are speech when their energy
// stands clear of the noise floor and of an absolute floor. The noise floor is the quietest
// frame of the last `noise_window_ms`: speech dips between syllables and a steady sound (hum,
// hiss, a crowd) does not, so the floor finds the background under speech, and a steady sound
// stays background. An utterance ends after `pause_ms` of non-speech, keeps `pad_ms` of audio
// on each side, and is cut at its quietest frame near `max_ms` when no pause comes. Each utterance
// knows the sample it starts at, so what the recognizer finds in it has a time in the recording.
// Memory: the current utterance and the padding before it, never the stream.
// Thread safety: one per stream.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

namespace kebab::parse::internal {

struct Utterance {
  int64_t start_sample = 0;      // in the whole stream
  std::vector<int16_t> samples;  // 16 kHz mono, padding included
};

struct SegmenterOptions {
  int pause_ms = 300;  // this much non-speech ends an utterance
  // Audio kept before and after the speech. pocketsphinx hears the first and last words
  // better with some silence around them: pooled WER on ../shared/data/audio's English wavs
  // (bench/audio_bench.py) was 0.780 at 100 ms, 0.778 at 200, 0.758 at 250, 0.760 at 300,
  // 0.773 at 350, 0.783 at 400; pocketsphinx_continuous's own 0.755.
  int pad_ms = 250;
  int min_speech_ms = 100;     // shorter bursts (clicks) are dropped
  int max_ms = 20000;          // an utterance is cut by then at its quietest frame
  double above_noise_db = 12;  // speech: this much over the noise floor...
  double min_db = -50;         // ...and over this absolute level (dBFS)
  int noise_window_ms = 3000;
};

class SpeechSegmenter {
 public:
  using Sink = std::function<void(Utterance)>;
  SpeechSegmenter(SegmenterOptions options, Sink sink);

  void Feed(const int16_t* samples, size_t n);
  void Finish();  // the utterance under way, if any, goes out

  int64_t samples_seen() const { return seen_; }

 private:
  static constexpr int kFrame = 160;  // 10 ms

  void Frame(const int16_t* frame);
  void Emit(size_t keep_frames);

  const SegmenterOptions options_;
  const Sink sink_;
  std::vector<int16_t> partial_;  // samples of the frame being filled
  int64_t seen_ = 0;              // samples fed so far
  int64_t frames_done_ = 0;       // whole frames looked at
  // The frames of the last noise_window_ms that may yet be the quietest, by index, their
  // energies ascending (a monotonic queue: the front is the window's minimum).
  std::deque<std::pair<int64_t, double>> quietest_;

  // Frames before any speech, at most pad_ms of them (the lead-in of the next utterance).
  std::deque<std::vector<int16_t>> lead_;
  // The utterance under way: its frames, their energies, and where it starts.
  bool in_utterance_ = false;
  std::vector<int16_t> frames_;
  std::vector<double> energies_;
  int64_t start_sample_ = 0;
  int silent_run_ = 0;  // frames of non-speech at its end
  int speech_frames_ = 0;
};

}  // namespace kebab::parse::internal
