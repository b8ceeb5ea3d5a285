// What the HTTP embedding providers (ollama, openai) share: one JSON POST over libcurl whose
// transport failures map to kebab's error codes, and HttpEmbedder, which turns a provider's
// wire protocol into an Embedder (prefixes, dimension probe, reply checks, normalization).
// Not thread-safe: one embedder per thread.
#pragma once

#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "embed/embedder.h"
#include "embed/prefixes.h"

namespace kebab::embed {

struct HttpResponse {
  long status = 0;  // HTTP status code
  std::string body;
};

// POSTs `json_body` to `url` with Content-Type: application/json plus `headers` ("Name: value").
// Any HTTP status, 4xx and 5xx included, is a response for the caller to judge. Errors: a refused
// connection or an unknown host is model_unreachable (the message names the URL); no complete
// answer within `timeout_secs` is timeout; a malformed URL is config_invalid; a system without
// libcurl.so.4 is generic.
Result<HttpResponse> PostJson(const std::string& url, const std::string& json_body,
                              const std::vector<std::string>& headers, int timeout_secs);

// The error text in a server's error reply: Ollama's {"error": "..."}, OpenAI's
// {"error": {"message": "..."}}, else the start of the body.
std::string ServerErrorText(std::string_view body);

// `endpoint` + `path` with exactly one "/" between them.
std::string JoinUrl(std::string_view endpoint, std::string_view path);

struct HttpEmbedderOptions {
  std::string endpoint;  // e.g. http://127.0.0.1:11434
  std::string model;     // the server's model name
  std::string version = "v1";
  int timeout_secs = 60;  // per request
  // Unset = the model family's default (embed/prefixes.h).
  std::optional<std::string> query_prefix, document_prefix;
  std::string api_key;  // openai: sent as "Authorization: Bearer" when not empty
};

// An Embedder over one HTTP request per Embed call; subclasses supply the request. Vectors are
// checked (one per text, all of the probed dimensions) and L2-normalized here, so the server's
// own normalization does not matter. The server truncates long inputs, so Embed never counts
// them in *truncated.
class HttpEmbedder : public Embedder {
 public:
  const SpaceInfo& space() const override { return space_; }
  Result<std::vector<Vector>> Embed(const std::vector<std::string>& texts, Purpose purpose,
                                    int* truncated = nullptr) override;
  const Prefixes& prefixes() const { return prefixes_; }

 protected:
  HttpEmbedder(std::string provider, HttpEmbedderOptions options);
  // Embeds a probe text to learn the dimensions, so space() is complete before the first
  // Embed; subclasses' Open calls it. Its errors are the server's (unreachable, not pulled...).
  Status Probe();
  // The server's raw vectors for `texts`, in order: an HTTP or protocol failure is an error,
  // but counts and dimensions are checked by the caller.
  virtual Result<std::vector<Vector>> Request(const std::vector<std::string>& texts) = 0;

  const HttpEmbedderOptions& options() const { return options_; }

 private:
  HttpEmbedderOptions options_;
  SpaceInfo space_;
  Prefixes prefixes_;
};

// `value` as a vector when it is a non-empty JSON array of numbers, else nullopt.
std::optional<Vector> JsonToVector(const nlohmann::json& value);

}  // namespace kebab::embed
