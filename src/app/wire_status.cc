// status.v1: what `kebab status` says of the service (app/admin.h's StatusReport).
#include "app/wire.h"

namespace kebab::app::wire {

json StatusReport(const app::StatusReport& r) {
  const ServiceStatus& s = r.service;
  json service = {{"running", s.running}};
  if (s.running) {
    json loaded = json::array();
    if (s.loaded.embedding_model) loaded.push_back("embedding_model");
    if (s.loaded.language_model) loaded.push_back("language_model");
    if (s.loaded.vector_index) loaded.push_back("vector_index");
    const WatchStatus& w = s.watch;
    json watch = {
        {"state", WatchStateName(w.state)},
        {"notifications", w.notifications},
        {"root", w.root},
        {"directories", w.directories},
        {"updates", w.updates},
        {"last_update_at", w.last_update_at.empty() ? json(nullptr) : json(w.last_update_at)},
        {"warnings", w.warnings}};
    if (w.updates > 0) {
      const IngestCounts& c = w.last_counts;
      watch["last_update"] = {{"new", c.new_docs},        {"updated", c.updated},
                              {"unchanged", c.unchanged}, {"purged", c.purged},
                              {"errors", c.errors},       {"chunks_indexed", c.chunks_indexed}};
    }
    service["watch"] = std::move(watch);
    service.update({{"pid", s.pid},
                    {"started_at", s.started_at},
                    {"uptime_s", s.uptime_s},
                    {"socket", s.socket},
                    {"requests", s.requests},
                    {"in_flight", s.in_flight},
                    {"rss_bytes", s.rss_bytes},
                    {"loaded", std::move(loaded)}});
  }
  return {{"schema_version", "status.v1"},
          {"data_dir", r.data_dir},
          {"config_path", r.config_path},
          {"service", std::move(service)}};
}

}  // namespace kebab::app::wire

namespace kebab::app {

std::string_view WatchStateName(WatchStatus::State state) {
  switch (state) {
    case WatchStatus::State::kOff:
      return "off";
    case WatchStatus::State::kStarting:
      return "starting";
    case WatchStatus::State::kWatching:
      return "watching";
    case WatchStatus::State::kUpdating:
      return "updating";
    case WatchStatus::State::kPaused:
      return "paused";
  }
  return "off";
}

}  // namespace kebab::app
