// kebab-audio: the recording worker behind parse's audio extractor (parse/audio.cc). It reads
// one recording on stdin, decodes it with FFmpeg to 16 kHz mono as it goes, splits it into
// utterances at pauses and has pocketsphinx recognize each, writing one JSON object per line:
//   {"kind":"info","duration_ms":N,"container":S,"codec":S,"sample_rate":N,"channels":N,
//    "tags":{"title":S,"artist":S,...}}
//   {"kind":"segment","start_ms":N,"end_ms":N,"text":S}     what was said, in order
//   {"kind":"progress","done_ms":N,"resume_ms":N}   about every 5 s of audio: decoded so far,
//                                   and the time before which every utterance has been sent
//   {"kind":"end","done_ms":N,"skipped_packets":N}
// or, for a file it cannot read, {"kind":"error","code":C,"message":S} and exit status 1,
// with C "unsupported" (not audio it can decode), "damaged" (breaks off), "model" (the
// recognizer's model is missing). Options:
//   --model DIR     pocketsphinx's model folder (en-us/, en-us.lm.bin, cmudict-en-us.dict)
//   --from-ms N     resume: utterances starting before N are decoded but not recognized
//   --decode-only   no recognition (info, progress, end); --pcm FILE writes the samples
//   --probe         the info line alone (the extractor sizes its time budget by it)
//   --pause-ms N, --pad-ms N   the segmenter's pause and padding (SegmenterOptions), for
//                   tuning against bench/audio_bench.py; the extractor uses the defaults
//   --version       {"kind":"version","ffmpeg":S,"pocketsphinx":S}
//
// Why a process of its own: FFmpeg's decoders and pocketsphinx are large C libraries that
// `kebab search` must not load, and a hostile file that crashes or hangs a decoder then costs
// one worker, which the extractor kills at its time budget, never the ingest.
#include <pocketsphinx.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "parse/internal/audio_decode.h"
#include "parse/internal/speech_segmenter.h"

namespace {

using kebab::parse::internal::AudioDecoder;
using kebab::parse::internal::kAudioSampleRate;
using kebab::parse::internal::SpeechSegmenter;
using kebab::parse::internal::Utterance;
using nlohmann::json;

constexpr int64_t kProgressEveryMs = 5000;
constexpr char kDefaultModel[] = "/usr/share/pocketsphinx/model/en-us";

void Emit(const json& j) {
  std::cout << j.dump(-1, ' ', false, json::error_handler_t::replace) << '\n' << std::flush;
}

int Fail(std::string_view code, const std::string& message) {
  Emit({{"kind", "error"}, {"code", code}, {"message", message}});
  return 1;
}

int64_t Ms(int64_t samples) {
  return samples * 1000 / kAudioSampleRate;
}

bool Exists(const std::string& path) {
  return std::ifstream(path).good();
}

// pocketsphinx over one model, an utterance at a time.
class Recognizer {
 public:
  ~Recognizer() {
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
    const int64_t base = Ms(u.start_sample);
    return {{"kind", "segment"},
            {"start_ms", base + int64_t{first} * 1000 / frame_rate_},
            {"end_ms", base + int64_t{last + 1} * 1000 / frame_rate_},
            {"text", text}};
  }

 private:
  cmd_ln_t* config_ = nullptr;
  ps_decoder_t* decoder_ = nullptr;
  int frame_rate_ = 100;
};

}  // namespace

int main(int argc, char** argv) {
  std::string model = kDefaultModel, pcm_path;
  int64_t from_ms = 0;
  bool decode_only = false, probe = false;
  kebab::parse::internal::SegmenterOptions segmenter_options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--version") {
      Emit({{"kind", "version"},
            {"ffmpeg", kebab::parse::internal::FfmpegVersion()},
            {"pocketsphinx", "5prealpha"}});
      return 0;
    } else if (arg == "--model" && has_value) {
      model = argv[++i];
    } else if (arg == "--from-ms" && has_value) {
      from_ms = std::atoll(argv[++i]);
    } else if (arg == "--pcm" && has_value) {
      pcm_path = argv[++i];
    } else if (arg == "--decode-only") {
      decode_only = true;
    } else if (arg == "--probe") {
      probe = true;
    } else if (arg == "--pause-ms" && has_value) {
      segmenter_options.pause_ms = std::atoi(argv[++i]);
    } else if (arg == "--pad-ms" && has_value) {
      segmenter_options.pad_ms = std::atoi(argv[++i]);
    } else {
      std::cerr << "kebab-audio: unknown argument " << arg << "\n";
      return 2;
    }
  }

  std::string bytes((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  auto decoder = AudioDecoder::Open(std::move(bytes));
  if (!decoder.ok()) return Fail("unsupported", decoder.status().message());
  const auto& info = (*decoder)->info();
  Emit({{"kind", "info"},
        {"duration_ms", info.duration_ms},
        {"container", info.container},
        {"codec", info.codec},
        {"sample_rate", info.sample_rate},
        {"channels", info.channels},
        {"tags", info.tags}});
  if (probe) return 0;

  Recognizer recognizer;
  if (!decode_only) {
    if (std::string missing = recognizer.Open(model); !missing.empty()) {
      return Fail("model", missing);
    }
  }
  std::ofstream pcm;
  if (!pcm_path.empty()) pcm.open(pcm_path, std::ios::binary);

  int64_t resume_ms = from_ms, next_progress_ms = kProgressEveryMs;
  SpeechSegmenter segmenter(segmenter_options, [&](Utterance u) {
    if (decode_only || Ms(u.start_sample) < from_ms) return;
    json segment = recognizer.Recognize(u);
    if (!segment.is_null()) Emit(segment);
    resume_ms = Ms(u.start_sample + static_cast<int64_t>(u.samples.size()));
  });
  const kebab::Status run = (*decoder)->Run([&](const int16_t* samples, size_t n) {
    if (pcm.is_open()) pcm.write(reinterpret_cast<const char*>(samples), n * sizeof(int16_t));
    segmenter.Feed(samples, n);
    const int64_t done_ms = Ms(segmenter.samples_seen());
    if (done_ms >= next_progress_ms) {
      Emit({{"kind", "progress"}, {"done_ms", done_ms}, {"resume_ms", resume_ms}});
      next_progress_ms = done_ms + kProgressEveryMs;
    }
    return true;
  });
  segmenter.Finish();
  if (!run.ok()) return Fail("damaged", run.message());
  Emit({{"kind", "end"},
        {"done_ms", Ms(segmenter.samples_seen())},
        {"skipped_packets", (*decoder)->skipped_packets()}});
  return 0;
}
