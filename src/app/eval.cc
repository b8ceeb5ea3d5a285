#include "app/eval.h"

#include <chrono>
#include <filesystem>
#include <random>

#include "app/admin.h"
#include "app/ask.h"
#include "app/ingest.h"
#include "app/internal/eval_report.h"
#include "app/internal/session_state.h"
#include "app/internal_store.h"
#include "app/queries.h"
#include "core/time.h"
#include "eval/suite.h"
#include "search/search.h"

namespace kebab::app {

namespace fs = std::filesystem;

namespace {

// RFC 9562 UUIDv7: 48 bits of Unix milliseconds, then random bits, so ids sort by time.
std::string NewEvalRunId() {
  const uint64_t ms = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                std::chrono::system_clock::now().time_since_epoch())
                                                .count());
  std::random_device rd;
  uint8_t b[16];
  for (int i = 0; i < 6; ++i) b[i] = static_cast<uint8_t>(ms >> (8 * (5 - i)));
  for (int i = 6; i < 16; ++i) b[i] = static_cast<uint8_t>(rd());
  b[6] = static_cast<uint8_t>(0x70 | (b[6] & 0x0f));
  b[8] = static_cast<uint8_t>(0x80 | (b[8] & 0x3f));
  static const char* hex = "0123456789abcdef";
  std::string id = "run_";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) id += '-';
    id += hex[b[i] >> 4];
    id += hex[b[i] & 0xf];
  }
  return id;
}

double MsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// The suite and the config that measures it: a YAML file over the configured knowledge base,
// or an imported collection.
struct ResolvedSuite {
  eval::Suite suite;
  config::Config config;
  bool collection = false;
};

Result<ResolvedSuite> ResolveSuite(const config::Config& config, const std::string& name) {
  if (name.empty()) {
    return InvalidInput("no suite given",
                        "pass --suite PATH.yaml, or the name of a collection "
                        "from `kebab eval import`");
  }
  std::error_code ec;
  if (fs::is_regular_file(name, ec)) {
    KEBAB_ASSIGN_OR_RETURN(eval::Suite suite, eval::LoadSuite(fs::absolute(name).string()));
    return ResolvedSuite{std::move(suite), config, false};
  }
  const fs::path collection_suite = fs::path(CollectionDir(config, name)) / "suite.yaml";
  if (name.find('/') == std::string::npos && fs::is_regular_file(collection_suite, ec)) {
    KEBAB_ASSIGN_OR_RETURN(eval::Suite suite, eval::LoadSuite(collection_suite.string()));
    return ResolvedSuite{std::move(suite), CollectionConfig(config, name), true};
  }
  return InvalidInput("no suite file or imported collection named `" + name + "`",
                      "pass a golden YAML file, or import a collection first: kebab eval import "
                      "--format beir DIR (see `kebab eval list`)");
}

// The judgements of one golden query in store ids; a reference the index lacks is an error
// naming the suite line, since a typo would otherwise read as a retrieval failure.
Result<eval::Judgements> Resolve(store::Store& store, const eval::Suite& suite,
                                 const eval::GoldenQuery& q,
                                 std::map<std::string, std::string>* doc_of_chunk) {
  const std::string file = fs::path(suite.path).filename().string();
  auto missing = [&](int line, const std::string& what) {
    return InvalidInput(file + ":" + std::to_string(line) + ": query `" + q.id + "`: " + what +
                            " is not in the index",
                        "fix the suite, or run `kebab ingest` if the file is new");
  };
  eval::Judgements j;
  for (const eval::ExpectedId& e : q.expected_chunk_ids) {
    KEBAB_ASSIGN_OR_RETURN(auto chunk, store.GetChunk(e.id));
    if (!chunk) return missing(e.line, "chunk " + e.id);
    (*doc_of_chunk)[e.id] = chunk->chunk.doc_id;
    if (e.grade > 0) j.chunks[e.id] = std::max(j.chunks[e.id], e.grade);
  }
  for (const eval::ExpectedId& e : q.expected_doc_ids) {
    KEBAB_ASSIGN_OR_RETURN(auto doc, store.GetDocument(e.id));
    if (!doc) return missing(e.line, "document " + e.id);
    if (e.grade > 0) j.docs[e.id] = std::max(j.docs[e.id], e.grade);
  }
  for (const eval::ExpectedPath& p : q.expected_paths) {
    KEBAB_ASSIGN_OR_RETURN(auto doc_id, store.DocIdOfPath(p.path));
    if (!doc_id) return missing(p.line, p.path);
    if (p.grade <= 0) continue;
    if (p.line_start > 0) {
      j.lines.push_back({*doc_id, p.line_start, p.line_end, p.grade});
    } else {
      j.docs[*doc_id] = std::max(j.docs[*doc_id], p.grade);
    }
  }
  return j;
}

