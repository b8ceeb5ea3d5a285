#include <chrono>
#include <filesystem>

#include "app/eval.h"

namespace kebab::app {

namespace fs = std::filesystem;

Result<EvalImportResult> ImportEvalCollection(Session& session, eval::ImportOptions options,
                                              const IngestEventSink& on_ingest_event,
                                              const std::atomic<bool>* cancel) {
  KEBAB_RETURN_IF_ERROR(session.CheckWritable("eval import"));
  const config::Config& config = session.config();
  std::error_code ec;
  if (!fs::is_directory(options.source, ec)) {
    return InvalidInput("no collection directory at " + options.source,
                        "pass the directory that holds the collection's files");
  }
  if (options.name.empty()) {
    options.name = fs::weakly_canonical(options.source, ec).filename().string();
  }
  const bool safe_name = !options.name.empty() && options.name[0] != '.' &&
                         options.name.find_first_of("/\\") == std::string::npos;
  if (!safe_name) {
    return InvalidInput("`" + options.name + "` cannot name a collection",
                        "pass --name with letters, digits, '-', '_' or '.'");
  }
  EvalImportResult result;
  result.dir = CollectionDir(config, options.name);
  options.out_dir = result.dir;

  auto start = std::chrono::steady_clock::now();
  auto ms_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  };
  KEBAB_ASSIGN_OR_RETURN(result.report, eval::ImportCollection(options));
  result.import_ms = ms_since(start);

  start = std::chrono::steady_clock::now();
  Session collection(CollectionConfig(config, options.name));
  KEBAB_ASSIGN_OR_RETURN(
      IngestReport ingest,
      Ingest(collection, IngestOptions{.summary_only = true}, on_ingest_event, cancel));
  if (ingest.aborted) {
    return Status(ErrorCode::kCancelled, "import cancelled while indexing; run it again to finish");
  }
  result.ingest = ingest.counts;
  result.ingest_ms = ms_since(start);
  return result;
}

}  // namespace kebab::app
