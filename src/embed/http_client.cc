#include "embed/http_client.h"

#include <nlohmann/json.hpp>
#include <utility>

#include "core/libcurl.h"

namespace kebab::embed {
namespace {

size_t AppendBody(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

Status TransportError(CURLcode code, const std::string& url, const char* detail, int timeout_secs) {
  std::string why = *detail != '\0' ? detail : LoadCurl().easy_strerror(code);
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      return Status(ErrorCode::kTimeout,
                    "no answer from " + url + " within " + std::to_string(timeout_secs) + " s",
                    "raise models.embedding.request_timeout_secs, or check that the server is "
                    "not overloaded");
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
      return ConfigInvalid("bad embedding endpoint URL " + url + ": " + why,
                           "set models.embedding.endpoint to e.g. http://127.0.0.1:11434");
    default:
      // Refused, unknown host, reset, empty reply...: the server is not there to answer.
      return Status(ErrorCode::kModelUnreachable, "cannot reach " + url + ": " + why,
                    "start the embedding server, or fix models.embedding.endpoint");
  }
}

}  // namespace

Result<HttpResponse> PostJson(const std::string& url, const std::string& json_body,
                              const std::vector<std::string>& headers, int timeout_secs) {
  const CurlApi& api = LoadCurl();
  if (!api.load_error.empty()) {
    return GenericError("the HTTP embedding providers need libcurl: " + api.load_error,
                        "install it: apt install libcurl4");
  }
  CurlHandle curl(api.easy_init());
  if (!curl) return GenericError("libcurl could not create a handle");
  CurlHeaders list;
  // "Expect:" stops curl from waiting for a 100-continue on large batches.
  for (const std::string& h : {std::string("Content-Type: application/json"),
                               std::string("Accept: application/json"), std::string("Expect:")}) {
    list.reset(api.slist_append(list.release(), h.c_str()));
  }
  for (const std::string& h : headers) list.reset(api.slist_append(list.release(), h.c_str()));

  HttpResponse response;
  char error[CURL_ERROR_SIZE] = {};
  CURL* c = curl.get();
  api.easy_setopt(c, CURLOPT_URL, url.c_str());
  api.easy_setopt(c, CURLOPT_HTTPHEADER, list.get());
  api.easy_setopt(c, CURLOPT_POST, 1L);
  api.easy_setopt(c, CURLOPT_POSTFIELDS, json_body.data());
  api.easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(json_body.size()));
  api.easy_setopt(c, CURLOPT_WRITEFUNCTION, AppendBody);
  api.easy_setopt(c, CURLOPT_WRITEDATA, &response.body);
  api.easy_setopt(c, CURLOPT_ERRORBUFFER, error);
  api.easy_setopt(c, CURLOPT_TIMEOUT, static_cast<long>(timeout_secs));
  // Without this, libcurl's DNS timeout uses SIGALRM, which is unsafe in a threaded process.
  api.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  const CURLcode rc = api.easy_perform(c);
  if (rc != CURLE_OK) return TransportError(rc, url, error, timeout_secs);
  api.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &response.status);
  return response;
}

std::string ServerErrorText(std::string_view body) {
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_object() && j.contains("error")) {
    const nlohmann::json& e = j["error"];
    if (e.is_string()) return e.get<std::string>();
    if (e.is_object() && e.contains("message") && e["message"].is_string()) {
      return e["message"].get<std::string>();
    }
  }
  constexpr size_t kMax = 200;
  std::string text(body.substr(0, kMax));
  if (body.size() > kMax) text += "...";
  return text.empty() ? "(empty reply)" : text;
}

std::string JoinUrl(std::string_view endpoint, std::string_view path) {
  while (endpoint.ends_with('/')) endpoint.remove_suffix(1);
  while (path.starts_with('/')) path.remove_prefix(1);
  return std::string(endpoint) + "/" + std::string(path);
}

std::optional<Vector> JsonToVector(const nlohmann::json& value) {
  if (!value.is_array() || value.empty()) return std::nullopt;
  Vector v;
  v.reserve(value.size());
  for (const nlohmann::json& x : value) {
    if (!x.is_number()) return std::nullopt;
    v.push_back(x.get<float>());
  }
  return v;
}

HttpEmbedder::HttpEmbedder(std::string provider, HttpEmbedderOptions options)
    : options_(std::move(options)) {
  space_.provider = std::move(provider);
  space_.model = options_.model;
  space_.version = options_.version;
  const Prefixes family = DefaultPrefixes(options_.model);
  prefixes_.query = options_.query_prefix.value_or(family.query);
  prefixes_.document = options_.document_prefix.value_or(family.document);
  space_.document_prefix = prefixes_.document;
}

Status HttpEmbedder::Probe() {
  KEBAB_ASSIGN_OR_RETURN(auto vectors, Embed({"dimension probe"}, Purpose::kDocument));
  (void)vectors;  // Embed recorded the dimensions
  return Status::OK();
}

Result<std::vector<Vector>> HttpEmbedder::Embed(const std::vector<std::string>& texts,
                                                Purpose purpose, int* /*truncated*/) {
  if (texts.empty()) return std::vector<Vector>{};
  const std::string& prefix = purpose == Purpose::kQuery ? prefixes_.query : prefixes_.document;
  std::vector<std::string> inputs;
  inputs.reserve(texts.size());
  for (const std::string& text : texts) inputs.push_back(prefix + text);

  KEBAB_ASSIGN_OR_RETURN(std::vector<Vector> vectors, Request(inputs));
  const std::string who = space_.provider + " model \"" + options_.model + "\"";
  if (vectors.size() != texts.size()) {
    return GenericError(who + " returned " + std::to_string(vectors.size()) + " vectors for " +
                        std::to_string(texts.size()) + " texts");
  }
  // The first reply fixes the space's dimensions; a later change means a different model
  // answered, and its vectors must not mix with the stored ones.
  if (space_.dimensions == 0) space_.dimensions = static_cast<int>(vectors.front().size());
  for (Vector& v : vectors) {
    if (static_cast<int>(v.size()) != space_.dimensions) {
      return GenericError(who + " returned a " + std::to_string(v.size()) +
                          "-dimensional vector; expected " + std::to_string(space_.dimensions));
    }
    L2Normalize(v);
  }
  return vectors;
}

}  // namespace kebab::embed
