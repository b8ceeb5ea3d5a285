#include "app/ingest.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "app/embed_stage.h"
#include "app/internal/caption.h"
#include "app/internal/ingest_files.h"
#include "app/internal/ingest_queue.h"
#include "app/internal/ocr.h"
#include "app/internal/session_state.h"
#include "app/internal/transcription.h"
#include "app/internal_store.h"
#include "chunk/chunker.h"
#include "core/files.h"
#include "core/hash.h"
#include "core/ids.h"
#include "core/time.h"
#include "parse/audio.h"
#include "parse/extractor.h"
#include "parse/ocr.h"
#include "source/walker.h"
#include "text/analyzer.h"

namespace kebab::app {
namespace {

using internal::Processed;
using internal::ResultQueue;

struct PipelineContext {
  const config::Config& config;
  const std::unordered_map<std::string, store::StoredDocState>& states;
  chunk::ChunkPolicy policy;
  std::unordered_map<const chunk::Chunker*, std::string> policy_hashes;  // computed once each
  bool force = false;
  const IngestEventSink* emit = nullptr;            // thread-safe; asset_progress from the workers
  parse::OcrPool* ocr = nullptr;                    // null when OCR is off
  const parse::Captioner* captioner = nullptr;      // null when captions are off
  const parse::Transcriber* transcriber = nullptr;  // null when transcription is off
  internal::StoreDerivationCache* ocr_log = nullptr;
  std::string run_id;
  const std::atomic<bool>* cancel = nullptr;
  // Each extractor's parser_version under this run's settings, asked once and only when a file
  // of its medium comes: asking may start a worker (`kebab-ocr --version`), which an update of
  // one note (the service's watch) should not pay for.
  struct Version {
    std::once_flag once;
    std::string value;
  };
  // Its keys are set before the workers start; each value is filled once, by call_once.
  mutable std::unordered_map<const parse::Extractor*, Version> versions;
  const std::string& VersionOf(const parse::Extractor& extractor) const {
    Version& v = versions.at(&extractor);
    std::call_once(v.once, [&] { v.value = extractor.VersionFor({ocr, captioner, transcriber}); });
    return v.value;
  }
  // The repository of every walked file's folder, resolved before the workers start (they
  // only Find()).
  source::GitRepos repos;
};

std::string ParentDir(const std::string& abs_path) {
  const size_t slash = abs_path.rfind('/');
  return slash == std::string::npos || slash == 0 ? "/" : abs_path.substr(0, slash);
}

// A file that takes long to read reports its pages, at most every kProgressMillis and never
// for a file read faster than that: the stream stays quiet for the usual small file.
constexpr int64_t kProgressMillis = 250;

// `analyzer` is the calling worker's own (analyzers are not thread-safe).
Processed ProcessFile(const PipelineContext& ctx, const text::Analyzer& analyzer,
                      const source::FoundFile& file) {
  const int64_t started = MonotonicMillis();
  Processed p;
  p.file = &file;
  auto finish = [&](Processed&& out) {
    out.ms = MonotonicMillis() - started;
    return std::move(out);
  };
  auto bytes = ReadFileUpTo(file.abs_path, internal::MaxFileBytes(ctx.config, file.media));
  if (!bytes.ok()) {
    if (bytes.status().code() == ErrorCode::kInvalidInput) {
      p.result = "skipped";
      p.skip_reason = std::string(source::kSkipSizeExceeded);
    } else {
      p.result = "error";
      p.error = bytes.status().message();
    }
    return finish(std::move(p));
  }
  // The walk returns only media with an extractor, and each of those has a chunker.
  const parse::Extractor& extractor = *parse::ExtractorFor(file.media);
  const chunk::Chunker& chunker = *chunk::ChunkerFor(file.media);
  const std::string& policy_hash = ctx.policy_hashes.at(&chunker);
  const std::string checksum = Blake3Hex(*bytes);
  const std::string asset_id = AssetId(checksum);
  auto stored = ctx.states.find(file.workspace_path);
  if (!ctx.force && stored != ctx.states.end() && stored->second.asset_id == asset_id &&
      stored->second.parser_version == ctx.VersionOf(extractor) &&
      stored->second.chunker_version == chunker.version() &&
      stored->second.policy_hash == policy_hash) {
    p.result = "unchanged";
    return finish(std::move(p));
  }
  if (file.media == MediaKind::kCode) {
    const auto lines = static_cast<long long>(std::count(bytes->begin(), bytes->end(), '\n'));
    if (static_cast<long long>(bytes->size()) > ctx.config.ingest.code_max_file_bytes ||
        lines > ctx.config.ingest.code_max_file_lines) {
      p.result = "skipped";
      p.skip_reason = std::string(source::kSkipSizeExceeded);
      return finish(std::move(p));
    }
  }
  // Generated-file markers, lock files and minified code mean "do not index" for source code;
  // generated *documentation* is still knowledge, so prose is never skipped for them.
  if (ctx.config.ingest.skip_generated && file.media == MediaKind::kCode &&
      (source::LooksGenerated(std::string_view(*bytes).substr(0, 512)) ||
       source::LooksMachineMade(file.workspace_path, std::string_view(*bytes).substr(0, 4096)))) {
    p.result = "skipped";
    p.skip_reason = std::string(source::kSkipGenerated);
    return finish(std::move(p));
  }
  store::DocumentWrite w;
  w.asset.asset_id = asset_id;
  w.asset.source_uri = file.abs_path;
  w.asset.workspace_path = file.workspace_path;
  w.asset.media = file.media;
  w.asset.byte_len = bytes->size();
  w.asset.checksum = checksum;
  w.asset.discovered_at = NowRfc3339();
  parse::ExtractInput in{*bytes, file.workspace_path, asset_id, w.asset.discovered_at};
  in.max_seconds = ctx.config.ingest.pdf_max_seconds_per_file;
  if (ctx.emit != nullptr) {
    int64_t last_ms = MonotonicMillis();
    in.on_progress = [&ctx, &file, last_ms](int done, int of) mutable {
      const int64_t now = MonotonicMillis();
      if (now - last_ms < kProgressMillis) return;
      last_ms = now;
      (*ctx.emit)({.kind = IngestEvent::Kind::kAssetProgress,
                   .path = file.workspace_path,
                   .done = done,
                   .of = of,
                   .unit = file.media == MediaKind::kAudio ? "second" : "page",
                   .media = std::string(MediaKindName(file.media))});
    };
  }
  in.ocr = ctx.ocr;
  in.captioner = ctx.captioner;
  in.transcriber = ctx.transcriber;
  in.cancel = ctx.cancel;
  // Counted here for the report item; told to the stream and the OCR log as they happen.
  std::atomic<int> ocr_pages{0};
  std::atomic<int64_t> ocr_ms{0};
  if (ctx.ocr != nullptr) {
    in.on_ocr = [&ctx, &file, &ocr_pages, &ocr_ms](const parse::OcrEvent& e) {
      const bool finished = e.kind == parse::OcrEvent::Kind::kFinished;
      if (finished) {
        ocr_pages.fetch_add(1);
        ocr_ms.fetch_add(e.ms);
        store::OcrEventRecord record{.run_id = ctx.run_id,
                                     .ts = NowRfc3339(),
                                     .doc_path = file.workspace_path,
                                     .page = e.page,
                                     .ms = e.ms,
                                     .chars = e.chars,
                                     .cached = e.cached,
                                     .engine = ctx.ocr->EngineVersion()};
        if (!e.failure.empty()) record.failure = e.failure;
        ctx.ocr_log->Log(std::move(record));
      }
      if (ctx.emit == nullptr) return;
      (*ctx.emit)(
          {.kind = finished ? IngestEvent::Kind::kOcrFinished : IngestEvent::Kind::kOcrStarted,
           .path = file.workspace_path,
           .media = std::string(MediaKindName(file.media)),
           .ms = e.ms,
           .page = e.page,
           .ocr_chars = e.chars,
           .ocr_cached = e.cached,
           .ocr_engine = finished ? ctx.ocr->EngineVersion() : std::string(),
           .failure = e.failure});
    };
  }
  auto doc = extractor.Extract(in);
  p.ocr_pages = ocr_pages.load();
  p.ocr_ms = ocr_ms.load();
  if (!doc.ok() && doc.status().code() == ErrorCode::kCancelled) {
    p.result = "cancelled";  // the run is ending; the next one reads this file again
    return finish(std::move(p));
  }
  if (!doc.ok()) {
    p.result = "error";
    // An item carries one string: the fix goes with the error (a missing model's pull).
    p.error = doc.status().message();
    if (!doc.status().hint().empty()) p.error += " — " + doc.status().hint();
    return finish(std::move(p));
  }
  // Every document in a repository says which, whatever its medium (--repo finds a
  // repository's README as well as its code).
  if (const source::GitRepo* repo = ctx.repos.Find(ParentDir(file.abs_path))) {
    Metadata& m = doc->metadata;
    m.repo = repo->name;
    if (!repo->remote.empty()) m.git_remote = repo->remote;
    if (!repo->branch.empty()) m.git_branch = repo->branch;
    if (!repo->commit.empty()) m.git_commit = repo->commit.substr(0, 12);
  }
  w.chunks = chunker.Split(*doc, ctx.policy);
  w.doc = std::move(doc).value();
  w.chunker_version = std::string(chunker.version());
  w.policy_hash = policy_hash;
  store::EncodeRows(&w, &analyzer);
  p.result = stored == ctx.states.end() ? "new" : "updated";
  p.write = std::move(w);
  return finish(std::move(p));
}

bool Cancelled(const std::atomic<bool>* cancel) {
  return cancel && cancel->load(std::memory_order_relaxed);
}

}  // namespace

Status CheckReadable(const std::string& file) {
  const MediaKind media = source::DetectMedia(file);
  if (parse::ExtractorFor(media) != nullptr) return Status::OK();
  std::string readable;
  for (MediaKind m : parse::ExtractableMedia()) {
    readable += (readable.empty() ? "" : ", ") + std::string(MediaKindName(m));
  }
  return InvalidInput(
      "kebab cannot read " + std::string(MediaKindName(media)) + " files yet: " + file,
      "it reads: " + readable);
}

Result<IngestReport> Ingest(Session& session, const IngestOptions& options,
                            const IngestEventSink& on_event, const std::atomic<bool>* cancel) {
  KEBAB_RETURN_IF_ERROR(session.CheckWritable("ingest"));
  std::lock_guard one_writer(session.state().ingest_mu);
  const config::Config& config = session.config();
  const int64_t started_ms = MonotonicMillis();
  const std::string started_at = NowRfc3339();
  std::mutex emit_mu;  // the embedding stage emits from its own thread
  const IngestEventSink emit = [&](IngestEvent e) {
    if (!on_event) return;
    e.ts = NowRfc3339();
    std::lock_guard lock(emit_mu);
    on_event(e);
  };

  internal::IngestLock lock;
  KEBAB_RETURN_IF_ERROR(lock.Acquire(config.storage.data_dir));

  IngestReport report;
  report.run_id = internal::NewRunId();
  report.root = options.root.value_or(config.workspace.root);
  // A PATH inside the workspace re-ingests that subtree: paths stay relative to the
  // workspace root so documents keep their ids and citations. A PATH elsewhere is indexed as
  // a root of its own.
  const std::string& workspace_root = config.workspace.root;
  std::string subtree;
  if (report.root.starts_with(workspace_root + "/")) {
    subtree = report.root.substr(workspace_root.size() + 1);
  }
  report.exclude = config.workspace.exclude;
  if (!options.summary_only) report.items.emplace();

  emit({.kind = IngestEvent::Kind::kScanStarted, .root = report.root});
  source::WalkOptions walk_options;
  walk_options.root = report.root;
  walk_options.exclude = config.workspace.exclude;
  walk_options.max_file_bytes = static_cast<uint64_t>(config.ingest.max_file_bytes);
  walk_options.max_audio_bytes = static_cast<uint64_t>(config.ingest.audio_max_file_bytes);
  walk_options.follow_symlinks = config.ingest.follow_symlinks;
  walk_options.media = parse::ExtractableMedia();
  walk_options.code_skip_dirs = config.ingest.code_skip_dirs;
  source::WalkResult walk;
  if (options.explicit_files.empty()) {
    KEBAB_ASSIGN_OR_RETURN(walk, source::Walk(walk_options));
  } else {
    KEBAB_ASSIGN_OR_RETURN(walk.files,
                           internal::ExplicitFiles(report.root, options.explicit_files));
  }
  if (!subtree.empty()) {
    for (auto& f : walk.files) f.workspace_path = subtree + "/" + f.workspace_path;
    for (auto& [reason, paths] : walk.skipped.examples) {
      for (auto& p : paths) p = subtree + "/" + p;
    }
  }
  report.warnings = walk.warnings;
  source::SkipTally& tally = walk.skipped;
  const int64_t total = static_cast<int64_t>(walk.files.size());
  emit({.kind = IngestEvent::Kind::kScanCompleted, .total = total});

  KEBAB_ASSIGN_OR_RETURN(auto store, OpenStore(config, /*readonly=*/false));
  // Without it (a second connection could not open) commits checkpoint as usual.
  (void)store->CheckpointInBackground();
  // An ingest of a few named files (a save the service's watch saw) reads only their states.
  std::vector<std::string> explicit_paths;
  for (const auto& f : walk.files) explicit_paths.push_back(f.workspace_path);
  KEBAB_ASSIGN_OR_RETURN(
      auto states,
      store->LoadDocStates(options.explicit_files.empty() ? nullptr : &explicit_paths));
  KEBAB_ASSIGN_OR_RETURN(const int64_t stored_before, options.explicit_files.empty()
                                                          ? static_cast<int64_t>(states.size())
                                                          : store->CountDocuments());
  // A first ingest builds the read-side indexes once, after its last document.
  KEBAB_ASSIGN_OR_RETURN(const bool bulk_load, store->BeginBulkLoad());
  KEBAB_RETURN_IF_ERROR(
      store->StartJob(report.run_id, "ingest", nlohmann::json({{"root", report.root}}).dump()));
  IngestCounts& counts = report.counts;
  bool revision_bumped = false;
  auto note_change = [&]() -> Status {
    if (revision_bumped) return Status::OK();
    revision_bumped = true;
    return store->BumpCorpusRevision().status();
  };

  // Documents under this root whose files are gone or now ignored leave the index, unless
  // the walk cannot tell (an unreadable folder) or the sweep looks like a vanished drive.
  if (options.explicit_files.empty()) {
    std::unordered_set<std::string> seen;
    for (const auto& f : walk.files) seen.insert(f.workspace_path);
    for (auto& dir : walk.unreadable_dirs) {
      if (!subtree.empty()) dir = dir.empty() ? subtree : subtree + "/" + dir;
    }
    const std::string prefix = report.root + "/";
    int64_t stored = 0;
    std::vector<std::pair<std::string, std::string>> gone;  // path, doc id
    for (const auto& [path, state] : states) {
      if (!state.source_uri.starts_with(prefix)) continue;
      ++stored;
      if (seen.count(path) || internal::UnderAnyDir(path, walk.unreadable_dirs) ||
          !internal::ShouldPurge(path, state.source_uri, config)) {
        continue;
      }
      gone.emplace_back(path, state.doc_id);
    }
    const auto verdict = internal::DecidePurge(stored, static_cast<int64_t>(gone.size()),
                                               static_cast<int64_t>(walk.files.size()),
                                               options.purge, config.ingest.max_purge_share);
    if (verdict == internal::PurgeVerdict::kPurge) {
      for (const auto& [path, doc_id] : gone) {
        KEBAB_RETURN_IF_ERROR(note_change());
        KEBAB_RETURN_IF_ERROR(store->PurgePath(path));
        ++counts.purged;
        if (report.items)
          report.items->push_back({.kind = "purged", .doc_id = doc_id, .doc_path = path});
        emit({.kind = IngestEvent::Kind::kPurged, .path = path});
      }
    } else {
      report.purge_withheld = static_cast<int64_t>(gone.size());
      const std::string n = std::to_string(gone.size());
      report.warnings.push_back(
          verdict == internal::PurgeVerdict::kRootEmpty
              ? report.root + " holds no file kebab reads, yet " + n +
                    " documents were indexed from it: nothing was purged (is a drive not "
                    "mounted?); run `kebab ingest --purge` if they were deleted on purpose"
              : n + " of the " + std::to_string(stored) + " documents indexed from " + report.root +
                    " are gone: nothing was purged (is a drive not mounted, or a folder "
                    "moved?); run `kebab ingest --purge` if they were deleted on purpose");
    }
  }

  // OCR for scans and images, and captions: worker processes start with the first page to
  // read (or image to make small for the caption model), and what OCR reads and the model
  // writes is cached in the index file as it comes.
  std::unique_ptr<internal::StoreDerivationCache> ocr_cache;
  std::unique_ptr<parse::OcrPool> ocr;
  std::unique_ptr<internal::ModelCaptioner> captioner;
  std::unique_ptr<parse::Transcriber> transcriber;
  if (config.ingest.ocr_enabled || config.ingest.caption_enabled || config.ingest.audio_enabled) {
    KEBAB_ASSIGN_OR_RETURN(ocr_cache, internal::StoreDerivationCache::Open(config));
    ocr = std::make_unique<parse::OcrPool>(internal::OcrSettingsOf(config), ocr_cache.get());
  }
  if (config.ingest.audio_enabled) {
    transcriber = std::make_unique<parse::Transcriber>(internal::TranscriptionSettingsOf(config),
                                                       ocr_cache.get());
  }
  if (config.ingest.caption_enabled) {
    KEBAB_ASSIGN_OR_RETURN(captioner,
                           internal::ModelCaptioner::Open(config, ocr.get(), ocr_cache.get()));
  }

  PipelineContext ctx{config, states, {}, {}, options.force_reingest, &emit};
  ctx.ocr = config.ingest.ocr_enabled ? ocr.get() : nullptr;
  ctx.captioner = captioner.get();
  ctx.transcriber = transcriber.get();
  ctx.ocr_log = ocr_cache.get();
  ctx.run_id = report.run_id;
  ctx.cancel = cancel;
  ctx.policy.target_tokens = config.chunking.target_tokens;
  ctx.policy.overlap_tokens = config.chunking.overlap_tokens;
  ctx.policy.max_chunk_tokens = config.chunking.max_chunk_tokens;
  ctx.policy.respect_markdown_headings = config.chunking.respect_markdown_headings;
  for (MediaKind media : parse::ExtractableMedia()) {
    const chunk::Chunker* chunker = chunk::ChunkerFor(media);
    ctx.policy_hashes.emplace(chunker, chunker->PolicyHash(ctx.policy));
    const parse::Extractor* extractor = parse::ExtractorFor(media);
    ctx.versions.try_emplace(extractor);
  }

  for (const source::FoundFile& f : walk.files) ctx.repos.Resolve(ParentDir(f.abs_path));

  int workers = config.ingest.max_parallel_extractors;
  if (workers <= 0) workers = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  workers = static_cast<int>(std::min<int64_t>(workers, std::max<int64_t>(total, 1)));
  ResultQueue queue(workers, /*capacity=*/static_cast<size_t>(workers) * 512,
                    /*capacity_bytes=*/64 << 20, /*batch=*/static_cast<size_t>(workers) * 16);
  queue.SetProducers(workers);
  const int64_t skipped_by_walker = static_cast<int64_t>(tally.Total());
  std::atomic<size_t> next{0};
  std::atomic<bool> stop_workers{false};
  std::vector<std::thread> threads;
  for (int i = 0; i < workers; ++i) {
    threads.emplace_back([&, i] {
      const text::Analyzer analyzer({.stemmer = config.search.stemmer});
      while (!Cancelled(cancel) && !stop_workers.load(std::memory_order_relaxed)) {
        size_t n = next.fetch_add(1);
        if (n >= walk.files.size()) break;
        auto p = std::make_unique<Processed>(ProcessFile(ctx, analyzer, walk.files[n]));
        p->worker = i;
        queue.Push(std::move(p));
      }
      queue.ProducerDone();
    });
  }

  // Chunks are embedded while later files are still parsed: the stage starts (loading the
  // model) with the first document written and embeds what each commit adds.
  const bool embedding = config.embedding.provider != "none";
  EmbedStage embed_stage(session, emit, cancel);

  // Documents are committed in groups (each still atomic, see Store::BeginBatch): one durable
  // commit per document would spend most of the run flushing FTS5 segments.
  constexpr int kBatchDocs = 2048;
  constexpr int64_t kBatchMillis = 1000;
  int batch_docs = 0;
  int64_t batch_started = 0;
  auto flush = [&]() -> Status {
    batch_docs = 0;
    // Pages OCR read go in with the batch: this thread is the only writer (see
    // StoreDerivationCache).
    if (ocr_cache != nullptr) KEBAB_RETURN_IF_ERROR(ocr_cache->Drain(*store));
    KEBAB_RETURN_IF_ERROR(store->CommitBatch());
    embed_stage.NoteCommit();
    return Status::OK();
  };
  Status write_status;
  std::vector<std::unique_ptr<Processed>> batch;
  int64_t idx = 0;
  while (queue.PopAll(&batch)) {
    for (auto& processed : batch) {
      Processed& p = *processed;
      if (!write_status.ok()) continue;       // drain so workers can finish
      if (p.result == "cancelled") continue;  // neither written nor counted: the run is aborted
      ++idx;
      const source::FoundFile& f = *p.file;
      emit({.kind = IngestEvent::Kind::kAssetStarted,
            .total = total,
            .idx = idx,
            .path = f.workspace_path,
            .media = std::string(MediaKindName(f.media))});
      IngestItem item{.kind = p.result, .doc_path = f.workspace_path, .byte_len = f.size};
      item.ocr_pages = p.ocr_pages;
      item.ocr_ms = p.ocr_ms;
      if (p.result == "skipped") {
        tally.Add(p.skip_reason, f.workspace_path);
      } else if (p.result == "unchanged") {
        ++counts.unchanged;
        auto it = states.find(f.workspace_path);
        if (it != states.end()) {
          item.doc_id = it->second.doc_id;
          item.asset_id = it->second.asset_id;
          item.parser_version = it->second.parser_version;
          item.chunker_version = it->second.chunker_version;
        }
      } else if (p.result == "error") {
        ++counts.errors;
        item.error = p.error;
      } else {
        store::DocumentWrite& w = *p.write;
        if (!store->in_batch()) {
          write_status = store->BeginBatch();
          batch_started = MonotonicMillis();
        }
        if (write_status.ok()) write_status = note_change();
        if (write_status.ok()) write_status = store->WriteDocument(w);
        if (embedding && write_status.ok()) embed_stage.Start();
        if (write_status.ok() &&
            (++batch_docs >= kBatchDocs || MonotonicMillis() - batch_started >= kBatchMillis)) {
          write_status = flush();
        }
        if (!write_status.ok()) {
          stop_workers = true;  // the queue keeps draining so blocked workers can exit
          continue;
        }
        (p.result == "new" ? counts.new_docs : counts.updated) += 1;
        counts.chunks_indexed += static_cast<int64_t>(w.chunks.size());
        item.doc_id = w.doc.doc_id;
        item.asset_id = w.asset.asset_id;
        item.block_count = static_cast<int>(w.doc.blocks.size());
        item.chunk_count = static_cast<int>(w.chunks.size());
        item.parser_version = w.doc.parser_version;
        item.chunker_version = w.chunker_version;
        item.warnings = w.doc.warnings;
      }
      emit({.kind = IngestEvent::Kind::kAssetFinished,
            .total = total,
            .idx = idx,
            .path = f.workspace_path,
            .result = p.result,
            .chunks = item.chunk_count,
            .ms = p.ms});
      if (report.items && p.result != "skipped") report.items->push_back(std::move(item));
    }
    queue.Retire(std::move(batch));
  }
  for (auto& t : threads) t.join();
  ocr.reset();  // no page is being read any more: the last flush writes all they read
  if (write_status.ok()) write_status = flush();
  if (bulk_load) {
    const Status indexed = store->EndBulkLoad();
    if (write_status.ok()) write_status = indexed;
  }
  KEBAB_RETURN_IF_ERROR(write_status);

  // No document was written: texts an earlier run left unembedded still get their vectors,
  // but a run with nothing to embed never loads the model.
  if (embedding && !embed_stage.started() && !Cancelled(cancel)) {
    KEBAB_ASSIGN_OR_RETURN(bool done, AllChunksEmbedded(config, *store));
    if (!done) embed_stage.Start();
  }
  bool embedding_interrupted = false;
  if (embed_stage.started()) {
    // Lexical results are committed by now; a model that cannot load fails the run with its
    // own error, and the next ingest fills in the vectors.
    const Status embedded = embed_stage.Finish();
    counts.embeddings_indexed += embed_stage.embedded();
    if (embed_stage.embedded() > 0) KEBAB_RETURN_IF_ERROR(note_change());
    KEBAB_RETURN_IF_ERROR(embedded);
    embedding_interrupted = Cancelled(cancel);
  }
  // Searches should find the vector index current rather than build it on the first query.
  if (revision_bumped && embedding && !Cancelled(cancel)) {
    KEBAB_RETURN_IF_ERROR(RefreshVectorIndex(config, *store, emit, &report.warnings));
  }

  report.aborted = Cancelled(cancel) && (idx < total || embedding_interrupted);
  report.skipped_by_reason = tally.counts;
  report.skip_examples = tally.examples;
  report.skipped_by_extension = tally.by_extension;
  counts.skipped = static_cast<int64_t>(tally.Total());
  counts.scanned = total + skipped_by_walker;
  report.duration_ms = MonotonicMillis() - started_ms;
  KEBAB_ASSIGN_OR_RETURN(report.corpus_revision, store->CorpusRevision());

  store::IngestRunRecord run;
  run.run_id = report.run_id;
  run.scope_json = nlohmann::json({{"root", report.root}, {"exclude", report.exclude}}).dump();
  run.scanned = counts.scanned;
  run.new_count = counts.new_docs;
  run.updated_count = counts.updated;
  run.skipped_count = counts.skipped + counts.unchanged;
  run.error_count = counts.errors;
  run.duration_ms = report.duration_ms;
  run.started_at = started_at;
  run.finished_at = NowRfc3339();
  run.status = report.aborted ? "canceled" : "succeeded";
  KEBAB_RETURN_IF_ERROR(store->RecordIngestRun(run));
  if (revision_bumped) {
    const int64_t changed = counts.new_docs + counts.updated + counts.purged;
    const int64_t stored = stored_before + counts.new_docs;
    KEBAB_RETURN_IF_ERROR(
        store->CompactFullTextIndex(!report.aborted && (changed >= 2000 || changed * 5 >= stored)));
    KEBAB_RETURN_IF_ERROR(store->RefreshPlannerStatistics());
    KEBAB_RETURN_IF_ERROR(store->Checkpoint());
  }

  emit({.kind = report.aborted ? IngestEvent::Kind::kAborted : IngestEvent::Kind::kCompleted,
        .counts = counts});
  return report;
}

}  // namespace kebab::app
