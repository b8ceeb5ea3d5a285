#include <nlohmann/json.hpp>

#include "core/subprocess.h"
#include "parse/audio.h"

namespace kebab::parse {

using nlohmann::json;

// Bumped when the worker cuts utterances or reads the recognizer's words differently: the
// same recording then gives another transcript, so it is transcribed again.
constexpr char kSegmenterVersion[] = "seg2";

const char kAudioWorkerHint[] =
    "install kebab-audio beside kebab (scripts/setup.sh builds both; it needs Debian's "
    "libavformat59 and libpocketsphinx3), or point KEBAB_AUDIO_WORKER at it";

std::string AudioWorkerPath() {
  return HelperPath("KEBAB_AUDIO_WORKER", "kebab-audio");
}

Transcriber::Transcriber(TranscriptionSettings settings, DerivationCache* cache,
                         std::string worker_path)
    : settings_(std::move(settings)),
      cache_(cache),
      worker_path_(worker_path.empty() ? AudioWorkerPath() : std::move(worker_path)) {}

std::string Transcriber::Signature() const {
  std::string model = settings_.pocketsphinx_model;
  while (model.size() > 1 && model.back() == '/') model.pop_back();
  const size_t slash = model.rfind('/');
  if (slash != std::string::npos) model.erase(0, slash + 1);
  return "pocketsphinx-5prealpha|" + model + "|" + kSegmenterVersion;
}

Result<std::string> Transcriber::Check() const {
  std::string ffmpeg;
  Result<SubprocessResult> run = RunSubprocess(
      {worker_path_, "--version"}, "", std::chrono::seconds(10), [&](std::string_view line) {
        json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (j.is_object() && j.value("kind", "") == "version") ffmpeg = j.value("ffmpeg", "");
        return true;
      });
  if (!run.ok()) {
    return Status(ErrorCode::kIoError, "cannot run the audio worker: " + run.status().message(),
                  kAudioWorkerHint);
  }
  if (run->exit_code != 0 || ffmpeg.empty()) {
    return Status(ErrorCode::kIoError,
                  worker_path_ + " is not a working kebab-audio (exit " +
                      std::to_string(run->exit_code) +
                      (run->stderr_tail.empty() ? "" : ": " + run->stderr_tail) + ")",
                  kAudioWorkerHint);
  }
  const std::string mdef = settings_.pocketsphinx_model + "/en-us/mdef";
  if (std::FILE* f = std::fopen(mdef.c_str(), "rb"); f != nullptr) {
    std::fclose(f);
  } else {
    return Status(ErrorCode::kIoError,
                  "the pocketsphinx model is not at " + settings_.pocketsphinx_model,
                  "apt-get install pocketsphinx-en-us, or set ingest.audio.pocketsphinx_model "
                  "to the folder that holds en-us/, en-us.lm.bin and cmudict-en-us.dict");
  }
  return "kebab-audio at " + worker_path_ + " (" + ffmpeg + ", pocketsphinx 5prealpha, model " +
         settings_.pocketsphinx_model + ")";
}

}  // namespace kebab::parse
