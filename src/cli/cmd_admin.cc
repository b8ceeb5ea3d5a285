// doctor, schema, reset.

#include <cstdio>

#include "app/admin.h"
#include "app/wire.h"
#include "cli/api_client.h"
#include "cli/common.h"

namespace kebab::cli {

namespace {

void PrintDoctor(const Output& out, const nlohmann::json& report) {
  int failed = 0;
  for (const auto& c : report["checks"]) {
    char name[32];
    std::snprintf(name, sizeof name, "%-18s", c.value("name", std::string()).c_str());
    const bool ok = c.value("ok", false);
    out.Line((ok ? out.Green("✓") : out.Red("✗")) + " " + name + " " +
             c.value("detail", std::string()));
    if (c["hint"].is_string()) out.Line("  hint: " + c["hint"].get<std::string>());
    failed += !ok;
  }
  out.Line(failed == 0
               ? "all checks passed."
               : std::to_string(failed) + (failed == 1 ? " check" : " checks") + " failed.");
}

void PrintSchema(const Output& out, const nlohmann::json& info) {
  out.Line(out.Bold("kebab " + info.value("kebab_version", std::string())));
  std::string schemas;
  for (const auto& s : info["wire"]["schemas"]) {
    schemas += (schemas.empty() ? "" : " ") + s.get<std::string>();
  }
  out.Line("wire        " + schemas);
  std::string caps;
  for (const auto& [k, v] : info["capabilities"].items()) {
    caps += (caps.empty() ? "" : " ") + (v.get<bool>() ? k : "-" + k);
  }
  out.Line("capability  " + caps);
  const nlohmann::json& m = info["models"];
  out.Line("parser      " + m.value("parser_version", std::string()));
  out.Line("chunker     " + m.value("chunker_version", std::string()));
  out.Line("index       " + m.value("index_version", std::string()) + " (revision " +
           std::to_string(m.value("corpus_revision", 0L)) + ")");
  const nlohmann::json& s = info["stats"];
  if (s["last_ingest_at"].is_null() && s.value("doc_count", 0L) == 0) {
    out.Line("stats       no index yet (run `kebab ingest`)");
    return;
  }
  out.Line("stats       " + std::to_string(s.value("doc_count", 0L)) + " docs, " +
           std::to_string(s.value("chunk_count", 0L)) + " chunks, " +
           std::to_string(s.value("asset_count", 0L)) + " assets, " +
           std::to_string(s["index_bytes"].value("sqlite", 0L) / 1024) + " KiB");
  std::string langs;
  for (const auto& [l, n] : s["lang_breakdown"].items()) {
    langs += (langs.empty() ? "" : ", ") + l + " " + std::to_string(n.get<long>());
  }
  if (!langs.empty()) out.Line("languages   " + langs);
  if (s["last_ingest_at"].is_string()) {
    out.Line("last ingest " + s["last_ingest_at"].get<std::string>());
  }
}

}  // namespace

int RunDoctor(const Output& out, const Globals& g) {
  auto config = LoadConfigFor(g);
  std::string path = g.config_path.empty() ? config::DefaultConfigPath(g.env) : g.config_path;
  nlohmann::json report;
  if (config.ok()) {
    ApiClient api(out, g, *std::move(config));
    auto checked = api.Call("doctor", nlohmann::json::object());
    if (!checked.ok()) return out.Fail(checked.status());
    report = *std::move(checked);
  } else {
    // No config to find a service by: the checks say what is wrong with it.
    report = app::wire::Doctor(app::Doctor(nullptr, config.status(), path));
  }
  if (out.json) {
    out.Json(report);
  } else {
    PrintDoctor(out, report);
  }
  return report.value("ok", false) ? kExitOk : kExitUnhealthy;
}

int RunSchema(const Output& out, const Globals& g) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  ApiClient api(out, g, *std::move(config));
  auto info = api.Call("schema", nlohmann::json::object());
  if (!info.ok()) return out.Fail(info.status());
  if (out.json) {
    out.Json(*info);
  } else {
    PrintSchema(out, *info);
  }
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
