// Captions of images for the image extractor ([ingest.image.caption]): parse::Captioner over a
// vision model on a server (Ollama's /api/chat with images, or an OpenAI-compatible server's
// image_url content). Each image is made small and upright by the OCR pool's workers (which
// hold the image codecs), sent with the prompt of version kCaptionPromptVersion, and the
// caption kept in the derivation cache (kebab.sqlite) by the image's content and everything
// that changes a caption, so an image is captioned once, whatever it is renamed to.
// Thread safety: Describe may run on many threads at once (each call one HTTP exchange).
// Once the server is found unreachable or without the model, later images fail at once with
// the same error: a folder of photos does not wait on a dead server photo by photo.
// Ownership: the pool and the cache are the caller's and must outlive the captioner.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "config/config.h"
#include "llm/http_chat.h"
#include "parse/extractor.h"
#include "parse/ocr.h"

namespace kebab::app::internal {

// Bumped when the prompt changes what a caption says (re-captions every image).
inline constexpr char kCaptionPromptVersion[] = "caption-v1";

class ModelCaptioner final : public parse::Captioner {
 public:
  // Contacts nothing. Errors: config_invalid for a provider other than ollama or openai, or an
  // empty model or endpoint.
  static Result<std::unique_ptr<ModelCaptioner>> Open(const config::Config& config,
                                                      parse::OcrPool* images,
                                                      parse::DerivationCache* cache);

  // "PROVIDER|MODEL|caption-v1|eN|tN".
  std::string Signature() const override;
  Result<parse::Caption> Describe(std::string_view image, int orientation,
                                  const std::atomic<bool>* cancel) const override;

 private:
  ModelCaptioner(std::unique_ptr<llm::HttpChat> model, const config::IngestConfig& settings,
                 parse::OcrPool* images, parse::DerivationCache* cache);

  const std::unique_ptr<llm::HttpChat> model_;
  const int long_edge_, max_tokens_;
  parse::OcrPool* const images_;
  parse::DerivationCache* const cache_;

  mutable std::mutex mu_;
  mutable std::optional<Status> down_;  // the server's failure that every later image shares
};

// `kebab doctor`'s check of the caption model when captions are on: the server answers and
// lists the model. The detail line, or the error whose hint is the fix.
Result<std::string> CheckCaptionModel(const config::Config& config);

}  // namespace kebab::app::internal