std::vector<EvalHit> HitsOf(const std::vector<search::SearchHit>& hits, const eval::Judgements& j) {
  std::vector<EvalHit> out;
  for (const search::SearchHit& h : hits) {
    EvalHit e{h.rank,
              h.chunk.chunk.chunk_id,
              h.chunk.chunk.doc_id,
              h.chunk.doc_path,
              static_cast<int>(h.citation.line_start),
              static_cast<int>(h.citation.line_end),
              h.score,
              0};
    e.grade = eval::GradeOf({e.chunk_id, e.doc_id, e.line_start, e.line_end}, j);
    out.push_back(std::move(e));
  }
  return out;
}

bool ContainsFolded(const std::string& haystack, const std::string& needle) {
  auto fold = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  return fold(haystack).find(fold(needle)) != std::string::npos;
}

EvalAnswer ScoreAnswer(const rag::Answer& a, const eval::GoldenQuery& q) {
  EvalAnswer out;
  out.text = a.answer;
  out.trace_id = a.retrieval.trace_id;
  out.grounded = a.grounded;
  if (a.refusal_reason) out.refusal_reason = std::string(rag::RefusalReasonName(*a.refusal_reason));
  out.citations = static_cast<int>(a.citations.size());
  out.latency_ms = a.timings.total_ms;
  if (!q.must_contain.empty()) {
    out.must_contain_pass = std::all_of(q.must_contain.begin(), q.must_contain.end(),
                                        [&](const auto& s) { return ContainsFolded(a.answer, s); });
  }
  if (!q.forbidden.empty()) {
    out.forbidden_pass = std::none_of(q.forbidden.begin(), q.forbidden.end(),
                                      [&](const auto& s) { return ContainsFolded(a.answer, s); });
  }
  if (q.unanswerable || q.has_judgements()) {
    out.refusal_correct = q.unanswerable ? !a.grounded : a.grounded;
  }
  out.citations_complete = a.grounded && !a.citations.empty() &&
                           std::all_of(a.citations.begin(), a.citations.end(),
                                       [](const auto& c) { return !c.citation.path.empty(); });
  return out;
}

nlohmann::json Snapshot(const config::Config& config, const ResolvedSuite& s,
                        const EvalRunOptions& options, SearchMode mode,
                        const std::string& embedding_space) {
  nlohmann::json versions = {
      {"kebab", kKebabVersion},
      {"chunker", config.chunking.chunker_version},
      {"lexical_index", search::LexicalIndexVersion(config.search.stemmer)},
      {"embedding_space", embedding_space},
      {"prompt_template", config.rag.prompt_template_version},
      {"fusion", {{"method", config.search.hybrid_fusion}, {"rrf_k", config.search.rrf_k}}}};
  return {{"config", config::ToJson(config)},
          {"versions", versions},
          {"eval",
           {{"suite", s.suite.name},
            {"suite_path", s.suite.path},
            {"collection", s.collection},
            {"mode", SearchModeName(mode)},
            {"k", options.k},
            {"with_rag", options.with_rag}}}};
}

}  // namespace

std::string CollectionDir(const config::Config& config, const std::string& name) {
  return (fs::path(config.storage.data_dir) / "eval" / name).string();
}

config::Config CollectionConfig(const config::Config& config, const std::string& name) {
  const fs::path dir = CollectionDir(config, name);
  config::Config c = config;
  c.workspace.root = dir.string();
  c.workspace.exclude = {"data/**", "runs/**"};
  c.storage.data_dir = (dir / "data").string();
  c.storage.sqlite = (dir / "data" / "kebab.sqlite").string();
  c.storage.asset_dir = (dir / "data" / "assets").string();
  c.storage.artifact_dir = (dir / "data" / "artifacts").string();
  c.storage.runs_dir = (dir / "runs").string();
  return c;
}

