#include <filesystem>

#include "app/admin.h"
#include "app/internal_store.h"
#include "chunk/chunker.h"
#include "parse/extractor.h"
#include "search/search.h"

namespace kebab::app {

Result<SchemaInfo> Schema(Session& session) {
  const config::Config& config = session.config();
  SchemaInfo info;
  info.wire_schemas = {"citation.v1",
                       "search_hit.v1",
                       "search_response.v1",
                       "doc_summary.v1",
                       "chunk_inspection.v1",
                       "document_inspection.v1",
                       "doctor.v1",
                       "ingest_report.v1",
                       "ingest_progress.v1",
                       "fetch_result.v1",
                       "reset_report.v1",
                       "schema.v1",
                       "error.v1",
                       "bulk_search_item.v1",
                       "model_info.v1",
                       "model_list.v1",
                       "model_pull_progress.v1",
                       "model_pull_report.v1",
                       "model_rm_report.v1",
                       "models_gc_report.v1",
                       "answer.v1",
                       "answer_event.v1",
                       "eval_run.v1",
                       "eval_list.v1",
                       "eval_compare.v1",
                       "eval_import_report.v1",
                       "ocr_stats.v1",
                       "ocr_failures.v1",
                       "status.v1"};
  info.capabilities = {{"json_mode", true},
                       {"ingest_progress", true},
                       {"ingest_cancellation", true},
                       {"incremental_ingest", true},
                       {"lexical_search", true},
                       {"vector_search", true},
                       {"hybrid_search", true},
                       {"streaming_ask", true},
                       {"mcp_server", true},
                       {"single_file_ingest", true},
                       {"bulk_search", true},
                       {"search_cursor", true},
                       {"search_explain", true},
                       {"stemming", true},
                       {"ask", true},
                       {"multi_hop_ask", true},
                       {"citation_check", true},
                       {"eval", true},
                       {"service", true}};
  // schema.v1 names one parser and chunker: Markdown's, the medium every workspace has.
  info.parser_version = std::string(parse::ExtractorFor(MediaKind::kMarkdown)->version());
  info.chunker_version = std::string(chunk::ChunkerFor(MediaKind::kMarkdown)->version());
  info.prompt_template_version = config.rag.prompt_template_version;
  info.stemmer = config.search.stemmer;
  std::error_code ec;
  if (std::filesystem::exists(config.storage.sqlite, ec)) {
    // Its own handle, closed after: counting reads most of the index, and a kept handle
    // would keep those pages for nothing.
    KEBAB_ASSIGN_OR_RETURN(auto store, OpenStore(config, true));
    KEBAB_ASSIGN_OR_RETURN(info.stats, store->Stats());
    KEBAB_ASSIGN_OR_RETURN(info.corpus_revision, store->CorpusRevision());
    KEBAB_ASSIGN_OR_RETURN(info.embedding_spaces, store->ListSpaces());
    info.stemmer = store->stemmer();
    info.indexed = true;
  }
  info.index_version = search::LexicalIndexVersion(info.stemmer);
  const config::EmbeddingConfig& e = config.embedding;
  if (e.provider != "none") info.embedding_version = e.provider + ":" + e.model + "@" + e.version;
  return info;
}

}  // namespace kebab::app
