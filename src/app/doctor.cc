#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "app/admin.h"
#include "app/embed_stage.h"
#include "app/internal/caption.h"
#include "app/internal/ocr.h"
#include "app/internal/session_state.h"
#include "app/internal/transcription.h"
#include "app/internal_store.h"
#include "llm/open.h"
#include "parse/audio.h"
#include "parse/extractor.h"
#include "store/migrations.h"

namespace kebab::app {

namespace fs = std::filesystem;

namespace {

// "N vectors, M chunk texts not embedded yet" for the space, or that it has none yet.
Result<std::string> VectorStatus(store::Store& store, const store::SpaceKey& key) {
  KEBAB_ASSIGN_OR_RETURN(std::optional<int64_t> space, store.FindSpaceId(key));
  if (!space) return std::string("no vectors yet (run `kebab ingest`)");
  KEBAB_ASSIGN_OR_RETURN(int64_t vectors, store.CountVectors(*space));
  KEBAB_ASSIGN_OR_RETURN(int64_t missing, store.CountTextsWithoutVectors(*space));
  return std::to_string(vectors) + " vectors, " + std::to_string(missing) +
         " chunk texts not embedded yet";
}

}  // namespace

DoctorReport Doctor(Session* session, const Status& load_status, const std::string& config_path) {
  DoctorReport report;
  auto add = [&](std::string name, bool ok, std::string detail, std::string hint = {}) {
    report.checks.push_back({std::move(name), ok, std::move(detail), std::move(hint)});
    report.ok = report.ok && ok;
  };
  const config::Config* config = session != nullptr ? &session->config() : nullptr;
  if (!config) {
    add("config_loaded", false, config_path + ": " + load_status.message(), load_status.hint());
    return report;
  }
  add("config_loaded", true,
      config->loaded_from_file ? config->config_path
                               : config->config_path + " (absent: built-in defaults)");

  std::error_code ec;
  const std::string& data_dir = config->storage.data_dir;
  fs::create_directories(data_dir, ec);
  const std::string probe = data_dir + "/.kebab-doctor-probe";
  bool writable = false;
  {
    std::ofstream out(probe);
    writable = static_cast<bool>(out << "ok");
  }
  fs::remove(probe, ec);
  add("data_dir_writable", writable, data_dir,
      writable ? "" : "fix the permissions or set storage.data_dir in " + config->config_path);

  add("workspace_root", fs::is_directory(config->workspace.root, ec), config->workspace.root,
      fs::is_directory(config->workspace.root, ec)
          ? ""
          : "create it, or set workspace.root in " + config->config_path);

  if (!fs::exists(config->storage.sqlite, ec)) {
    add("sqlite_open", false, config->storage.sqlite + " does not exist yet",
        "run `kebab ingest` to build the index");
  } else {
    auto store = OpenStore(*config, true);
    if (!store.ok()) {
      add("sqlite_open", false, store.status().message(), store.status().hint());
    } else {
      add("sqlite_open", true,
          config->storage.sqlite + " (schema v" + std::to_string((*store)->schema_version()) + ")");
      add("schema_version", (*store)->schema_version() == store::LatestSchemaVersion(),
          "v" + std::to_string((*store)->schema_version()) + " (binary knows v" +
              std::to_string(store::LatestSchemaVersion()) + ")");
      auto integrity = (*store)->IntegrityCheck();
      bool integrity_ok = integrity.ok() && *integrity == "ok";
      add("sqlite_integrity", integrity_ok,
          integrity.ok() ? *integrity : integrity.status().message(),
          integrity_ok ? "" : "`kebab reset --data-only` then `kebab ingest` rebuilds the index");
      auto stats = (*store)->Stats();
      if (stats.ok()) {
        bool fts_ok = stats->fts_rows == stats->chunk_count;
        add("fts_consistent", fts_ok,
            std::to_string(stats->fts_rows) + " FTS rows for " +
                std::to_string(stats->chunk_count) + " chunks",
            fts_ok ? "" : "run `kebab ingest --force-reingest` to rebuild the index");
      } else {
        add("fts_consistent", false, stats.status().message());
      }
    }
  }
  // The readers of media that need a program of their own (PDF: kebab-pdf).
  for (MediaKind media : parse::ExtractableMedia()) {
    Result<std::string> reader = parse::ExtractorFor(media)->Check();
    if (reader.ok() && reader->empty()) continue;
    const std::string name = "reader_" + std::string(MediaKindName(media));
    if (reader.ok()) {
      add(name, true, *reader);
    } else {
      add(name, false, reader.status().message(), reader.status().hint());
    }
  }
  // OCR: the worker runs, and Tesseract has every configured language.
  if (config->ingest.ocr_enabled) {
    const parse::OcrPool ocr(internal::OcrSettingsOf(*config), nullptr);
    Result<std::string> checked = ocr.Check();
    add("ocr", checked.ok(), checked.ok() ? *checked : checked.status().message(),
        checked.ok() ? "" : checked.status().hint());
  } else {
    add("ocr", true, "off ([ingest.ocr] enabled = false): scans and images are found by name only",
        "");
  }
  // Transcription: the audio worker runs and the model of the engine in use is there.
  if (config->ingest.audio_enabled) {
    const parse::TranscriptionSettings settings = internal::TranscriptionSettingsOf(*config);
    Result<std::string> checked = parse::Transcriber(settings, nullptr).Check();
    const bool whisper = settings.engine == parse::SpeechEngine::kWhisper;
    // pocketsphinx works, but whisper is the better recognizer and the only one for other
    // languages than English: say how to get it.
    add("transcription", checked.ok(),
        checked.ok() ? *checked + (whisper ? "" : "; English only") : checked.status().message(),
        !checked.ok() ? checked.status().hint()
        : whisper     ? ""
                      : "for far fewer errors and other languages (Korean too): kebab models pull "
                        "whisper-base");
  } else {
    add("transcription", true,
        "off ([ingest.audio] enabled = false): recordings are found by name only", "");
  }
  // Captions: the vision model's server answers and lists the model.
  if (config->ingest.caption_enabled) {
    Result<std::string> caption = internal::CheckCaptionModel(*config);
    add("caption_model", caption.ok(), caption.ok() ? *caption : caption.status().message(),
        caption.ok() ? "" : caption.status().hint());
  } else {
    add("caption_model", true, "off ([ingest.image.caption] enabled = false)", "");
  }
  if (config->embedding.provider == "none") {
    add("embedding_model", true, "not configured (lexical search only)");
  } else {
    // Loading is the health check: a local model must open, a server must answer.
    auto embedder = session->state().Embedder(*config);
    if (embedder.ok()) {
      const embed::SpaceInfo& space = (*embedder)->space();
      std::string vectors = "no index yet";
      if (auto store = OpenStore(*config, true); store.ok()) {
        auto status = VectorStatus(**store, SpaceKeyOf(**embedder));
        vectors = status.ok() ? *status : status.status().message();
      }
      add("embedding_model", true,
          space.provider + ":" + space.model + " (" + std::to_string(space.dimensions) +
              " dims, space " + space.version + "; " + vectors + ")");
    } else {
      add("embedding_model", false, embedder.status().message(), embedder.status().hint());
    }
  }
  if (config->llm.provider == "none" || config->llm.model.empty()) {
    add("llm", true, "not configured (`kebab ask` unavailable)",
        "set [models.llm] provider and model to answer questions with `kebab ask`");
  } else {
    auto checked = llm::CheckLanguageModel(*config);
    if (checked.ok()) {
      add("llm", true, *checked);
    } else {
      add("llm", false, checked.status().message(), checked.status().hint());
    }
  }
  return report;
}

}  // namespace kebab::app
