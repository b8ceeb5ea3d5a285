// kebab models list | pull | path | rm | gc.
#include <sys/ioctl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <cstdio>

#include "app/models.h"
#include "app/wire.h"
#include "cli/common.h"
#include "core/time.h"

namespace kebab::cli {
namespace {

using app::HumanBytes;

constexpr char kListHelp[] =
    "Examples:\n"
    "  kebab models list                 what kebab can download, and what is on disk\n"
    "  kebab models list --json          model_list.v1 (every catalog entry, sizes, URLs)\n"
    "A * marks the model models.embedding uses; files in the model directory the catalog\n"
    "does not know are listed after it (*.gguf, then *.bin as speech models). Speech models\n"
    "(whisper-base, whisper-small, whisper-large-v3-turbo) are whisper.cpp files for\n"
    "transcribing recordings: [ingest.audio] whisper_model = \"whisper-base\".";
constexpr char kPullHelp[] =
    "Downloads NAME.gguf (NAME.bin for a speech model) into the model directory\n"
    "({data_dir}/models), resuming an earlier interrupted pull, and checks its SHA-256 (pinned\n"
    "in the catalog, else the one the hub reports), and a speech model's pinned SHA-1, before\n"
    "it is moved into place. Ctrl-C keeps what arrived for the next run. HF_ENDPOINT=URL pulls\n"
    "from a Hugging Face mirror. With --url, a name the catalog does not know is a GGUF file\n"
    "unless --kind speech makes it a whisper.cpp model (NAME.bin).\n\n"
    "Examples:\n"
    "  kebab models pull multilingual-e5-small\n"
    "  kebab models pull whisper-base       speech to text, for recordings\n"
    "  kebab models pull my-embedder --url https://example.org/my-embedder-q8_0.gguf \\\n"
    "      --sha256 0123...cdef          any GGUF, under a name of your choice\n"
    "  kebab models pull my-whisper --kind speech \\\n"
    "      --url https://example.org/ggml-medium.bin   any whisper.cpp model\n"
    "Then use it: [models.embedding] provider = \"llama\", model = \"multilingual-e5-small\"\n"
    "or [ingest.audio] whisper_model = \"whisper-base\"";
constexpr char kPathHelp[] =
    "Prints the absolute path of a downloaded model (exit 2, model_not_pulled, if it is not).\n\n"
    "Examples:\n"
    "  kebab models path bge-m3\n"
    "  llama-server -m \"$(kebab models path qwen2.5-1.5b-instruct)\"";
constexpr char kRmHelp[] =
    "Deletes NAME.gguf, or NAME.bin for a speech model (and an interrupted .part of it), from\n"
    "the model directory. The vectors made with it stay in the index until `kebab models gc`.\n\n"
    "Examples:\n"
    "  kebab models rm multilingual-e5-large\n"
    "  kebab models rm bge-m3 --yes       without asking";
constexpr char kGcHelp[] =
    "Deletes from the index the embedding spaces (and their vectors) of every model other\n"
    "than the one models.embedding names now. Switching models keeps the old vectors, so\n"
    "switching back costs nothing; gc is for when you will not.\n\n"
    "Examples:\n"
    "  kebab models gc --dry-run          what would go\n"
    "  kebab models gc --yes";

std::atomic<bool> g_cancel{false};

void OnSigint(int) {
  // The first Ctrl-C stops the download cleanly (the .part is kept); a second quits at once.
  if (g_cancel.exchange(true)) _exit(kExitInterrupted);
}

// One redrawn stderr line while a pull runs: bar, percent, bytes, rate, ETA.
class DownloadBar {
 public:
  DownloadBar(bool enabled, std::string name) : enabled_(enabled), name_(std::move(name)) {}

