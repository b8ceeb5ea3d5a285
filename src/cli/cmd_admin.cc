// doctor, schema, reset.

#include <cstdio>

#include "app/admin.h"
#include "app/wire.h"
#include "cli/common.h"

namespace kebab::cli {

int RunDoctor(const Output& out, const Globals& g) {
  auto config = LoadConfigFor(g);
  std::string path = g.config_path.empty() ? config::DefaultConfigPath(g.env) : g.config_path;
  std::unique_ptr<app::Session> session;
  if (config.ok())
    session = std::make_unique<app::Session>(*config, app::SessionOptions{g.readonly});
  app::DoctorReport report = app::Doctor(session.get(), config.status(), path);
  if (out.json) {
    out.Json(app::wire::Doctor(report));
  } else {
    int failed = 0;
    for (const auto& c : report.checks) {
      char name[32];
      std::snprintf(name, sizeof name, "%-18s", c.name.c_str());
      out.Line((c.ok ? out.Green("✓") : out.Red("✗")) + " " + name + " " + c.detail);
      if (!c.hint.empty()) out.Line("  hint: " + c.hint);
      failed += !c.ok;
    }
    out.Line(failed == 0
                 ? "all checks passed."
                 : std::to_string(failed) + (failed == 1 ? " check" : " checks") + " failed.");
  }
  return report.ok ? kExitOk : kExitUnhealthy;
}

int RunSchema(const Output& out, const Globals& g) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  auto info = app::Schema(session);
  if (!info.ok()) return out.Fail(info.status());
  if (out.json) {
    out.Json(app::wire::Schema(*info));
    return kExitOk;
  }
  out.Line(out.Bold("kebab " + std::string(app::kKebabVersion)));
  std::string schemas;
  for (const auto& s : info->wire_schemas) schemas += (schemas.empty() ? "" : " ") + s;
  out.Line("wire        " + schemas);
  std::string caps;
  for (const auto& [k, v] : info->capabilities)
    caps += (caps.empty() ? "" : " ") + (v ? k : "-" + k);
  out.Line("capability  " + caps);
  out.Line("parser      " + info->parser_version);
  out.Line("chunker     " + info->chunker_version);
  out.Line("index       " + info->index_version + " (revision " +
           std::to_string(info->corpus_revision) + ")");
  if (!info->indexed) {
    out.Line("stats       no index yet (run `kebab ingest`)");
    return kExitOk;
  }
  const auto& s = info->stats;
  out.Line("stats       " + std::to_string(s.doc_count) + " docs, " +
           std::to_string(s.chunk_count) + " chunks, " + std::to_string(s.asset_count) +
           " assets, " + std::to_string(s.sqlite_bytes / 1024) + " KiB");
  std::string langs;
  for (const auto& [l, n] : s.lang_breakdown)
    langs += (langs.empty() ? "" : ", ") + l + " " + std::to_string(n);
  if (!langs.empty()) out.Line("languages   " + langs);
  if (s.last_ingest_at) out.Line("last ingest " + *s.last_ingest_at);
  return kExitOk;
}

int RunReset(const Output& out, const Globals& g, const std::string& scope_name, bool yes) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  app::Session session(*std::move(config), {.readonly = g.readonly});
  // Before the confirmation: a reset that would be refused asks nothing.
  if (auto st = session.CheckWritable("reset"); !st.ok()) return out.Fail(st);
  app::ResetScope scope = scope_name == "all"           ? app::ResetScope::kAll
                          : scope_name == "config-only" ? app::ResetScope::kConfigOnly
                          : scope_name == "vector-only" ? app::ResetScope::kVectorOnly
                                                        : app::ResetScope::kDataOnly;
  std::string question = "This removes:\n";
  for (const auto& p : app::ResetTargets(session, scope)) question += "  " + p + "\n";
  question += "Your notes under " + session.config().workspace.root + " are not touched. Continue?";
  auto confirmed = Confirm(out, yes, "reset", question);
  if (!confirmed.ok()) return out.Fail(confirmed.status());
  if (!*confirmed) {
    out.Note("nothing removed");
    return kExitNoResult;
  }
  auto report = app::Reset(session, scope);
  if (!report.ok()) return out.Fail(report.status());
  if (out.json) {
    out.Json(app::wire::ResetReport(*report));
  } else {
    for (const auto& p : report->removed_paths) out.Line("removed  " + p);
    if (scope == app::ResetScope::kVectorOnly) {
      out.Line("removed  " + std::to_string(report->vectors_removed) + " vectors");
    } else if (report->removed_paths.empty()) {
      out.Line("nothing to remove");
    }
    for (const auto& p : report->kept_paths) out.Line("kept     " + p);
  }
  return kExitOk;
}

}  // namespace kebab::cli
