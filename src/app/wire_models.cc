// model_info.v1, model_list.v1, model_pull_progress.v1, model_pull_report.v1,
// model_rm_report.v1 and models_gc_report.v1: what `kebab models` prints with --json.
#include "app/wire.h"
#include "core/time.h"

namespace kebab::app::wire {
namespace {

json NullIfEmpty(const std::string& s) {
  return s.empty() ? json(nullptr) : json(s);
}

json Space(const store::StoredSpace& s) {
  return {{"space_id", s.space_id},         {"provider", s.key.provider},
          {"model", s.key.model},           {"version", s.key.version},
          {"dimensions", s.key.dimensions}, {"document_prefix", s.key.document_prefix},
          {"vectors", s.vector_count}};
}

std::string_view VerificationName(models::Verification v) {
  switch (v) {
    case models::Verification::kPinned:
      return "pinned";
    case models::Verification::kServer:
      return "server";
    case models::Verification::kNone:
      break;
  }
  return "none";
}

}  // namespace

json ModelInfo(const models::ModelEntry& e, const std::string& hub) {
  json catalog = nullptr;
  if (e.catalog != nullptr) {
    const models::CatalogModel& m = *e.catalog;
    catalog = {{"repo", m.repo},
               {"file", m.file},
               {"url", models::DownloadUrl(m, hub)},
               {"approx_bytes", m.approx_bytes},
               {"sha256", NullIfEmpty(std::string(m.sha256))},
               {"sha1", NullIfEmpty(std::string(m.sha1))},
               {"license", m.license},
               {"dimensions", m.dimensions > 0 ? json(m.dimensions) : json(nullptr)},
               {"context_tokens", m.context_tokens},
               {"summary", m.summary}};
  }
  return {{"schema_version", "model_info.v1"},
          {"name", e.name},
          {"source", e.catalog != nullptr ? "catalog" : "local"},
          {"kind", e.kind.has_value() ? json(models::ModelKindName(*e.kind)) : json(nullptr)},
          {"path", e.path},
          {"present", e.present},
          {"bytes", e.present ? json(e.bytes) : json(nullptr)},
          {"partial_bytes", e.partial_bytes},
          {"in_use", e.in_use},
          {"catalog", catalog}};
}

json ModelList(const models::ModelListing& l, const config::Config& config) {
  json entries = json::array();
  for (const models::ModelEntry& e : l.models) entries.push_back(ModelInfo(e, l.hub));
  json embedding = nullptr;
  const config::EmbeddingConfig& ec = config.embedding;
  if (ec.provider != "none" && !ec.model.empty()) {
    embedding = {{"provider", ec.provider},
                 {"model", ec.model},
                 {"path", NullIfEmpty(l.embedding_path)},
                 {"present", l.embedding_path.empty() ? json(nullptr) : json(l.embedding_present)}};
  }
  return {{"schema_version", "model_list.v1"},
          {"model_dir", l.model_dir},
          {"hub", l.hub},
          {"embedding", embedding},
          {"models", entries}};
}

json ModelPullProgress(std::string_view kind, const std::string& name,
                       const models::DownloadProgress& p, const std::string& url,
                       const std::string& path) {
  json j = {{"schema_version", "model_pull_progress.v1"},
            {"kind", kind},
            {"ts", NowRfc3339()},
            {"name", name},
            {"bytes_done", p.bytes_done},
            {"bytes_total", p.bytes_total >= 0 ? json(p.bytes_total) : json(nullptr)},
            {"resumed_from", p.resumed_from},
            {"bytes_per_sec", p.bytes_per_sec}};
  if (!url.empty()) j["url"] = url;
  if (!path.empty()) j["path"] = path;
  return j;
}

json ModelPullReport(const models::PullReport& r) {
  const models::DownloadResult& d = r.download;
  return {{"schema_version", "model_pull_report.v1"},
          {"name", r.name},
          {"url", r.url},
          {"path", r.path},
          {"already_present", r.already_present},
          {"bytes", r.bytes},
          {"transferred", d.transferred},
          {"resumed_from", d.resumed_from},
          {"sha256", NullIfEmpty(d.sha256)},
          {"verified_against", r.already_present ? "none" : VerificationName(d.verified_against)},
          {"sha1", NullIfEmpty(d.sha1)},
          {"seconds", d.elapsed_ms / 1000.0}};
}

json ModelRemoveReport(const models::RemoveReport& r) {
  return {{"schema_version", "model_rm_report.v1"},
          {"name", r.name},
          {"removed_paths", r.removed_paths},
          {"freed_bytes", r.freed_bytes},
          {"was_in_use", r.was_in_use}};
}

json ModelsGcReport(const GcReport& r) {
  json kept = json::array(), removed = json::array();
  for (const auto& s : r.kept) kept.push_back(Space(s));
  for (const auto& s : r.removed) removed.push_back(Space(s));
  return {{"schema_version", "models_gc_report.v1"},
          {"dry_run", r.dry_run},
          {"kept", kept},
          {"removed", removed},
          {"spaces_removed", r.removed.size()},
          {"vectors_removed", r.vectors_removed}};
}

}  // namespace kebab::app::wire