Result<EvalRun> RunEval(Session& base_session, const EvalRunOptions& options) {
  KEBAB_ASSIGN_OR_RETURN(ResolvedSuite resolved,
                         ResolveSuite(base_session.config(), options.suite));
  if (options.k < 1) return InvalidInput("--k must be at least 1");
  const SearchMode mode = options.mode.value_or(SearchMode::kLexical);
  // A collection is measured in a session of its own config. Its index is the collection's,
  // kept up to date by eval itself (not the user's index), so it is written even under
  // --readonly, as `eval import` made it.
  std::unique_ptr<Session> collection_session;
  if (resolved.collection) collection_session = std::make_unique<Session>(resolved.config);
  Session& session = collection_session ? *collection_session : base_session;
  const config::Config& config = session.config();
  if (resolved.collection) {
    // The collection's index follows the current config (stemmer, chunker, embedding model);
    // an unchanged one costs a walk of its files.
    KEBAB_ASSIGN_OR_RETURN(IngestReport ingest, Ingest(session, IngestOptions{.summary_only = true},
                                                       {}, options.cancel));
    if (ingest.aborted) return Status(ErrorCode::kCancelled, "eval cancelled while indexing");
  }

  EvalRun run;
  run.run_id = NewEvalRunId();
  run.suite = resolved.suite.name;
  run.suite_path = resolved.suite.path;
  run.created_at = NowRfc3339();
  run.commit_hash = options.commit_hash;
  run.mode = std::string(SearchModeName(mode));
  run.k = options.k;
  run.with_rag = options.with_rag;

  std::vector<eval::Judgements> judgements;
  std::vector<std::map<std::string, std::string>> doc_of_chunk(resolved.suite.queries.size());
  {
    KEBAB_ASSIGN_OR_RETURN(auto store, OpenStore(config, /*readonly=*/true));
    for (size_t i = 0; i < resolved.suite.queries.size(); ++i) {
      KEBAB_ASSIGN_OR_RETURN(
          eval::Judgements j,
          Resolve(*store, resolved.suite, resolved.suite.queries[i], &doc_of_chunk[i]));
      judgements.push_back(std::move(j));
    }
  }

  // One model for the whole run; a model that cannot be opened fails the run up front rather
  // than every query.
  if (options.with_rag) {
    KEBAB_RETURN_IF_ERROR(session.state().LanguageModel(config).status());
  }
  const std::vector<int> cut_offs = eval::CutOffs(options.k);
  std::string embedding_space;
  const int total = static_cast<int>(resolved.suite.queries.size());
  for (int i = 0; i < total; ++i) {
    if (options.cancel != nullptr && options.cancel->load()) {
      return Status(ErrorCode::kCancelled, "eval cancelled; nothing was recorded");
    }
    const eval::GoldenQuery& q = resolved.suite.queries[i];
    EvalQueryResult r{.id = q.id,
                      .query = q.query,
                      .group = q.group,
                      .difficulty = q.difficulty,
                      .unanswerable = q.unanswerable};
    const auto start = std::chrono::steady_clock::now();
    std::vector<search::SearchHit> hits;
    if (options.with_rag) {
      AskRequest ask{.question = q.query, .mode = mode, .k = options.k};
      ask.temperature = options.temperature;
      ask.seed = options.seed;
      ask.cancel = options.cancel;
      Result<AskResult> answer = Ask(session, ask, {});
      if (answer.ok()) {
        hits = answer->answer.hits;
        r.answer = ScoreAnswer(answer->answer, q);
        if (answer->answer.embedding) embedding_space = answer->answer.embedding->id;
      } else {
        r.error = answer.status().ToString();
      }
    } else {
      search::SearchRequest request{.query = q.query, .mode = mode, .k = options.k};
      Result<search::SearchResponse> response = Search(session, request);
      if (response.ok()) {
        hits = std::move(response->hits);
        if (!response->embedding_model.empty()) embedding_space = response->embedding_model;
      } else if (response.status().code() == ErrorCode::kInvalidInput) {
        r.error = response.status().ToString();  // e.g. a query with no searchable words
      } else {
        return response.status();  // the index or model is unusable: every query would fail
      }
    }
    r.latency_ms = MsSince(start);
    r.hits = HitsOf(hits, judgements[i]);
    std::vector<eval::RankedHit> ranked;
    for (const EvalHit& h : r.hits)
      ranked.push_back({h.chunk_id, h.doc_id, h.line_start, h.line_end});
    r.metrics = eval::ScoreQuery(ranked, judgements[i], doc_of_chunk[i], cut_offs);
    run.queries.push_back(std::move(r));
    if (options.progress) options.progress(i + 1, total);
  }

  run.config_snapshot = Snapshot(config, resolved, options, mode, embedding_space);
  run.aggregate = internal::Aggregate(run.queries);
  if (options.record && !base_session.readonly()) {
    run.report_dir = (fs::path(config.storage.runs_dir) / run.run_id).string();
    KEBAB_RETURN_IF_ERROR(internal::RecordRun(config, run));
  }
  return run;
}

}  // namespace kebab::app
