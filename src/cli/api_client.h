// How a command runs an operation of app/api.h: through `kebab serve` when one runs for the
// config's data dir, else in this process, with the same wire object either way (the command
// renders that object). KEBAB_NO_SERVICE=1 or --no-service run everything in this process.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "app/session.h"
#include "cli/commands.h"
#include "service/service.h"

namespace kebab::cli {

class ApiClient {
 public:
  ApiClient(const Output& out, const Globals& g, config::Config config);
  ~ApiClient();

  Result<nlohmann::json> Call(std::string_view op, const nlohmann::json& args);

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
  long service_pid_ = 0;
  std::unique_ptr<app::Session> session_;  // made on the first call run here
};

}  // namespace kebab::cli
