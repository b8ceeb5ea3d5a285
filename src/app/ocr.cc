#include "app/internal/ocr.h"

#include "app/internal_store.h"

namespace kebab::app::internal {

parse::OcrSettings OcrSettingsOf(const config::Config& config) {
  parse::OcrSettings settings;
  settings.languages = config.ingest.ocr_languages;
  if (const config::OcrPageSegmentation& psm = config.ingest.ocr_page_segmentation_mode;
      psm.kind == config::OcrPageSegmentation::Kind::kFixed) {
    settings.page_segmentation_mode = psm.psm;
  }
  settings.pdf_dpi = config.ingest.pdf_ocr_dpi;
  settings.pdf_always = config.ingest.pdf_ocr_always;
  settings.max_pixels = config.ingest.ocr_max_pixels;
  settings.max_seconds_per_page = config.ingest.ocr_max_seconds_per_page;
  settings.low_confidence = config.ingest.ocr_low_confidence;
  settings.workers = config.ingest.ocr_workers;
  return settings;
}

Result<std::unique_ptr<StoreDerivationCache>> StoreDerivationCache::Open(
    const config::Config& config) {
  KEBAB_ASSIGN_OR_RETURN(auto reader, OpenStore(config, /*readonly=*/true, /*map_file=*/false));
  return std::unique_ptr<StoreDerivationCache>(new StoreDerivationCache(std::move(reader)));
}

std::optional<std::string> StoreDerivationCache::Get(const std::string& key) {
  {
    std::lock_guard lock(mu_);
    if (auto it = pending_.find(key); it != pending_.end()) return it->second.row.payload;
  }
  std::lock_guard lock(read_mu_);
  Result<std::optional<std::string>> hit = reader_->GetDerivation(key);
  return hit.ok() ? *hit : std::nullopt;  // an unreadable cache is a miss, never an error
}

void StoreDerivationCache::Put(const std::string& key, std::string_view kind, std::string payload) {
  std::lock_guard lock(mu_);
  pending_[key] = {{key, std::string(kind), std::move(payload)}, false};
}

void StoreDerivationCache::Log(store::OcrEventRecord event) {
  std::lock_guard lock(mu_);
  events_.push_back(std::move(event));
}

Status StoreDerivationCache::Drain(store::Store& writer) {
  std::vector<store::DerivationRow> rows;
  std::vector<store::OcrEventRecord> events;
  {
    std::lock_guard lock(mu_);
    // What the last call wrote has been committed since: the reader sees it now.
    std::erase_if(pending_, [](const auto& entry) { return entry.second.written; });
    for (auto& [key, entry] : pending_) rows.push_back(entry.row);
    events.swap(events_);
  }
  KEBAB_RETURN_IF_ERROR(writer.PutDerivations(rows, events));
  std::lock_guard lock(mu_);
  for (const store::DerivationRow& row : rows) {
    auto it = pending_.find(row.key);
    if (it != pending_.end() && it->second.row.payload == row.payload) it->second.written = true;
  }
  return Status::OK();
}

}  // namespace kebab::app::internal
