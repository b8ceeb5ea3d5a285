// Transcription in the facade: which recognizer and model [ingest.audio] means. With engine
// "auto" (the default) a pulled whisper model is used as soon as it is there, so
// `kebab models pull whisper-base` is all it takes to move from pocketsphinx to whisper; the
// transcripts' signature changes with it, and recordings are transcribed again by whisper.
#pragma once

#include "config/config.h"
#include "parse/audio.h"

namespace kebab::app::internal {

parse::TranscriptionSettings TranscriptionSettingsOf(const config::Config& config);

}  // namespace kebab::app::internal
