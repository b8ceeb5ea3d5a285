#include "parse/internal/audio.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/hash.h"
#include "core/ids.h"
#include "core/subprocess.h"
#include "core/time.h"
#include "core/unicode.h"
#include "parse/audio.h"
#include "parse/language.h"

namespace kebab::parse::internal {
namespace {

using nlohmann::json;

constexpr char kAgent[] = "kebab-audio";
constexpr char kCacheKind[] = "transcript";
// Tags worth keeping (FFmpeg's names); an encoder's name or a handler's is not.
constexpr const char* kKeptTags[] = {"title", "artist", "album",   "album_artist",
                                     "date",  "genre",  "comment", "language"};

}  // namespace

std::string Transcript::ToJson() const {
  json segs = json::array();
  for (const Segment& s : segments) segs.push_back({s.start_ms, s.end_ms, s.text});
  return json{{"info", info},           {"segments", segs},   {"complete", complete},
              {"resume_ms", resume_ms}, {"done_ms", done_ms}, {"resumed_from_ms", resumed_from_ms},
              {"language", language}}
      .dump();
}

std::optional<Transcript> Transcript::FromJson(const std::string& text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("segments") || !j["segments"].is_array()) return std::nullopt;
  Transcript t;
  t.info = j.value("info", json::object());
  t.complete = j.value("complete", false);
  t.resume_ms = j.value("resume_ms", int64_t{0});
  t.done_ms = j.value("done_ms", int64_t{0});
  t.resumed_from_ms = j.value("resumed_from_ms", int64_t{0});
  t.language = j.value("language", "");
  for (const json& s : j["segments"]) {
    if (!s.is_array() || s.size() != 3 || !s[0].is_number_unsigned() ||
        !s[1].is_number_unsigned() || !s[2].is_string()) {
      return std::nullopt;
    }
    t.segments.push_back({s[0].get<uint64_t>(), s[1].get<uint64_t>(), s[2].get<std::string>()});
  }
  return t;
}

