#include "parse/internal/speech_segmenter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace kebab::parse::internal {
namespace {

constexpr int kRate = 16000;

// A 16 kHz signal built piece by piece: speech (tone syllables with dips between them, as
// speech has), steady tones and quiet.
class Signal {
 public:
  // Syllables of 250 ms at `dbfs`, each followed by a 60 ms dip 30 dB lower, for `seconds`.
  Signal& Speech(double seconds, double dbfs = -20) {
    const size_t end = samples_.size() + static_cast<size_t>(seconds * kRate);
    while (samples_.size() < end) {
      Tone(std::min(0.25, static_cast<double>(end - samples_.size()) / kRate), dbfs);
      if (samples_.size() < end) {
        Tone(std::min(0.06, static_cast<double>(end - samples_.size()) / kRate), dbfs - 30);
      }
    }
    return *this;
  }
  Signal& Tone(double seconds, double dbfs = -20) {
    const double amp = 32767 * std::pow(10, dbfs / 20);
    for (int i = 0; i < static_cast<int>(seconds * kRate); ++i) {
      samples_.push_back(static_cast<int16_t>(amp * std::sin(2 * M_PI * 300 * i / kRate)));
    }
    return *this;
  }
  Signal& Quiet(double seconds, double noise_dbfs = -120) {
    std::normal_distribution<double> noise(0, 32767 * std::pow(10, noise_dbfs / 20));
    for (int i = 0; i < static_cast<int>(seconds * kRate); ++i) {
      samples_.push_back(static_cast<int16_t>(std::lround(noise(rng_))));
    }
    return *this;
  }
  const std::vector<int16_t>& samples() const { return samples_; }

 private:
  std::vector<int16_t> samples_;
  std::mt19937 rng_{7};
};

// Each utterance as [start, end) in milliseconds, the signal fed `block` samples at a time.
std::vector<std::pair<int64_t, int64_t>> Utterances(const Signal& signal, size_t block = 4096,
                                                    SegmenterOptions options = {}) {
  std::vector<std::pair<int64_t, int64_t>> out;
  SpeechSegmenter segmenter(options, [&](Utterance u) {
    out.emplace_back(u.start_sample * 1000 / kRate,
                     (u.start_sample + static_cast<int64_t>(u.samples.size())) * 1000 / kRate);
  });
  const std::vector<int16_t>& s = signal.samples();
  for (size_t i = 0; i < s.size(); i += block) {
    segmenter.Feed(s.data() + i, std::min(block, s.size() - i));
  }
  segmenter.Finish();
  EXPECT_EQ(segmenter.samples_seen(), static_cast<int64_t>(s.size()));
  return out;
}

using Spans = std::vector<std::pair<int64_t, int64_t>>;

TEST(SpeechSegmenterTest, PausesSplitUtterancesAndShortGapsDoNot) {
  Signal s;
  s.Quiet(1).Speech(2).Quiet(0.5).Speech(1.5).Quiet(0.2).Speech(1).Quiet(2);
  // Each keeps 250 ms of padding; the 200 ms gap stays inside the second utterance.
  EXPECT_EQ(Utterances(s), (Spans{{750, 3250}, {3250, 6450}}));
}

TEST(SpeechSegmenterTest, TheBlockSizeFedChangesNothing) {
  Signal s;
  s.Quiet(0.7).Speech(1.3).Quiet(0.9).Speech(0.8).Quiet(0.4);
  const Spans whole = Utterances(s, 1 << 20);
  EXPECT_EQ(whole.size(), 2u);
  for (size_t block : {1u, 77u, 160u, 1000u}) EXPECT_EQ(Utterances(s, block), whole) << block;
}

TEST(SpeechSegmenterTest, SpeechAtTheEndIsKeptAndAtTheStartFromItsFirstDip) {
  Signal s;
  s.Speech(1).Quiet(1).Speech(1);
  // The floor is not known before the first dip (250 ms in): the 250 ms padding reaches back
  // over most of the first syllable.
  EXPECT_EQ(Utterances(s), (Spans{{60, 1250}, {1750, 3000}}));
}

TEST(SpeechSegmenterTest, SpeechWithoutAPauseIsCutAtItsQuietestFrameBeforeTheLimit) {
  Signal s;
  // 25 s of speech whose quietest moment is at 18 s: the cut falls there, not at 20 s.
  s.Speech(18).Tone(0.05, -70).Speech(7).Quiet(1);
  const Spans got = Utterances(s);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].first, 60);  // as above: from the first dip
  EXPECT_NEAR(static_cast<double>(got[0].second), 18000, 60);
  EXPECT_EQ(got[1].first, got[0].second);  // nothing is lost at a cut
  EXPECT_EQ(got[1].second, 25300);
}

TEST(SpeechSegmenterTest, SteadySoundsAndClicksAreNotSpeech) {
  Signal s;
  s.Quiet(3, -60).Tone(0.05).Quiet(3, -60);  // hiss and a 50 ms click
  EXPECT_TRUE(Utterances(s).empty());
  Signal hum;
  hum.Tone(10, -25);  // a loud steady hum never dips
  EXPECT_TRUE(Utterances(hum).empty());
  Signal speech_in_noise;
  speech_in_noise.Quiet(2, -45).Speech(1, -15).Quiet(2, -45);
  EXPECT_EQ(Utterances(speech_in_noise), (Spans{{1750, 3250}}));
}

}  // namespace
}  // namespace kebab::parse::internal