  void Update(const models::DownloadProgress& p) {
    const int64_t now = MonotonicMillis();
    if (!enabled_ || (now - last_draw_ms_ < 100 && p.bytes_done != p.bytes_total)) return;
    last_draw_ms_ = now;
    std::string line;
    if (p.bytes_total > 0) {
      constexpr int kWidth = 20;
      const int filled = static_cast<int>(kWidth * p.bytes_done / p.bytes_total);
      std::string bar(static_cast<size_t>(filled), '=');
      if (filled < kWidth) bar += '>';
      bar.resize(kWidth, ' ');
      char pct[16];
      std::snprintf(pct, sizeof pct, "%3d%%", static_cast<int>(100 * p.bytes_done / p.bytes_total));
      line =
          "[" + bar + "] " + pct + " " + HumanBytes(p.bytes_done) + "/" + HumanBytes(p.bytes_total);
    } else {
      line = HumanBytes(p.bytes_done);
    }
    if (p.bytes_per_sec > 0) {
      line += " " + HumanBytes(static_cast<int64_t>(p.bytes_per_sec)) + "/s";
      if (p.bytes_total > p.bytes_done) {
        const int64_t eta = static_cast<int64_t>((p.bytes_total - p.bytes_done) / p.bytes_per_sec);
        line += " ETA " + (eta >= 60 ? std::to_string(eta / 60) + "m" : "") +
                std::to_string(eta % 60) + "s";
      }
    }
    // The name goes last, so a narrow terminal cuts it rather than the numbers.
    struct winsize ws {};
    const size_t width =
        ::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20 ? ws.ws_col : 80;
    line += "  " + name_;
    if (line.size() >= width) line.resize(width - 1);
    std::fprintf(stderr, "\r\033[2K%s", line.c_str());
    std::fflush(stderr);
    drawn_ = true;
  }

  void Finish() {
    if (!drawn_) return;
    std::fprintf(stderr, "\r\033[2K");
    std::fflush(stderr);
  }

