#include "app/internal/transcription.h"

#include <filesystem>

#include "models/models.h"

namespace kebab::app::internal {

parse::TranscriptionSettings TranscriptionSettingsOf(const config::Config& config) {
  const config::IngestConfig& in = config.ingest;
  parse::TranscriptionSettings settings;
  settings.pocketsphinx_model = in.audio_pocketsphinx_model;
  settings.whisper_model = models::SpeechModelFilePath(config, in.audio_whisper_model);
  if (models::IsBareModelName(in.audio_whisper_model, models::ModelKind::kSpeech)) {
    settings.whisper_model_hint =
        models::PullHint(in.audio_whisper_model, models::ModelKind::kSpeech);
  } else {
    settings.whisper_model_hint =
        "set ingest.audio.whisper_model to a whisper.cpp ggml .bin file, or to a model NAME "
        "pulled with `kebab models pull` (whisper-base, whisper-small, whisper-large-v3-turbo)";
  }
  settings.language = in.audio_language;
  settings.threads = in.audio_threads;
  std::error_code ec;
  const bool whisper = in.audio_engine == "whisper" ||
                       (in.audio_engine == "auto" && !in.audio_whisper_model.empty() &&
                        std::filesystem::is_regular_file(settings.whisper_model, ec));
  if (whisper) {
    settings.engine = parse::SpeechEngine::kWhisper;
    // whisper on a CPU runs from about real time (base) to several times slower (large): the
    // budget is a guard against a hung worker, and an interrupted run goes on where it stopped.
    settings.seconds_per_audio_second = 8.0;
  }
  return settings;
}

}  // namespace kebab::app::internal
