// How a command runs an operation of app/api.h: through `kebab serve` when one runs for the
// config's data dir, else in this process, with the same wire object either way (the command
// renders that object). KEBAB_NO_SERVICE=1 or --no-service run everything in this process.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "app/api.h"
#include "app/session.h"
#include "cli/commands.h"
#include "service/service.h"

namespace kebab::cli {

class ApiClient {
 public:
  ApiClient(const Output& out, const Globals& g, config::Config config);
  ~ApiClient();

  // `context` carries the operation's progress out (its events, whichever runs it) and a
  // cancel flag in (passed on to the service when one runs it).
  Result<nlohmann::json> Call(std::string_view op, const nlohmann::json& args,
                              const app::api::CallContext& context = {});

  // As Call, but with no service to answer runs `local` on this process's session instead of
  // the operation: for a command whose in-process path keeps its typed objects (ingest's tens
  // of thousands of events need no JSON on the way). True with `*reply` set when the service
  // answered, false when `local` ran.
  Result<bool> CallOr(std::string_view op, const nlohmann::json& args,
                      const app::api::CallContext& context,
                      const std::function<void(app::Session&)>& local, nlohmann::json* reply);

  // Who answered the last call: "kebab serve (pid N)" or "this process".
  std::string served_by() const;
  bool by_service() const { return service_pid_ != 0; }
  const config::Config& config() const { return config_; }

 private:
  const Output& out_;
  const config::Config config_;
  const bool readonly_;
  const bool use_service_;
  const service::Endpoint endpoint_;
  // True with `*reply` set when the service answered; false when none runs (or it runs
  // another configuration).
  Result<bool> ViaService(std::string_view op, const nlohmann::json& args,
                          const app::api::CallContext& context, nlohmann::json* reply);
  app::Session& LocalSession();

  long service_pid_ = 0;
  std::unique_ptr<app::Session> session_;  // made on the first call run here
};

}  // namespace kebab::cli
