// kebab-audio: the recording worker behind parse's audio extractor (parse/audio.cc). It reads
// one recording on stdin, decodes it with FFmpeg to 16 kHz mono as it goes, splits it into
// utterances at pauses and has a recognizer (internal/recognizer.h: pocketsphinx, or
// whisper.cpp) transcribe them, writing one JSON object per line:
//   {"kind":"info","duration_ms":N,"container":S,"codec":S,"sample_rate":N,"channels":N,
//    "tags":{"title":S,"artist":S,...}}
//   {"kind":"segment","start_ms":N,"end_ms":N,"text":S}     what was said, in order
//                                   (whisper's also carry "tokens":N, the tokens it decoded)
//   {"kind":"language","language":S}   whisper: the language it heard in a stretch of speech
//   {"kind":"progress","done_ms":N,"resume_ms":N}   as it goes: transcribed so far, and the
//                                   time before which every word has been sent
//   {"kind":"end","done_ms":N,"skipped_packets":N}
// or, for a file it cannot read, {"kind":"error","code":C,"message":S} and exit status 1,
// with C "unsupported" (not audio it can decode), "damaged" (breaks off), "model" (the
// recognizer's model is missing or unusable). Options:
//   --engine E      pocketsphinx (default) or whisper
//   --model PATH    pocketsphinx's model folder (en-us/, en-us.lm.bin, cmudict-en-us.dict), or
//                   whisper's ggml .bin file
//   --language L    whisper: auto (default) or a language code such as en or ko
//   --threads N     whisper: CPU threads (default min(4, cores), as whisper-cli)
//   --from-ms N     resume: nothing before N is recognized
//   --decode-only   no recognition (info, progress, end); --pcm FILE writes the samples
//   --probe         the info line alone (the extractor sizes its time budget by it)
//   --pause-ms N, --pad-ms N   the segmenter's pause and padding (SegmenterOptions), for
//                   tuning against bench/audio_bench.py; the extractor uses the defaults
//   --version       {"kind":"version","ffmpeg":S,"pocketsphinx":S,"whisper":S}
//
// Why a process of its own: FFmpeg's decoders, pocketsphinx and whisper.cpp are large
// libraries that `kebab search` must not load, and a hostile file that crashes or hangs a
// decoder then costs one worker, which the extractor kills at its time budget, never the
// ingest.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "parse/internal/audio_decode.h"
#include "parse/internal/recognizer.h"
#include "parse/internal/speech_segmenter.h"

namespace {

using kebab::parse::internal::AudioDecoder;
using kebab::parse::internal::Recognizer;
using kebab::parse::internal::RecognizerOptions;
using kebab::parse::internal::SamplesToMs;
using kebab::parse::internal::SpeechSegmenter;
using kebab::parse::internal::Utterance;
using nlohmann::json;

constexpr int64_t kProgressEveryMs = 5000;
constexpr char kDefaultPocketsphinxModel[] = "/usr/share/pocketsphinx/model/en-us";

void Emit(const json& j) {
  std::cout << j.dump(-1, ' ', false, json::error_handler_t::replace) << '\n' << std::flush;
}

int Fail(std::string_view code, const std::string& message) {
  Emit({{"kind", "error"}, {"code", code}, {"message", message}});
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string engine = "pocketsphinx", pcm_path;
  RecognizerOptions options;
  options.language = "auto";
  bool decode_only = false, probe = false;
  kebab::parse::internal::SegmenterOptions segmenter_options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--version") {
      Emit({{"kind", "version"},
            {"ffmpeg", kebab::parse::internal::FfmpegVersion()},
            {"pocketsphinx", "5prealpha"},
            {"whisper", kebab::parse::internal::WhisperVersion()}});
      return 0;
    } else if (arg == "--engine" && has_value) {
      engine = argv[++i];
    } else if (arg == "--model" && has_value) {
      options.model = argv[++i];
    } else if (arg == "--language" && has_value) {
      options.language = argv[++i];
    } else if (arg == "--threads" && has_value) {
      options.threads = std::atoi(argv[++i]);
    } else if (arg == "--from-ms" && has_value) {
      options.from_ms = std::atoll(argv[++i]);
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
  if (engine != "pocketsphinx" && engine != "whisper") {
    std::cerr << "kebab-audio: --engine is pocketsphinx or whisper, not " << engine << "\n";
    return 2;
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

  std::unique_ptr<Recognizer> recognizer;
  if (!decode_only) {
    std::string error;
    if (engine == "whisper") {
      if (options.model.empty()) return Fail("model", "--engine whisper needs --model FILE");
      recognizer = kebab::parse::internal::MakeWhisperRecognizer(options, Emit, &error);
    } else {
      if (options.model.empty()) options.model = kDefaultPocketsphinxModel;
      recognizer = kebab::parse::internal::MakePocketsphinxRecognizer(options, Emit, &error);
    }
    if (recognizer == nullptr) return Fail("model", error);
  }
  std::ofstream pcm;
  if (!pcm_path.empty()) pcm.open(pcm_path, std::ios::binary);

  int64_t next_progress_ms = kProgressEveryMs;
  SpeechSegmenter segmenter(segmenter_options, [&](Utterance u) {
    if (recognizer != nullptr) recognizer->OnUtterance(u);
  });
  const kebab::Status run = (*decoder)->Run([&](const int16_t* samples, size_t n) {
    if (pcm.is_open()) pcm.write(reinterpret_cast<const char*>(samples), n * sizeof(int16_t));
    if (recognizer != nullptr) recognizer->OnSamples(samples, n);
    segmenter.Feed(samples, n);
    const int64_t decoded_ms = SamplesToMs(segmenter.samples_seen());
    if (decoded_ms >= next_progress_ms) {
      const int64_t done_ms = recognizer ? recognizer->done_ms(decoded_ms) : decoded_ms;
      const int64_t resume_ms = recognizer ? recognizer->resume_ms() : options.from_ms;
      Emit({{"kind", "progress"}, {"done_ms", done_ms}, {"resume_ms", resume_ms}});
      next_progress_ms = decoded_ms + kProgressEveryMs;
    }
    return true;
  });
  segmenter.Finish();
  if (recognizer != nullptr) recognizer->Finish();
  if (!run.ok()) return Fail("damaged", run.message());
  Emit({{"kind", "end"},
        {"done_ms", SamplesToMs(segmenter.samples_seen())},
        {"skipped_packets", (*decoder)->skipped_packets()}});
  return 0;
}
