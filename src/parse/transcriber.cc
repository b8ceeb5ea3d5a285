#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/subprocess.h"
#include "parse/audio.h"

namespace kebab::parse {

using nlohmann::json;

// Bumped when the worker cuts utterances or reads the recognizer's words differently: the
// same recording then gives another transcript, so it is transcribed again.
constexpr char kSegmenterVersion[] = "seg2";

const char kAudioWorkerHint[] =
    "kebab looks for kebab-audio beside itself, then in ../libexec/kebab (where cmake --install "
    "puts it): rebuild with scripts/setup.sh or reinstall (it needs Debian's libavformat59 and "
    "libpocketsphinx3), or point KEBAB_AUDIO_WORKER at it";

namespace {

std::string LastComponent(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  const size_t slash = path.rfind('/');
  if (slash != std::string::npos) path.erase(0, slash + 1);
  return path;
}

bool IsFile(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

// See Transcriber::Signature.
std::string SignatureOf(const TranscriptionSettings& settings) {
  if (settings.engine == SpeechEngine::kWhisper) {
    // The file's name and size tell one model from another without reading it; a model
    // pulled again under the same name is the same file.
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(settings.whisper_model, ec);
    return std::string("whisper.cpp-") + KEBAB_WHISPER_VERSION + "|" +
           LastComponent(settings.whisper_model) + ":" + (ec ? "0" : std::to_string(bytes)) + "|" +
           settings.language + "|" + kSegmenterVersion;
  }
  return "pocketsphinx-5prealpha|" + LastComponent(settings.pocketsphinx_model) + "|" +
         kSegmenterVersion;
}

}  // namespace

std::string_view SpeechEngineName(SpeechEngine engine) {
  return engine == SpeechEngine::kWhisper ? "whisper" : "pocketsphinx";
}

std::string AudioWorkerPath() {
  return HelperPath("KEBAB_AUDIO_WORKER", "kebab-audio");
}

Transcriber::Transcriber(TranscriptionSettings settings, DerivationCache* cache,
                         std::string worker_path)
    : settings_(std::move(settings)),
      cache_(cache),
      worker_path_(worker_path.empty() ? AudioWorkerPath() : std::move(worker_path)),
      signature_(SignatureOf(settings_)) {}

std::string Transcriber::EngineLabel() const {
  return settings_.engine == SpeechEngine::kWhisper
             ? std::string("whisper.cpp ") + KEBAB_WHISPER_VERSION
             : "pocketsphinx 5prealpha";
}

std::string Transcriber::ModelLabel() const {
  return settings_.engine == SpeechEngine::kWhisper ? settings_.whisper_model
                                                    : settings_.pocketsphinx_model;
}

std::vector<std::string> Transcriber::WorkerArgs() const {
  if (settings_.engine == SpeechEngine::kWhisper) {
    std::vector<std::string> args = {"--engine",   "whisper",
                                     "--model",    settings_.whisper_model,
                                     "--language", settings_.language};
    if (settings_.threads > 0) {
      args.push_back("--threads");
      args.push_back(std::to_string(settings_.threads));
    }
    return args;
  }
  return {"--engine", "pocketsphinx", "--model", settings_.pocketsphinx_model};
}

Result<std::string> Transcriber::Check() const {
  std::string ffmpeg, whisper;
  Result<SubprocessResult> run = RunSubprocess(
      {worker_path_, "--version"}, "", std::chrono::seconds(10), [&](std::string_view line) {
        json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (j.is_object() && j.value("kind", "") == "version") {
          ffmpeg = j.value("ffmpeg", "");
          whisper = j.value("whisper", "");
        }
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
  if (settings_.engine == SpeechEngine::kWhisper) {
    if (!IsFile(settings_.whisper_model)) {
      return Status(ErrorCode::kIoError, "the whisper model is not at " + settings_.whisper_model,
                    settings_.whisper_model_hint);
    }
    return "kebab-audio at " + worker_path_ + " (" + ffmpeg + ", whisper.cpp " + whisper +
           ", model " + settings_.whisper_model + ", language " + settings_.language + ")";
  }
  if (settings_.language != "auto" && settings_.language != "en") {
    return Status(ErrorCode::kInvalidInput,
                  "ingest.audio.language = \"" + settings_.language +
                      "\" but only pocketsphinx (English) is available",
                  settings_.whisper_model_hint);
  }
  if (!IsFile(settings_.pocketsphinx_model + "/en-us/mdef")) {
    return Status(ErrorCode::kIoError,
                  "the pocketsphinx model is not at " + settings_.pocketsphinx_model,
                  "apt-get install pocketsphinx-en-us, or set ingest.audio.pocketsphinx_model "
                  "to the folder that holds en-us/, en-us.lm.bin and cmudict-en-us.dict");
  }
  return "kebab-audio at " + worker_path_ + " (" + ffmpeg + ", pocketsphinx 5prealpha, model " +
         settings_.pocketsphinx_model + ")";
}

}  // namespace kebab::parse
