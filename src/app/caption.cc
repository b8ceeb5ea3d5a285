#include "app/internal/caption.h"

#include <nlohmann/json.hpp>

#include "core/hash.h"
#include "llm/open.h"

namespace kebab::app::internal {
namespace {

using nlohmann::json;

constexpr char kCacheKind[] = "caption";

constexpr char kSystemPrompt[] =
    "You write short captions of images for a personal search index. Say what the image "
    "shows, plainly, in the language of any text in it, or else in English.";
constexpr char kUserPrompt[] =
    "Caption this image in one or two sentences: what it shows, and any words that stand out "
    "in it. No preamble.";

llm::HttpChatOptions OptionsOf(const config::IngestConfig& in) {
  return {.endpoint = in.caption_endpoint,
          .model = in.caption_model,
          // A prompt, one small image and a caption: the server's smallest window holds them.
          .context_tokens = 4096,
          .timeout_secs = in.caption_request_timeout_secs,
          .config_section = "ingest.image.caption"};
}

// A caption as the model wrote it, without surrounding blanks or quotes.
std::string Tidy(std::string text) {
  const char* blank = " \t\r\n\"";
  text.erase(0, text.find_first_not_of(blank));
  text.erase(text.find_last_not_of(blank) + 1);
  return text;
}

bool IsServerDown(ErrorCode code) {
  return code == ErrorCode::kModelUnreachable || code == ErrorCode::kModelNotPulled ||
         code == ErrorCode::kConfigInvalid;
}

}  // namespace

Result<std::unique_ptr<ModelCaptioner>> ModelCaptioner::Open(const config::Config& config,
                                                             parse::OcrPool* images,
                                                             parse::DerivationCache* cache) {
  KEBAB_ASSIGN_OR_RETURN(
      auto model, llm::OpenChatServer(config.ingest.caption_provider, OptionsOf(config.ingest)));
  return std::unique_ptr<ModelCaptioner>(
      new ModelCaptioner(std::move(model), config.ingest, images, cache));
}

ModelCaptioner::ModelCaptioner(std::unique_ptr<llm::HttpChat> model,
                               const config::IngestConfig& settings, parse::OcrPool* images,
                               parse::DerivationCache* cache)
    : model_(std::move(model)),
      long_edge_(settings.caption_long_edge),
      max_tokens_(settings.caption_max_tokens),
      images_(images),
      cache_(cache) {}

std::string ModelCaptioner::Signature() const {
  const llm::ModelRef& ref = model_->model_ref();
  return ref.provider + "|" + ref.id + "|" + kCaptionPromptVersion + "|e" +
         std::to_string(long_edge_) + "|t" + std::to_string(max_tokens_);
}

Result<parse::Caption> ModelCaptioner::Describe(std::string_view image, int orientation,
                                                const std::atomic<bool>* cancel) const {
  const std::string key = Blake3Hex(std::string(kCacheKind) + '\0' + Blake3Hex(image) + '\0' +
                                    Signature() + "|o" + std::to_string(orientation))
                              .substr(0, 32);
  const std::string& model_name = model_->model_ref().id;
  if (cache_ != nullptr) {
    if (std::optional<std::string> hit = cache_->Get(key)) {
      const json j = json::parse(*hit, nullptr, /*allow_exceptions=*/false);
      if (j.is_object() && j.contains("text") && j["text"].is_string()) {
        return parse::Caption{j["text"].get<std::string>(), model_name, kCaptionPromptVersion};
      }
    }
  }
  {
    std::lock_guard lock(mu_);
    if (down_) return *down_;
  }
  KEBAB_ASSIGN_OR_RETURN(
      parse::Thumbnail small,
      images_->SubmitThumbnail(std::string(image), orientation, long_edge_).get());
  llm::GenerateRequest request;
  request.system = kSystemPrompt;
  request.user = kUserPrompt;
  request.images_jpeg_base64.push_back(std::move(small.jpeg_base64));
  request.max_tokens = max_tokens_;
  request.temperature = 0;
  request.cancel = cancel;
  Result<llm::Generation> gen = model_->Generate(request, [](std::string_view) { return true; });
  if (!gen.ok()) {
    Status error = gen.status();
    // A model without vision fails every image alike (Ollama: "this model does not support
    // image input").
    const bool blind =
        error.code() == ErrorCode::kGeneric && error.message().find("image") != std::string::npos;
    if (blind) {
      error = error.WithHint(
          "set ingest.image.caption.model to a vision model, e.g. "
          "qwen2.5vl:7b, llava:7b or gemma3:4b");
    }
    if (blind || IsServerDown(error.code())) {
      std::lock_guard lock(mu_);
      if (!down_) down_ = error;
    }
    return error;
  }
  if (gen->finish == llm::FinishReason::kAborted) {
    return Status(ErrorCode::kCancelled, "captioning was stopped");
  }
  std::string text = Tidy(std::move(gen->text));
  if (text.empty()) {
    return GenericError("the model " + model_name + " wrote no caption",
                        "check that it is a vision model (one that takes images)");
  }
  if (cache_ != nullptr) {
    cache_->Put(key, kCacheKind, json({{"text", text}, {"model", model_name}}).dump());
  }
  return parse::Caption{std::move(text), model_name, kCaptionPromptVersion};
}

Result<std::string> CheckCaptionModel(const config::Config& config) {
  KEBAB_ASSIGN_OR_RETURN(
      auto model, llm::OpenChatServer(config.ingest.caption_provider, OptionsOf(config.ingest)));
  return llm::CheckChatServer(*model);
}

}  // namespace kebab::app::internal
