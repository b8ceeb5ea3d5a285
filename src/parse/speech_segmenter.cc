#include "parse/internal/speech_segmenter.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace kebab::parse::internal {
namespace {

double EnergyDb(const int16_t* frame, int n) {
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += static_cast<double>(frame[i]) * frame[i];
  return 10 * std::log10(sum / n / (32768.0 * 32768.0) + 1e-12);
}

}  // namespace

SpeechSegmenter::SpeechSegmenter(SegmenterOptions options, Sink sink)
    : options_(options), sink_(std::move(sink)) {}

void SpeechSegmenter::Feed(const int16_t* samples, size_t n) {
  seen_ += static_cast<int64_t>(n);
  size_t i = 0;
  if (!partial_.empty()) {
    const size_t take = std::min(n, static_cast<size_t>(kFrame) - partial_.size());
    partial_.insert(partial_.end(), samples, samples + take);
    i = take;
    if (partial_.size() < kFrame) return;
    Frame(partial_.data());
    partial_.clear();
  }
  for (; i + kFrame <= n; i += kFrame) Frame(samples + i);
  partial_.assign(samples + i, samples + n);
}

void SpeechSegmenter::Frame(const int16_t* frame) {
  const double db = EnergyDb(frame, kFrame);
  const int64_t index = frames_done_++;
  while (!quietest_.empty() && quietest_.back().second >= db) quietest_.pop_back();
  quietest_.emplace_back(index, db);
  while (quietest_.front().first <= index - options_.noise_window_ms / 10) quietest_.pop_front();
  const double noise_db = quietest_.front().second;
  const bool speech = db > noise_db + options_.above_noise_db && db > options_.min_db;
  const size_t pad = static_cast<size_t>(options_.pad_ms / 10);
  const int64_t frame_start = index * kFrame;
  if (!in_utterance_) {
    if (!speech) {
      lead_.emplace_back(frame, frame + kFrame);
      if (lead_.size() > pad) lead_.pop_front();
      return;
    }
    in_utterance_ = true;
    start_sample_ = frame_start - static_cast<int64_t>(lead_.size()) * kFrame;
    frames_.clear();
    energies_.clear();
    for (const auto& f : lead_) {
      frames_.insert(frames_.end(), f.begin(), f.end());
      energies_.push_back(EnergyDb(f.data(), kFrame));
    }
    lead_.clear();
    silent_run_ = 0;
    speech_frames_ = 0;
  }
  frames_.insert(frames_.end(), frame, frame + kFrame);
  energies_.push_back(db);
  if (speech) {
    ++speech_frames_;
    silent_run_ = 0;
  } else {
    ++silent_run_;
  }
  const size_t count = energies_.size();
  if (silent_run_ * 10 >= options_.pause_ms) {
    const size_t keep = count - static_cast<size_t>(silent_run_) + pad;
    Emit(std::min(keep, count));
    return;
  }
  if (static_cast<int64_t>(count) * 10 >= options_.max_ms) {
    // No pause in time: cut at the quietest frame of the last third, the likeliest gap
    // between words.
    const auto from = energies_.begin() + static_cast<std::ptrdiff_t>(count * 2 / 3);
    const size_t cut =
        static_cast<size_t>(std::min_element(from, energies_.end()) - energies_.begin());
    Emit(std::max<size_t>(cut, 1));
  }
}

void SpeechSegmenter::Emit(size_t keep_frames) {
  const size_t count = energies_.size();
  if (speech_frames_ * 10 >= options_.min_speech_ms) {
    Utterance u;
    u.start_sample = start_sample_;
    u.samples.assign(frames_.begin(),
                     frames_.begin() + static_cast<std::ptrdiff_t>(keep_frames * kFrame));
    sink_(std::move(u));
  }
  // What follows the kept frames: the lead-in of the next utterance (a pause), or the start
  // of its speech (a cut).
  const bool cut = silent_run_ * 10 < options_.pause_ms;
  std::vector<int16_t> rest(frames_.begin() + static_cast<std::ptrdiff_t>(keep_frames * kFrame),
                            frames_.end());
  std::vector<double> rest_energy(energies_.begin() + static_cast<std::ptrdiff_t>(keep_frames),
                                  energies_.end());
  const int64_t rest_start = start_sample_ + static_cast<int64_t>(keep_frames) * kFrame;
  frames_.clear();
  energies_.clear();
  silent_run_ = 0;
  speech_frames_ = 0;
  in_utterance_ = false;
  if (cut && !rest_energy.empty()) {
    in_utterance_ = true;
    start_sample_ = rest_start;
    frames_ = std::move(rest);
    energies_ = std::move(rest_energy);
    speech_frames_ = static_cast<int>(count - keep_frames);
    return;
  }
  const size_t pad = static_cast<size_t>(options_.pad_ms / 10);
  for (size_t f = rest_energy.size() > pad ? rest_energy.size() - pad : 0; f < rest_energy.size();
       ++f) {
    lead_.emplace_back(rest.begin() + static_cast<std::ptrdiff_t>(f * kFrame),
                       rest.begin() + static_cast<std::ptrdiff_t>((f + 1) * kFrame));
  }
}

void SpeechSegmenter::Finish() {
  if (!in_utterance_) return;
  const size_t pad = static_cast<size_t>(options_.pad_ms / 10);
  const size_t count = energies_.size();
  const size_t trailing = static_cast<size_t>(silent_run_);
  silent_run_ = options_.pause_ms;  // not a cut: nothing carries over
  Emit(trailing > pad ? count - trailing + pad : count);
  lead_.clear();
}

}  // namespace kebab::parse::internal