 private:
  bool enabled_;
  std::string name_;
  int64_t last_draw_ms_ = 0;
  bool drawn_ = false;
};

std::string Padded(const std::string& s, size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

// The heading `kebab models list` groups an entry under.
std::string SectionTitle(const models::ModelEntry& e) {
  if (e.catalog == nullptr) {
    return e.kind == models::ModelKind::kSpeech
               ? "other speech model files (.bin) in the model directory"
               : "other GGUF files in the model directory";
  }
  return std::string(models::ModelKindName(e.catalog->kind)) + " models";
}

int RunList(const Output& out, const Globals& g) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  const models::ModelListing l = app::ListModels(session, g.env);
  if (out.json) {
    out.Json(app::wire::ModelList(l, session.config()));
    return kExitOk;
  }
  out.Line("model directory  " + l.model_dir);
  out.Line("hub              " + l.hub);
  std::string section;
  for (const models::ModelEntry& e : l.models) {
    const std::string kind = SectionTitle(e);
    if (kind != section) {
      out.Line("");
      out.Line(out.Bold(kind));
      section = kind;
    }
    // Padded before colouring, so escape codes do not skew the columns.
    const std::string status =
        Padded(e.present             ? "downloaded " + HumanBytes(e.bytes)
               : e.partial_bytes > 0 ? "partial " + HumanBytes(e.partial_bytes)
                                     : "-",
               20);
    std::string line = (e.in_use ? "* " : "  ") + Padded(e.name, 24);
    if (e.catalog != nullptr) {
      const models::CatalogModel& m = *e.catalog;
      line += Padded(m.dimensions > 0 ? std::to_string(m.dimensions) + "d" : "", 7) +
              Padded("~" + HumanBytes(m.approx_bytes), 10);
    }
    line += e.present ? out.Green(status) : out.Dim(status);
    if (e.catalog != nullptr) line += std::string(e.catalog->summary);
    out.Line(line);
  }
  out.Line("");
  if (!l.embedding_path.empty() && !l.embedding_path.starts_with(l.model_dir + "/")) {
    out.Line("models.embedding.model  " + l.embedding_path +
             (l.embedding_present ? "" : "  " + out.Red("(missing)")));
  }
  out.Line(
      out.Dim("* = models.embedding.model. Download: `kebab models pull NAME`; use: "
              "models.embedding.model = \"NAME\" (speech: ingest.audio.whisper_model)"));
  return kExitOk;
}

int RunPull(const Output& out, const Globals& g, const ModelsArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  DownloadBar bar(!out.quiet && out.stderr_tty, args.name);
  int64_t last_event_ms = 0;
  models::PullOptions options;
  options.name = args.name;
  options.url = args.url;
  options.sha256 = args.sha256;
  if (!args.kind.empty()) options.kind = models::ParseModelKind(args.kind);
  options.force = args.force;
  options.cancel = &g_cancel;
  options.on_start = [&](const std::string& url, const std::string& path, int64_t resume_from) {
    if (out.json) {
      out.Json(app::wire::ModelPullProgress(
          "started", args.name, {.bytes_done = resume_from, .resumed_from = resume_from}, url,
          path));
      std::fflush(stdout);
    } else {
      out.Note("pulling " + args.name + " from " + url +
               (resume_from > 0 ? " (resuming at " + HumanBytes(resume_from) + ")" : ""));
    }
  };
  options.on_progress = [&](const models::DownloadProgress& p) {
    if (!out.json) {
      bar.Update(p);
      return;
    }
    const int64_t now = MonotonicMillis();
    if (now - last_event_ms < 500 && p.bytes_done != p.bytes_total) return;
    last_event_ms = now;
    out.Json(app::wire::ModelPullProgress("progress", args.name, p));
    std::fflush(stdout);
  };
  g_cancel = false;
  std::signal(SIGINT, OnSigint);
  auto report = app::PullModel(session, g.env, options);
  std::signal(SIGINT, SIG_DFL);
  bar.Finish();
  if (!report.ok()) return out.Fail(report.status());
  if (out.json) {
    out.Json(app::wire::ModelPullReport(*report));
    return kExitOk;
  }
  if (report->already_present) {
    out.Line(args.name + " is already downloaded: " + report->path + " (" +
             HumanBytes(report->bytes) + ")");
    out.Note("hint: --force downloads it again");
  } else {
    const models::DownloadResult& d = report->download;
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.1f s", d.elapsed_ms / 1000.0);
    out.Line("pulled " + args.name + " -> " + report->path + " (" + HumanBytes(d.bytes) + " in " +
             secs + (d.resumed_from > 0 ? ", resumed at " + HumanBytes(d.resumed_from) : "") + ")");
    switch (d.verified_against) {
      case models::Verification::kPinned:
        out.Line("sha256 " + d.sha256 + " (matches the catalog's pin)");
        break;
      case models::Verification::kServer:
        out.Line("sha256 " + d.sha256 + " (matches what the server reported)");
        break;
      case models::Verification::kNone:
        if (!d.sha1.empty()) break;  // the SHA-1 pin vouches for it
        out.Line("sha256 " + d.sha256 + " " + out.Red("(not verified: the server reported none)"));
        out.Note("hint: pass --sha256 HEX to check a download against a known hash");
        break;
    }
    if (!d.sha1.empty()) out.Line("sha1 " + d.sha1 + " (matches the catalog's pin)");
  }
  if (report->kind == models::ModelKind::kSpeech) {
    out.Note("hint: use it to transcribe recordings with [ingest.audio] whisper_model = \"" +
             args.name + "\"");
  } else if (!report->kind.has_value() || report->kind == models::ModelKind::kEmbedding) {
    out.Note("hint: use it for search with [models.embedding] provider = \"llama\", model = \"" +
             args.name + "\"");
  }
  return kExitOk;
}

int RunPath(const Output& out, const Globals& g, const ModelsArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  auto found = app::ModelPath(session, g.env, args.name);
  if (!found.ok()) return out.Fail(found.status());
  if (out.json) {
    out.Json(app::wire::ModelInfo(found->model, found->hub));
  } else {
    out.Line(found->model.path);
  }
  return kExitOk;
}

int RunRm(const Output& out, const Globals& g, const ModelsArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  // Before the confirmation: a removal that would be refused asks nothing.
  if (auto st = session.CheckWritable("models rm"); !st.ok()) return out.Fail(st);
  if (!args.yes) {
    const models::ModelListing l = app::ListModels(session, g.env);
    std::string question = "Remove " + args.name + "?";
    for (const models::ModelEntry& e : l.models) {
      if (e.name != args.name) continue;
      question = "Remove " + e.path + " (" + HumanBytes(e.bytes + e.partial_bytes) + ")" +
                 (e.in_use ? ", the model models.embedding uses" : "") + "?";
      break;  // the GGUF before a .bin of the same name, as RemoveModel picks
    }
    auto ok = Confirm(out, false, "removing a model", question);
    if (!ok.ok()) return out.Fail(ok.status());
    if (!*ok) {
      out.Note("nothing removed");
      return kExitNoResult;
    }
  }
  auto report = app::RemoveModel(session, args.name);
  if (!report.ok()) return out.Fail(report.status());
  if (out.json) {
    out.Json(app::wire::ModelRemoveReport(*report));
    return kExitOk;
  }
  for (const std::string& p : report->removed_paths) out.Line("removed  " + p);
  out.Line("freed    " + HumanBytes(report->freed_bytes));
  if (report->was_in_use) {
    out.Note("note: models.embedding.model still names " + args.name +
             "; vector search fails until you pull it again or configure another model");
  }
  return kExitOk;
}

std::string SpaceLine(const store::StoredSpace& s) {
  return s.key.provider + ":" + s.key.model + "@" + s.key.version + " (" +
         std::to_string(s.key.dimensions) + " dims, " + std::to_string(s.vector_count) +
         " vectors)";
}

int RunGc(const Output& out, const Globals& g, const ModelsArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  // Before the plan and the confirmation: a gc that would be refused asks nothing.
  if (!args.dry_run) {
    if (auto st = session.CheckWritable("models gc"); !st.ok()) return out.Fail(st);
  }
  auto plan = app::GcSpaces(session, /*dry_run=*/true);
  if (!plan.ok()) return out.Fail(plan.status());
  Result<app::GcReport> report = *plan;
  if (!args.dry_run && !plan->removed.empty()) {
    std::string question = "Delete from the index:";
    for (const auto& s : plan->removed) question += "\n  " + SpaceLine(s);
    question += "\nContinue?";
    auto ok = Confirm(out, args.yes, "deleting embedding spaces", question);
    if (!ok.ok()) return out.Fail(ok.status());
    if (!*ok) {
      out.Note("nothing removed");
      return kExitNoResult;
    }
    report = app::GcSpaces(session, /*dry_run=*/false);
    if (!report.ok()) return out.Fail(report.status());
  }
  report->dry_run = args.dry_run;
  if (out.json) {
    out.Json(app::wire::ModelsGcReport(*report));
    return kExitOk;
  }
  const std::string verb = args.dry_run ? "would remove  " : "removed  ";
  for (const auto& s : report->removed) out.Line(verb + SpaceLine(s));
  for (const auto& s : report->kept) out.Line("kept     " + SpaceLine(s));
  if (report->removed.empty()) {
    out.Line("nothing to remove: every stored space belongs to the configured model");
  } else {
    out.Line((args.dry_run ? "would remove " : "removed ") +
             std::to_string(report->removed.size()) +
             (report->removed.size() == 1 ? " space, " : " spaces, ") +
             std::to_string(report->vectors_removed) + " vectors");
  }
  return kExitOk;
}

}  // namespace

void AddModelsCommand(CLI::App& app, ModelsArgs* args) {
  auto* models = app.add_subcommand(
      "models",
      "List, download (with resume and checksum) and remove models: GGUF for embedding and chat, "
      "whisper.cpp for speech");
  models->require_subcommand(1);
  const auto action = [args](const char* name) { return [args, name] { args->action = name; }; };

  auto* list = models->add_subcommand("list", "The known models and the ones downloaded");
  list->footer(kListHelp);
  list->callback(action("list"));

  auto* pull = models->add_subcommand("pull", "Download a model into the model directory");
  pull->add_option("name", args->name, "Catalog name (see `kebab models list`) or your own")
      ->required();
  pull->add_option("--url", args->url, "Download from this URL instead of the catalog's");
  pull->add_option("--sha256", args->sha256, "Expected SHA-256 of the file (64 hex digits)");
  pull->add_option("--kind", args->kind,
                   "With --url, what a name the catalog does not know is: speech saves a "
                   "whisper.cpp model as NAME.bin; embedding or chat (the default) a GGUF")
      ->check(CLI::IsMember({"embedding", "chat", "speech"}));
  pull->add_flag("--force", args->force, "Download again even if the file exists");
  pull->footer(kPullHelp);
  pull->callback(action("pull"));

  auto* path = models->add_subcommand("path", "Print where a downloaded model is");
  path->add_option("name", args->name, "Model name")->required();
  path->footer(kPathHelp);
  path->callback(action("path"));

  auto* rm = models->add_subcommand("rm", "Delete a downloaded model");
  rm->add_option("name", args->name, "Model name")->required();
  rm->add_flag("-y,--yes", args->yes, "Do not ask for confirmation");
  rm->footer(kRmHelp);
  rm->callback(action("rm"));

  auto* gc = models->add_subcommand(
      "gc", "Delete the stored vectors of models other than the configured one");
  gc->add_flag("-y,--yes", args->yes, "Do not ask for confirmation");
  gc->add_flag("--dry-run", args->dry_run, "Only report what would be deleted");
  gc->footer(kGcHelp);
  gc->callback(action("gc"));
}

int RunModels(const Output& out, const Globals& g, const ModelsArgs& args) {
  if (args.action == "list") return RunList(out, g);
  if (args.action == "pull") return RunPull(out, g, args);
  if (args.action == "path") return RunPath(out, g, args);
  if (args.action == "rm") return RunRm(out, g, args);
  if (args.action == "gc") return RunGc(out, g, args);
  return kExitError;
}

}  // namespace kebab::cli
