// OCR in the facade: the settings the config gives the OcrPool, and the OCR cache of one
// ingest run.
//
// The cache: parse's DerivationCache over the store's derivations table,
// plus the run's OCR log (ocr_events). Reads go through a read-only connection of its own, so
// an OCR thread never waits on the ingest writer; what OCR reads is held here until the
// ingest's writer thread, the only one that writes, commits it with its next batch (Drain) —
// a second writing connection would wait on the writer's long bulk-load transaction. So a
// page read before Ctrl-C is committed as the run ends; one read before a crash is not.
// Thread safety: Get, Put and Log may be called from any thread; Drain from the writer's.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "config/config.h"
#include "parse/ocr.h"
#include "store/store.h"

namespace kebab::app::internal {

// [ingest.ocr] and [ingest.pdf.ocr] as the pool takes them.
parse::OcrSettings OcrSettingsOf(const config::Config& config);

class StoreDerivationCache final : public parse::DerivationCache {
 public:
  // Opens a read-only connection to the configured index (the caller has created it).
  static Result<std::unique_ptr<StoreDerivationCache>> Open(const config::Config& config);

  std::optional<std::string> Get(const std::string& key) override;
  void Put(const std::string& key, std::string_view kind, std::string payload) override;
  void Log(store::OcrEventRecord event);

  // Writes what was put and logged since the last call through `writer` (in its current
  // transaction, if any; the caller commits it before the next call).
  Status Drain(store::Store& writer);

 private:
  explicit StoreDerivationCache(std::unique_ptr<store::Store> reader)
      : reader_(std::move(reader)) {}

  std::mutex read_mu_;
  std::unique_ptr<store::Store> reader_;

  std::mutex mu_;
  struct Pending {
    store::DerivationRow row;
    bool written = false;  // by the last Drain, whose transaction may not have committed yet
  };
  std::unordered_map<std::string, Pending> pending_;  // by key
  std::vector<store::OcrEventRecord> events_;
};

}  // namespace kebab::app::internal