namespace {

std::string FileName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string Stem(const std::string& name) {
  const size_t dot = name.rfind('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

// "1:02:03" or "2:03" for a length in milliseconds.
std::string Clock(int64_t ms) {
  return FormatLength((ms + 500) / 1000);
}

Status WorkerFailure(const Transcriber& t, const std::string& code, const std::string& message) {
  if (code == "model") {
    return Status(ErrorCode::kIoError, message,
                  t.settings().engine == SpeechEngine::kWhisper
                      ? t.settings().whisper_model_hint
                      : "apt-get install pocketsphinx-en-us, or set "
                        "ingest.audio.pocketsphinx_model");
  }
  return InvalidInput(message.empty() ? "not a recording kebab can read" : message);
}

// The worker's info line (`--probe`), which sizes the time budget of the transcription.
Result<json> Probe(const Transcriber& t, std::string_view bytes) {
  json info, error;
  KEBAB_ASSIGN_OR_RETURN(SubprocessResult run,
                         RunSubprocess({t.worker_path(), "--probe"}, bytes,
                                       std::chrono::seconds(30), [&](std::string_view line) {
                                         json j =
                                             json::parse(line, nullptr, /*allow_exceptions=*/false);
                                         if (!j.is_object()) return true;
                                         const std::string kind = j.value("kind", "");
                                         if (kind == "info") info = std::move(j);
                                         if (kind == "error") error = std::move(j);
                                         return true;
                                       }));
  if (error.is_object()) {
    return WorkerFailure(t, error.value("code", ""), error.value("message", ""));
  }
  if (!info.is_object()) {
    return Status(ErrorCode::kIoError,
                  "the audio worker stopped without reading the file" +
                      (run.stderr_tail.empty() ? std::string() : ": " + run.stderr_tail),
                  kAudioWorkerHint);
  }
  return info;
}

}  // namespace

std::string AudioExtractor::VersionFor(const ExtractServices& services) const {
  std::string v = kAudioParserVersion;
  if (services.transcriber != nullptr) v += "+asr(" + services.transcriber->Signature() + ")";
  return v;
}

Result<CanonicalDocument> AudioExtractor::Extract(const ExtractInput& input) const {
  Transcript transcript;
  std::vector<std::string> warnings;
  bool from_cache = false;
  if (input.transcriber == nullptr) {
    // Transcription is off: the recording is found by its name alone.
    transcript.complete = true;
    transcript.info = json::object();
  } else {
    KEBAB_RETURN_IF_ERROR(Transcribe(input, &transcript, &from_cache, &warnings));
  }
  return Document(input, transcript, from_cache, std::move(warnings));
}

Status AudioExtractor::Transcribe(const ExtractInput& input, Transcript* out, bool* from_cache,
                                  std::vector<std::string>* warnings) const {
  const Transcriber& transcriber = *input.transcriber;
  DerivationCache* cache = transcriber.cache();
  const std::string key = Blake3Hex(std::string(kCacheKind) + '\0' + Blake3Hex(input.bytes) + '\0' +
                                    transcriber.Signature())
                              .substr(0, 32);
  Transcript& transcript = *out;
  if (cache != nullptr) {
    if (std::optional<std::string> hit = cache->Get(key)) {
      if (auto t = Transcript::FromJson(*hit)) {  // a damaged entry is transcribed again
        transcript = std::move(*t);
        *from_cache = transcript.complete;
      }
    }
  }
  if (!transcript.complete) {
    if (transcript.info.is_null() || !transcript.info.is_object()) {
      KEBAB_ASSIGN_OR_RETURN(transcript.info, Probe(transcriber, input.bytes));
    }
    const TranscriptionSettings& settings = transcriber.settings();
    const int64_t duration_ms = transcript.info.value("duration_ms", int64_t{0});
    // A container that does not say its length is sized by its bytes at 8 kbit/s, the
    // lowest rate speech is stored at.
    const double audio_seconds =
        duration_ms > 0 ? duration_ms / 1000.0 : static_cast<double>(input.bytes.size()) / 1000;
    const auto budget = std::chrono::seconds(static_cast<int64_t>(
        settings.base_seconds + settings.seconds_per_audio_second * audio_seconds));
    std::vector<std::string> argv = {transcriber.worker_path()};
    for (std::string& arg : transcriber.WorkerArgs()) argv.push_back(std::move(arg));
    transcript.resumed_from_ms = transcript.resume_ms;
    if (transcript.resume_ms > 0) {
      argv.push_back("--from-ms");
      argv.push_back(std::to_string(transcript.resume_ms));
      // A resumed transcript drops what the last run sent after its resume point: the worker
      // sends those utterances again.
      std::erase_if(transcript.segments, [&](const Segment& s) {
        return static_cast<int64_t>(s.start_ms) >= transcript.resume_ms;
      });
    }
    json error;
    bool ended = false, cancelled = false;
    KEBAB_ASSIGN_OR_RETURN(
        SubprocessResult run, RunSubprocess(argv, input.bytes, budget, [&](std::string_view line) {
          if (input.cancel != nullptr && input.cancel->load()) {
            cancelled = true;
            return false;
          }
          json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
          if (!j.is_object()) return true;
          const std::string kind = j.value("kind", "");
          if (kind == "segment") {
            transcript.segments.push_back({j.value("start_ms", uint64_t{0}),
                                           j.value("end_ms", uint64_t{0}),
                                           Nfc(j.value("text", std::string()))});
          } else if (kind == "language") {
            transcript.language = j.value("language", "");
          } else if (kind == "progress") {
            transcript.done_ms = j.value("done_ms", int64_t{0});
            transcript.resume_ms = std::max(transcript.resume_ms, j.value("resume_ms", int64_t{0}));
            if (input.on_progress && duration_ms > 0) {
              input.on_progress(static_cast<int>(transcript.done_ms / 1000),
                                static_cast<int>(duration_ms / 1000));
            }
          } else if (kind == "end") {
            transcript.done_ms = j.value("done_ms", int64_t{0});
            ended = true;
          } else if (kind == "error") {
            error = std::move(j);
          }
          return true;
        }));
    if (cancelled || (input.cancel != nullptr && input.cancel->load())) {
      // What was finished stays: the next ingest goes on from resume_ms.
      if (cache != nullptr) cache->Put(key, kCacheKind, transcript.ToJson());
      const std::string at = Clock(transcript.resume_ms);
      return Status(ErrorCode::kCancelled,
                    "transcription interrupted at " + at + "; the next ingest goes on from there");
    }
    const std::string code = error.is_object() ? error.value("code", "") : "";
    if (ended) {
      transcript.complete = true;
    } else if (code == "damaged" && transcript.done_ms > 0) {
      // A recording that breaks off is indexed up to there, and is what it is: cached whole.
      warnings->push_back("the recording breaks off at " + Clock(transcript.done_ms) + " (" +
                          error.value("message", "") + "); what came before is indexed");
      transcript.complete = true;
    } else if (error.is_object()) {
      return WorkerFailure(transcriber, code, error.value("message", ""));
    } else if (run.timed_out) {
      // Kept like an interruption's: the next ingest goes on from where this one stopped.
      if (cache != nullptr) cache->Put(key, kCacheKind, transcript.ToJson());
      return Status(ErrorCode::kTimeout,
                    "transcription took longer than its budget of " +
                        std::to_string(budget.count()) + " s (stopped at " +
                        Clock(transcript.done_ms) + ")",
                    "the machine may be busy: ingest again to go on");
    } else {
      return Status(ErrorCode::kIoError,
                    "the audio worker ended without finishing (" +
                        (run.signal != 0 ? "signal " + std::to_string(run.signal)
                                         : "exit " + std::to_string(run.exit_code)) +
                        (run.stderr_tail.empty() ? "" : ": " + run.stderr_tail) + ")",
                    kAudioWorkerHint);
    }
    if (cache != nullptr) cache->Put(key, kCacheKind, transcript.ToJson());
  }
  return Status::OK();
}

CanonicalDocument AudioExtractor::Document(const ExtractInput& input, const Transcript& transcript,
                                           bool from_cache,
                                           std::vector<std::string> warnings) const {
  CanonicalDocument doc;
  doc.asset_id = input.asset_id;
  doc.workspace_path = input.workspace_path;
  doc.parser_version = VersionFor({.transcriber = input.transcriber});
  doc.doc_id = DocId(input.workspace_path, input.asset_id, kAudioParserVersion);
  doc.warnings = std::move(warnings);

  const json& info = transcript.info;
  const json tags = info.value("tags", json::object());
  const int64_t length_ms = std::max(info.value("duration_ms", int64_t{0}), transcript.done_ms);
  json kept = json::object();
  for (const char* tag : kKeptTags) {
    // "und" is a container's way of saying it does not know the language.
    if (tags.contains(tag) && tags[tag].is_string() && tags[tag] != "und") {
      kept[tag] = Nfc(tags[tag].get<std::string>());
    }
  }
  const std::string name = FileName(input.workspace_path);

  Block description;
  description.kind = BlockKind::kAudioRef;
  description.src = name;
  description.span.kind = SourceSpan::Kind::kTime;
  description.span.start = 0;
  description.span.end = static_cast<uint64_t>(length_ms);
  description.text = name;
  for (const char* tag : {"title", "artist", "album", "date"}) {
    if (kept.contains(tag)) description.text += " — " + kept[tag].get<std::string>();
  }
  description.text += " — recording, " + Clock(length_ms);
  // Stored as the block's alt text (an audio_ref keeps no other text), as an image's is.
  description.alt = description.text;
  doc.blocks.push_back(std::move(description));

  std::string sample;
  for (const Segment& s : transcript.segments) {
    Block b;
    b.kind = BlockKind::kParagraph;
    b.span.kind = SourceSpan::Kind::kTime;
    b.span.start = s.start_ms;
    b.span.end = std::max(s.end_ms, s.start_ms);
    b.text = s.text;
    sample += s.text;
    sample += '\n';
    doc.blocks.push_back(std::move(b));
  }
  for (size_t i = 0; i < doc.blocks.size(); ++i) {
    Block& b = doc.blocks[i];
    b.ordinal = static_cast<int>(i);
    b.block_id = BlockId(doc.doc_id, BlockKindName(b.kind), b.heading_path, b.ordinal, b.span);
  }
  if (transcript.segments.empty() && input.transcriber != nullptr) {
    doc.warnings.push_back("no speech found in " + Clock(length_ms) +
                           " of audio; only its name and tags are indexed");
  }

  doc.title = kept.contains("title") ? kept["title"].get<std::string>() : Nfc(Stem(name));
  doc.lang = sample.empty() ? "und" : DetectLanguage(sample);
  Metadata& metadata = doc.metadata;
  metadata.created_at = input.discovered_at.empty() ? NowRfc3339() : input.discovered_at;
  metadata.updated_at = metadata.created_at;
  metadata.source_type = SourceType::kNote;
  json audio = {{"duration_ms", length_ms},
                {"container", info.value("container", "")},
                {"codec", info.value("codec", "")},
                {"sample_rate", info.value("sample_rate", 0)},
                {"channels", info.value("channels", 0)}};
  if (!kept.empty()) audio["tags"] = std::move(kept);
  metadata.user["audio"] = std::move(audio);
  if (input.transcriber != nullptr) {
    metadata.user["transcript"] = {{"engine", input.transcriber->EngineLabel()},
                                   {"model", input.transcriber->ModelLabel()},
                                   {"signature", input.transcriber->Signature()},
                                   {"segments", transcript.segments.size()},
                                   {"cached", from_cache}};
    // The language whisper heard (the last stretch of speech's, when they differ).
    if (!transcript.language.empty()) {
      metadata.user["transcript"]["language"] = transcript.language;
    }
    // A transcript finished after an interruption says where the last run took it up.
    if (transcript.resumed_from_ms > 0) {
      metadata.user["transcript"]["resumed_from_ms"] = transcript.resumed_from_ms;
    }
  }
  doc.provenance.push_back(
      {NowRfc3339(), kAgent, "transcribed",
       doc.parser_version + ", " + std::to_string(transcript.segments.size()) + " segments"});
  return doc;
}

}  // namespace kebab::parse::internal
