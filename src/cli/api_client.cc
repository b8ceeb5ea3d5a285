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

Result<bool> ApiClient::ViaService(std::string_view op, const nlohmann::json& args,
                                   const app::api::CallContext& context, nlohmann::json* out) {
  service_pid_ = 0;
  if (!use_service_) return false;
  KEBAB_ASSIGN_OR_RETURN(std::optional<service::Reply> reply,
                         service::Call(endpoint_, op, args, service::ConfigFingerprint(config_),
                                       {.on_event = context.on_event, .cancel = context.cancel}));
  if (!reply) return false;
  if (reply->config_mismatch) {
    out_.Note("note: the running `kebab serve` (pid " + std::to_string(reply->pid) +
              ") was started with another configuration; this command runs on its own "
              "(restart the service to serve this configuration)");
    return false;
  }
  service_pid_ = reply->pid;
  if (!reply->result.ok()) return AsFlags(reply->result.status());
  *out = *std::move(reply->result);
  return true;
}

app::Session& ApiClient::LocalSession() {
  if (session_ == nullptr) {
    session_ = std::make_unique<app::Session>(config_, app::SessionOptions{.readonly = readonly_});
  }
  return *session_;
}

Result<nlohmann::json> ApiClient::Call(std::string_view op, const nlohmann::json& args,
                                       const app::api::CallContext& context) {
  // The service is not read-only for this command's --readonly: refused here, as in-process.
  const app::api::Operation* operation = app::api::FindOperation(op);
  if (readonly_ && operation != nullptr && operation->writes) return app::ReadonlyRefusal(op);
  nlohmann::json reply;
  KEBAB_ASSIGN_OR_RETURN(const bool served, ViaService(op, args, context, &reply));
  if (served) return reply;
  Result<nlohmann::json> result = app::api::Call(LocalSession(), op, args, context);
  if (!result.ok()) return AsFlags(result.status());
  return result;
}

Result<bool> ApiClient::CallOr(std::string_view op, const nlohmann::json& args,
                               const app::api::CallContext& context,
                               const std::function<void(app::Session&)>& local,
                               nlohmann::json* reply) {
  const app::api::Operation* operation = app::api::FindOperation(op);
  if (readonly_ && operation != nullptr && operation->writes) return app::ReadonlyRefusal(op);
  KEBAB_ASSIGN_OR_RETURN(const bool served, ViaService(op, args, context, reply));
  if (!served) local(LocalSession());
  return served;
}

std::string ApiClient::served_by() const {
  return service_pid_ != 0 ? "kebab serve (pid " + std::to_string(service_pid_) + ")"
                           : "this process";
}

}  // namespace kebab::cli
