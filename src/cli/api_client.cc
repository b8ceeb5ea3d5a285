#include "cli/api_client.h"

#include "app/api.h"

namespace kebab::cli {
namespace {

// An operation names a bad argument as the API calls it ("argument 'max_tokens' must be at least
// 1"); a person typed the flag: "--max-tokens must be at least 1".
Status AsFlags(Status status) {
  static constexpr std::string_view kPrefix = "argument '";
  const std::string& m = status.message();
  if (status.code() != ErrorCode::kInvalidInput || m.rfind(kPrefix, 0) != 0) return status;
  const size_t end = m.find('\'', kPrefix.size());
  if (end == std::string::npos) return status;
  std::string flag = "--" + m.substr(kPrefix.size(), end - kPrefix.size());
  for (char& c : flag) c = c == '_' ? '-' : c;
  return Status(status.code(), flag + m.substr(end + 1), status.hint());
}

bool ServiceAllowed(const Globals& g) {
  if (g.no_service) return false;
  auto it = g.env.find("KEBAB_NO_SERVICE");
  return it == g.env.end() || it->second.empty() || it->second == "0";
}

}  // namespace

ApiClient::ApiClient(const Output& out, const Globals& g, config::Config config)
    : out_(out),
      config_(std::move(config)),
      readonly_(g.readonly),
      use_service_(ServiceAllowed(g)),
      endpoint_(service::EndpointFor(config_, g.env)) {}

ApiClient::~ApiClient() = default;

Result<nlohmann::json> ApiClient::Call(std::string_view op, const nlohmann::json& args) {
  service_pid_ = 0;
  if (use_service_) {
    KEBAB_ASSIGN_OR_RETURN(std::optional<service::Reply> reply,
                           service::Call(endpoint_, op, args, service::ConfigFingerprint(config_)));
    if (reply && !reply->config_mismatch) {
      service_pid_ = reply->pid;
      if (!reply->result.ok()) return AsFlags(reply->result.status());
      return std::move(reply->result);
    }
    if (reply) {
      out_.Note("note: the running `kebab serve` (pid " + std::to_string(reply->pid) +
                ") was started with another configuration; this command runs on its own "
                "(restart the service to serve this configuration)");
    }
  }
  if (session_ == nullptr) {
    session_ = std::make_unique<app::Session>(config_, app::SessionOptions{.readonly = readonly_});
  }
  Result<nlohmann::json> result = app::api::Call(*session_, op, args);
  if (!result.ok()) return AsFlags(result.status());
  return result;
}

std::string ApiClient::served_by() const {
  return service_pid_ != 0 ? "kebab serve (pid " + std::to_string(service_pid_) + ")"
                           : "this process";
}

}  // namespace kebab::cli
