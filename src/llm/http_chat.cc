#include "llm/http_chat.h"

#include <nlohmann/json.hpp>
#include <utility>

namespace kebab::llm {

HttpChat::HttpChat(std::string provider, HttpChatOptions options, std::string chat_url,
                   std::string server)
    : options_(std::move(options)), chat_url_(std::move(chat_url)), server_(std::move(server)) {
  ref_.id = options_.model;
  ref_.provider = std::move(provider);
}

HttpOptions HttpChat::http_options() const {
  return {.config_section = options_.config_section,
          .server = server_,
          .timeout_secs = options_.timeout_secs};
}

std::vector<std::string> HttpChat::headers() const {
  if (options_.api_key.empty()) return {};
  return {"Authorization: Bearer " + options_.api_key};
}

ChatHealth HttpChat::ListModels(const std::string& url, const char* list_key,
                                const char* name_key) const {
  ChatHealth health;
  Result<HttpResponse> response = GetJson(url, headers(), http_options());
  if (!response.ok()) {
    health.detail = response.status().message();
    health.fix = response.status().hint();
    return health;
  }
  if (response->status != 200) {
    const Status error = HttpError(response->status, response->body);
    health.detail = error.message();
    health.fix = error.hint();
    return health;
  }
  const nlohmann::json list = nlohmann::json::parse(response->body, nullptr, false);
  if (!list.is_object() || !list.contains(list_key) || !list[list_key].is_array()) {
    health.detail = url + " sent no \"" + list_key + "\" list: " + ServerErrorText(response->body);
    health.fix = "check that " + options_.config_section + ".endpoint is the chat server's URL";
    return health;
  }
  health.reachable = true;
  for (const nlohmann::json& item : list[list_key]) {
    if (item.is_object() && item.contains(name_key) && item[name_key].is_string()) {
      health.models.push_back(item[name_key].get<std::string>());
    }
  }
  return health;
}

Result<Generation> HttpChat::Generate(const GenerateRequest& request, const PieceSink& on_piece) {
  Generation generation;
  bool finished = false;  // a line said the model is done
  bool stopped = false;   // the sink said stop
  Status bad_line;        // a line that reports an error or breaks the protocol
  std::string partial;    // received bytes whose line break has not arrived yet

  auto on_line = [&](std::string_view line) {
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line.empty()) return true;  // SSE ends each event with a blank line
    Result<StreamLine> parsed = ParseLine(line);
    if (!parsed.ok()) {
      bad_line = parsed.status();
      return false;
    }
    if (parsed->finish) generation.finish = *parsed->finish;
    if (parsed->usage) generation.usage = *parsed->usage;
    finished = finished || parsed->finish.has_value() || parsed->end;
    if (!parsed->piece.empty()) {
      generation.text += parsed->piece;
      if (!on_piece(parsed->piece)) {
        stopped = true;
        return false;
      }
    }
    return true;
  };
  // Lines arrive split across pieces of the body, or several in one.
  auto on_data = [&](std::string_view data) {
    partial.append(data);
    size_t begin = 0;
    for (size_t nl; (nl = partial.find('\n', begin)) != std::string::npos; begin = nl + 1) {
      if (!on_line(std::string_view(partial).substr(begin, nl - begin))) return false;
    }
    partial.erase(0, begin);
    return true;
  };

  // A prompt cut from a document may hold invalid UTF-8; replace it rather than throw.
  const std::string body =
      RequestBody(request).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  HttpOptions options = http_options();
  options.cancel = request.cancel;
  KEBAB_ASSIGN_OR_RETURN(StreamedResponse response,
                         PostJsonStream(chat_url_, body, headers(), options, on_data));
  if (response.status < 200 || response.status >= 300) {
    return HttpError(response.status, response.error_body);
  }
  // The last line may lack its line break.
  if (!response.aborted && !partial.empty()) on_line(partial);
  const std::string who = ref_.provider + " at " + chat_url_;
  if (!bad_line.ok()) return bad_line.WithContext(who);
  if (stopped || response.aborted) {
    generation.finish = FinishReason::kAborted;
    return generation;
  }
  if (!finished) {
    return GenericError(who + " ended its reply before the model finished",
                        "check the server's log");
  }
  return generation;
}

Status ValidateHttpChatOptions(const HttpChatOptions& options) {
  if (options.endpoint.empty()) {
    return ConfigInvalid(options.config_section + ".endpoint is empty",
                         "set " + options.config_section +
                             ".endpoint to the server's URL, e.g. http://127.0.0.1:11434");
  }
  if (options.model.empty()) {
    return ConfigInvalid("no chat model is configured",
                         "set " + options.config_section + ".model to a model the server has");
  }
  if (options.context_tokens < 1 || options.timeout_secs < 1) {
    return ConfigInvalid(options.config_section +
                         ".context_tokens and request_timeout_secs must be at least 1");
  }
  return Status::OK();
}

}  // namespace kebab::llm
