// init, ingest, ingest-file, ingest-stdin.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <iterator>

#include "app/admin.h"
#include "app/ingest.h"
#include "app/wire.h"
#include "cli/api_client.h"
#include "cli/common.h"
#include "cli/progress.h"

namespace kebab::cli {
namespace {

std::atomic<bool> g_cancel{false};
std::atomic<bool> g_quiet_signal{false};  // --json / --quiet: no human note on stderr

void OnSigint(int) {
  if (g_cancel.exchange(true)) _exit(kExitInterrupted);
  if (g_quiet_signal.load()) return;
  static const char kMsg[] =
      "\nstopping after the documents in hand… (Ctrl-C again to quit at once)\n";
  ssize_t ignored = ::write(STDERR_FILENO, kMsg, sizeof kMsg - 1);
  (void)ignored;
}

void PrintReport(const Output& out, const app::IngestReport& r) {
  if (out.json) {
    out.Json(app::wire::IngestReport(r));
    return;
  }
  const auto& c = r.counts;
  char timing[96];
  const double secs = r.duration_ms / 1000.0;
  std::snprintf(timing, sizeof timing, "%.2f s, %.0f files/s", secs,
                secs > 0 ? (c.scanned - c.skipped) / secs : 0.0);
  out.Line((r.aborted ? out.Red("aborted") + "  " : std::string()) + "scanned " +
           std::to_string(c.scanned) + "  new " + std::to_string(c.new_docs) + "  updated " +
           std::to_string(c.updated) + "  unchanged " + std::to_string(c.unchanged) + "  skipped " +
           std::to_string(c.skipped) + "  errors " + std::to_string(c.errors) + "  purged " +
           std::to_string(c.purged) + "  chunks " + std::to_string(c.chunks_indexed) +
           (c.embeddings_indexed > 0 ? "  embedded " + std::to_string(c.embeddings_indexed)
                                     : std::string()) +
           "  (" + timing + ")");
  for (const auto& [reason, n] : r.skipped_by_reason) {
    std::string line = "  skipped " + reason + ": " + std::to_string(n);
    auto ex = r.skip_examples.find(reason);
    if (ex != r.skip_examples.end() && !ex->second.empty()) {
      line += "  e.g. ";
      for (size_t i = 0; i < ex->second.size(); ++i) line += (i ? ", " : "") + ex->second[i];
    }
    if (reason == "unsupported" && !r.skipped_by_extension.empty()) {
      line += "  by extension:";
      for (const auto& [ext, k] : r.skipped_by_extension)
        line += " " + ext + "=" + std::to_string(k);
    }
    out.Line(line);
  }
  for (const auto& w : r.warnings) out.Line("  warning: " + w);
  if (r.items) {
    for (const auto& item : *r.items) {
      if (item.kind == "error")
        out.Line("  " + out.Red("error") + " " + item.doc_path + ": " + item.error);
      for (const auto& w : item.warnings) out.Line("  warning " + item.doc_path + ": " + w);
    }
  }
  if (r.aborted)
    out.Note("interrupted: everything indexed so far is kept; run `kebab ingest` to finish");
}

int Finish(const Output& out, const Result<app::IngestReport>& report) {
  if (!report.ok()) return out.Fail(report.status());
  PrintReport(out, *report);
  return report->aborted ? kExitInterrupted : kExitOk;
}

}  // namespace

int RunInit(const Output& out, const Globals& g, bool force) {
  std::string path = g.config_path.empty() ? config::DefaultConfigPath(g.env) : g.config_path;
  auto report = app::Init(path, force, g.env, {.readonly = g.readonly});
  if (!report.ok()) return out.Fail(report.status());
  if (out.json) {
    out.Json(app::wire::InitReport(*report));
    return kExitOk;
  }
  for (const auto& l : report->lines) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%-9s ", l.verb.c_str());
    out.Line(std::string(buf) + l.path + (l.note.empty() ? "" : "  (" + l.note + ")"));
  }
  out.Line("hint      edit " + report->config_path + " then `kebab ingest " +
           report->workspace_root + "`");
  return kExitOk;
}

// Through the ingest operation (app/api.h): run by `kebab serve` when one runs for this config,
// its progress streamed here, else in this process; rendered the same either way.
int RunIngest(const Output& out, const Globals& g, const IngestArgs& args) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  nlohmann::json a = nlohmann::json::object();
  if (!args.path.empty()) {
    // Absolute: the service's working directory is not this command's.
    std::error_code ec;
    auto abs = std::filesystem::weakly_canonical(std::filesystem::absolute(args.path, ec), ec);
    a["path"] = abs.string();
  }
  if (args.force_reingest) a["force_reingest"] = true;
  if (args.summary_only) a["summary_only"] = true;
  if (args.purge) a["purge"] = true;
  ProgressBar bar(!out.quiet && out.stderr_tty);
  JsonProgress json_progress(stdout);
  const app::IngestEventSink sink = [&](const app::IngestEvent& e) {
    if (out.json) {
      json_progress.OnEvent(e);
    } else {
      bar.OnEvent(e);
    }
  };
  app::api::CallContext context;
  context.cancel = &g_cancel;
  context.on_event = [&](const nlohmann::json& j) {
    if (Result<app::IngestEvent> e = app::wire::ParseIngestProgress(j); e.ok()) sink(*e);
  };
  g_quiet_signal = out.quiet;
  std::signal(SIGINT, OnSigint);
  ApiClient api(out, g, *std::move(config));
  // In this process the ingest's own events and report, as they are: a cold ingest of tens of
  // thousands of files would otherwise make and read as many JSON objects.
  Result<app::IngestReport> report = Status(ErrorCode::kGeneric, "no ingest ran");
  nlohmann::json reply;
  Result<bool> served = api.CallOr(
      "ingest", a, context,
      [&](app::Session& session) {
        report = app::Ingest(session, app::api::IngestOptionsOf(a), sink, &g_cancel);
      },
      &reply);
  std::signal(SIGINT, SIG_DFL);
  json_progress.Flush();
  bar.Finish();
  if (!served.ok()) return out.Fail(served.status());
  if (*served) report = app::wire::ParseIngestReport(reply);
  return Finish(out, report);
}

int RunIngestFile(const Output& out, const Globals& g, const std::string& path) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  return Finish(out, app::IngestFile(session, path));
}

int RunIngestStdin(const Output& out, const Globals& g, const std::string& title) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  std::string body((std::istreambuf_iterator<char>(std::cin)), {});
  return Finish(out, app::IngestText(session, title, body));
}

}  // namespace kebab::cli
