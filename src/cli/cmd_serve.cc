// serve: the knowledge base as a service (src/service) in the foreground; status: whether one
// runs for this config's data dir.
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>

#include "app/admin.h"
#include "app/wire.h"
#include "cli/common.h"
#include "core/files.h"
#include "core/time.h"
#include "service/service.h"

namespace kebab::cli {
namespace {

// Set by SIGINT / SIGTERM while the service runs (a signal handler can only reach a lock-free
// atomic at namespace scope).
std::atomic<bool> g_stop_serve{false};

void OnStopSignal(int) {
  g_stop_serve = true;
}

// Lines to stderr and, stamped, to {state_dir}/serve.log; from any thread.
class ServeLog {
 public:
  explicit ServeLog(const std::string& state_dir) : path_(state_dir + "/serve.log") {
    std::error_code ec;
    std::filesystem::create_directories(state_dir, ec);
    file_.open(path_, std::ios::app);
  }
  void Write(const std::string& line) {
    std::lock_guard lock(mu_);
    std::cerr << "kebab serve: " << line << std::endl;
    if (file_) file_ << NowRfc3339() << " " << line << std::endl;
  }
  const std::string& path() const { return path_; }

 private:
  std::mutex mu_;
  const std::string path_;
  std::ofstream file_;
};

std::string Duration(double seconds) {
  const long s = static_cast<long>(seconds);
  if (s < 60) return std::to_string(s) + "s";
  if (s < 3600) return std::to_string(s / 60) + "m " + std::to_string(s % 60) + "s";
  return std::to_string(s / 3600) + "h " + std::to_string(s % 3600 / 60) + "m";
}

void PrintStatus(const Output& out, const nlohmann::json& status) {
  const nlohmann::json& s = status["service"];
  if (!s.value("running", false)) {
    out.Line("kebab serve: not running for " + status.value("data_dir", std::string()));
    out.Note("  start it with `kebab serve` (commands run on their own meanwhile)");
    return;
  }
  out.Line(out.Bold("kebab serve: running") + " (pid " + std::to_string(s.value("pid", 0L)) +
           ", up " + Duration(s.value("uptime_s", 0.0)) + ", since " +
           s.value("started_at", std::string()) + ")");
  out.Line("data      " + status.value("data_dir", std::string()));
  out.Line("socket    " + s.value("socket", std::string()));
  out.Line("calls     " + std::to_string(s.value("requests", 0)) + " answered, " +
           std::to_string(s.value("in_flight", 0)) + " running");
  char rss[32];
  std::snprintf(rss, sizeof rss, "%.1f MiB", s.value("rss_bytes", 0.0) / (1024.0 * 1024.0));
  out.Line("memory    " + std::string(rss) + " resident");
  std::string loaded;
  for (const auto& what : s["loaded"]) {
    std::string name = what.get<std::string>();
    for (char& c : name) c = c == '_' ? ' ' : c;
    loaded += (loaded.empty() ? "" : ", ") + name;
  }
  out.Line("loaded    " +
           (loaded.empty() ? std::string("nothing yet (loaded on first use)") : loaded));
  const nlohmann::json& w = s.value("watch", nlohmann::json::object());
  const std::string state = w.value("state", std::string("off"));
  std::string watch = state;
  if (state != "off") {
    watch += " " + w.value("root", std::string());
    if (w.value("notifications", false)) {
      watch += " (" + std::to_string(w.value("directories", 0)) + " folders)";
    } else if (state != "paused") {
      watch += " (by periodic scans)";
    }
  }
  out.Line("watch     " + watch);
  if (w.value("updates", 0) > 0) {
    const nlohmann::json& c = w["last_update"];
    out.Line("updated   " + w.value("last_update_at", std::string()) + ": " +
             std::to_string(c.value("new", 0)) + " new, " + std::to_string(c.value("updated", 0)) +
             " updated, " + std::to_string(c.value("purged", 0)) + " purged, " +
             std::to_string(c.value("errors", 0)) + " errors (" +
             std::to_string(w.value("updates", 0)) + " updates since start)");
  }
  for (const auto& warning : w.value("warnings", nlohmann::json::array())) {
    out.Line("warning   " + warning.get<std::string>());
  }
}

}  // namespace

int RunServe(const Output& out, const Globals& g, bool watch) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  const service::Endpoint endpoint = service::EndpointFor(*config, g.env);
  ServeLog log(config->storage.state_dir);
  app::Session session(*std::move(config), {.readonly = g.readonly, .long_lived = true});
  service::ServeOptions options;
  options.watch = watch;
  options.log = [&log](const std::string& line) { log.Write(line); };
  options.on_listening = [&log] {
    log.Write("ready; `kebab` commands with this config now go through it (Ctrl-C stops; log " +
              log.path() + ")");
  };
  g_stop_serve = false;
  std::signal(SIGINT, OnStopSignal);
  std::signal(SIGTERM, OnStopSignal);
  const Status served = service::Serve(session, endpoint, options, g_stop_serve);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (!served.ok()) return out.Fail(served);
  return kExitOk;
}

int RunInstallUnit(const Output& out, const Globals& g, bool watch) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  std::error_code ec;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec) return out.Fail(IoError("cannot tell where this kebab is: " + ec.message()));
  auto home = g.env.find("HOME");
  auto xdg = g.env.find("XDG_CONFIG_HOME");
  const std::string dir = (xdg != g.env.end() && !xdg->second.empty() ? xdg->second
                           : home != g.env.end()                      ? home->second + "/.config"
                                                                      : std::string(".config")) +
                          "/systemd/user";
  const std::string path = dir + "/kebab.service";
  // The config by its absolute path: the unit runs without this shell's directory or
  // environment.
  std::string exec = self;
  if (!g.config_path.empty()) {
    exec += " --config " + std::filesystem::absolute(g.config_path, ec).string();
  }
  exec += watch ? " serve" : " serve --no-watch";
  const std::string unit =
      "# Written by `kebab serve --install-unit`: the knowledge base kept current and warm.\n"
      "[Unit]\nDescription=kebab knowledge base service (" +
      config->storage.data_dir + ")\n\n[Service]\nExecStart=" + exec +
      "\nRestart=on-failure\n\n[Install]\n"
      "WantedBy=default.target\n";
  std::filesystem::create_directories(dir, ec);
  if (Status written = WriteFileAtomically(path, unit); !written.ok()) return out.Fail(written);
  out.Line("wrote " + path);
  out.Line(
      "start it now and at every login: systemctl --user daemon-reload && systemctl "
      "--user enable --now kebab");
  return kExitOk;
}

int RunStatus(const Output& out, const Globals& g) {
  auto config = LoadConfigFor(g);
  if (!config.ok()) return out.Fail(config.status());
  const service::Endpoint endpoint = service::EndpointFor(*config, g.env);
  auto reply = service::Call(endpoint, "status", nlohmann::json::object(),
                             service::ConfigFingerprint(*config));
  nlohmann::json status;
  if (reply.ok() && *reply && (*reply)->result.ok()) {
    status = *std::move((*reply)->result);
  } else {
    app::StatusReport report;
    report.data_dir = config->storage.data_dir;
    report.config_path = config->config_path;
    status = app::wire::StatusReport(report);
    if (auto running = service::FindRunning(endpoint)) {
      out.Note("note: pid " + std::to_string(running->pid) +
               " holds the service lock but does not answer on " + endpoint.socket);
    }
  }
  if (out.json) {
    out.Json(status);
  } else {
    PrintStatus(out, status);
  }
  return kExitOk;
}

}  // namespace kebab::cli
