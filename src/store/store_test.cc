#include "store/store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "core/hash.h"
#include "core/ids.h"
#include "store/migrations.h"
#include "store/store_file_test.h"
#include "store/testing.h"
#include "text/fts5_tokenizer.h"

namespace kebab::store {
namespace {

namespace fs = std::filesystem;

class StoreTest : public StoreFileTest {
 protected:
  static DocumentWrite MakeDoc(const std::string& path, const std::vector<std::string>& texts,
                               const std::string& content = "v1") {
    return MakeTestDocument(path, texts, content);
  }

  std::vector<LexicalRow> Search(Store& s, const std::string& match, SearchFilters filters = {}) {
    auto rows = s.LexicalSearch({.match = match, .filters = filters, .limit = 10});
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    return rows.ok() ? std::move(rows).value() : std::vector<LexicalRow>{};
  }

  // The texts of a stored document's blocks, in order.
  static std::vector<std::string> BlockTexts(Store& s, const std::string& doc_id) {
    std::vector<std::string> out;
    auto doc = s.GetDocument(doc_id);
    EXPECT_TRUE(doc.ok() && doc->has_value());
    if (doc.ok() && doc->has_value()) {
      for (const Block& blk : (*doc)->doc.blocks) out.push_back(blk.text);
    }
    return out;
  }
};

TEST_F(StoreTest, MigratesAndReportsSchema) {
  auto s = Open();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->schema_version(), LatestSchemaVersion());
  auto rev = s->CorpusRevision();
  ASSERT_TRUE(rev.ok());
  EXPECT_EQ(*rev, 0);
  auto ic = s->IntegrityCheck();
  ASSERT_TRUE(ic.ok());
  EXPECT_EQ(*ic, "ok");
}

TEST_F(StoreTest, WriteSearchAndReplace) {
  auto s = Open();
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->WriteDocument(MakeDoc("a.md", {"alpha databases", "beta"})).ok());
  ASSERT_TRUE(s->WriteDocument(MakeDoc("b.md", {"데이터베이스는 빠르다"})).ok());
  auto rows = Search(*s, "\"database\"");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].chunk.doc_path, "a.md");
  EXPECT_GT(rows[0].bm25, 0);
  EXPECT_EQ(Search(*s, "\"데이터베이스\"").size(), 1u);

  // Replacing the document at a path removes the old chunks from the index.
  ASSERT_TRUE(s->WriteDocument(MakeDoc("a.md", {"gamma"}, "v2")).ok());
  EXPECT_TRUE(Search(*s, "\"database\"").empty());
  EXPECT_EQ(Search(*s, "gamma").size(), 1u);
  auto stats = s->Stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->doc_count, 2);
  EXPECT_EQ(stats->chunk_count, 2);
  EXPECT_EQ(stats->fts_rows, 2);
}

// Rewriting a document with unchanged content (a forced re-ingest) keeps its asset: the old
// document's removal orphans the asset for a moment, alone and inside a batch.
TEST_F(StoreTest, RewritingADocumentKeepsTheAssetItShares) {
  auto s = Open();
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->WriteDocument(MakeDoc("a.md", {"alpha"})).ok());
  ASSERT_TRUE(s->WriteDocument(MakeDoc("a.md", {"alpha"})).ok());
  ASSERT_TRUE(s->BeginBatch().ok());
  ASSERT_TRUE(s->WriteDocument(MakeDoc("a.md", {"alpha"})).ok());
  ASSERT_TRUE(s->WriteDocument(MakeDoc("b.md", {"beta"})).ok());
  ASSERT_TRUE(s->WriteDocument(MakeDoc("a.md", {"alpha", "more"})).ok());
  ASSERT_TRUE(s->CommitBatch().ok());
  auto stats = s->Stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->doc_count, 2);
  EXPECT_EQ(stats->asset_count, 2);
  EXPECT_EQ(stats->block_count, 3);
  EXPECT_EQ(stats->chunk_count, 3);
  EXPECT_EQ(stats->fts_rows, 3);
  EXPECT_EQ(Search(*s, "alpha").size(), 1u);
  EXPECT_EQ(Search(*s, "more").size(), 1u);
  auto ic = s->IntegrityCheck();
  ASSERT_TRUE(ic.ok());
  EXPECT_EQ(*ic, "ok");
}

TEST_F(StoreTest, ReadSnapshotHidesWritesCommittedWhileItLives) {
  auto writer = Open();
  ASSERT_TRUE(writer);
  ASSERT_TRUE(writer->WriteDocument(MakeDoc("a.md", {"alpha"})).ok());
  auto reader = Open("english", /*readonly=*/true);
  ASSERT_TRUE(reader);
  {
    Store::ReadSnapshot snapshot(*reader);
    EXPECT_EQ(Search(*reader, "alpha").size(), 1u);
    ASSERT_TRUE(writer->WriteDocument(MakeDoc("b.md", {"alpha again"})).ok());
    EXPECT_EQ(Search(*reader, "alpha").size(), 1u);
    EXPECT_EQ(reader->Stats()->doc_count, 1);
    {
      Store::ReadSnapshot nested(*reader);  // joins the open snapshot
      EXPECT_EQ(Search(*reader, "alpha").size(), 1u);
    }
    EXPECT_EQ(Search(*reader, "alpha").size(), 1u);
  }
  EXPECT_EQ(Search(*reader, "alpha").size(), 2u);
  EXPECT_EQ(reader->Stats()->doc_count, 2);
}

TEST_F(StoreTest, BlocksOfEachDocumentSurviveReplacingItsNeighbour) {
  auto s = Open();
  ASSERT_TRUE(s);
  const DocumentWrite a = MakeDoc("a.md", {"a one", "a two"});
  const DocumentWrite b = MakeDoc("b.md", {"b one"});
  ASSERT_TRUE(s->WriteDocument(a).ok());
  ASSERT_TRUE(s->WriteDocument(b).ok());
  const DocumentWrite a2 = MakeDoc("a.md", {"new one", "new two", "new three"}, "v2");
  ASSERT_TRUE(s->WriteDocument(a2).ok());

  EXPECT_EQ(BlockTexts(*s, a2.doc.doc_id),
            (std::vector<std::string>{"new one", "new two", "new three"}));
  EXPECT_EQ(BlockTexts(*s, b.doc.doc_id), (std::vector<std::string>{"b one"}));
  auto stats = s->Stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->block_count, 4);
  EXPECT_EQ(stats->fts_rows, 4);
  EXPECT_TRUE(Search(*s, "\"a one\"").empty());
}

// Blocks go in several rows per statement, with rowids SQLite assigns: documents of more blocks
// than one statement takes keep them in order, also after a batch replaced the newest
// document (whose blocks were the last rowids) by a longer one.
TEST_F(StoreTest, ManyBlocksKeepTheirOrderAcrossStatementsAndReplacements) {
  auto s = Open();
  ASSERT_TRUE(s);
  auto numbered = [](const std::string& prefix, int n) {
    std::vector<std::string> texts;
    for (int i = 0; i < n; ++i) texts.push_back(prefix + " " + std::to_string(i));
    return texts;
  };
  ASSERT_TRUE(s->BeginBatch().ok());
  const DocumentWrite a = MakeDoc("a.md", numbered("alpha", 20));
  ASSERT_TRUE(s->WriteDocument(a).ok());
  ASSERT_TRUE(s->WriteDocument(MakeDoc("b.md", numbered("beta", 3))).ok());
  const DocumentWrite b2 = MakeDoc("b.md", numbered("bravo", 9), "v2");
  ASSERT_TRUE(s->WriteDocument(b2).ok());
  const DocumentWrite c = MakeDoc("c.md", numbered("gamma", 8));
  ASSERT_TRUE(s->WriteDocument(c).ok());
  ASSERT_TRUE(s->CommitBatch().ok());
  EXPECT_EQ(BlockTexts(*s, a.doc.doc_id), numbered("alpha", 20));
  EXPECT_EQ(BlockTexts(*s, b2.doc.doc_id), numbered("bravo", 9));
  EXPECT_EQ(BlockTexts(*s, c.doc.doc_id), numbered("gamma", 8));
  auto stats = s->Stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->block_count, 37);
  auto ic = s->IntegrityCheck();
  ASSERT_TRUE(ic.ok());
  EXPECT_EQ(*ic, "ok");
}

// A database written by schema v1 (FTS triggers, blocks indexed by doc_id) opens, migrates,
// and keeps serving and replacing its documents.
TEST_F(StoreTest, UpgradesAVersionOneDatabase) {
  fs::create_directories(dir_);
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    ASSERT_TRUE(text::RegisterKebabTokenizer(db, "english").ok());
    ASSERT_TRUE(ApplyMigrations(db, 1).ok());
    auto v = CurrentSchemaVersion(db);
    ASSERT_TRUE(v.ok());
    EXPECT_EQ(*v, 1);
    const char* rows =
        "INSERT INTO assets VALUES ('as1', '/ws/old.md', 'old.md', 'markdown', 5, 'c', "
        "'reference', '/ws/old.md', 't');"
        "INSERT INTO documents(doc_id, asset_id, workspace_path, source_uri, title, lang, "
        "source_type, trust_level, parser_version, doc_version, schema_version, metadata_json, "
        "provenance_json, created_at, updated_at, ingested_at) VALUES ('d1', 'as1', 'old.md', "
        "'/ws/old.md', 'Old', 'en', 'markdown', 'primary', 'p1', 1, 1, '{}', '[]', 't', 't', "
        "'t');"
        "INSERT INTO blocks(block_id, doc_id, kind, heading_path_json, ordinal, "
        "source_span_json, payload_json) VALUES "
        "('b2', 'd1', 'paragraph', '[]', 1, '{\"end\":3,\"kind\":\"line\",\"start\":3}', "
        "'{\"text\":\"second\"}'),"
        "('b1', 'd1', 'paragraph', '[]', 0, '{\"end\":1,\"kind\":\"line\",\"start\":1}', "
        "'{\"text\":\"first\"}');"
        "INSERT INTO chunks(chunk_id, doc_id, ordinal, text, heading_path_json, "
        "source_spans_json, token_estimate, chunker_version, policy_hash, block_ids_json, "
        "created_at) VALUES ('c1', 'd1', 0, 'legacy zebra text', '[]', '[]', 3, 'md-heading-v2', "
        "'ph', '[\"b1\",\"b2\"]', 't');";
    ASSERT_EQ(sqlite3_exec(db, rows, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
  }
  auto s = Open();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->schema_version(), LatestSchemaVersion());
  auto doc = s->GetDocument("d1");
  ASSERT_TRUE(doc.ok() && doc->has_value());
  ASSERT_EQ((*doc)->doc.blocks.size(), 2u);
  EXPECT_EQ((*doc)->doc.blocks[0].text, "first");
  EXPECT_EQ((*doc)->doc.blocks[1].text, "second");
  EXPECT_EQ(Search(*s, "zebra").size(), 1u);

  // Replacing it removes the old chunk from the index (the trigger that used to do it is gone).
  ASSERT_TRUE(s->WriteDocument(MakeDoc("old.md", {"fresh giraffe"}, "v2")).ok());
  EXPECT_TRUE(Search(*s, "zebra").empty());
  EXPECT_EQ(Search(*s, "giraffe").size(), 1u);
  auto stats = s->Stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->block_count, 1);
  EXPECT_EQ(stats->fts_rows, 1);
  ExpectIntact(*s);
}

// Inside a batch a replaced document's FTS entries are removed at commit; the new chunks must
// not reuse the old rowids meanwhile, or that late delete would strip terms they share.
// Bulk writes with checkpoints on a second thread: the log stays near its cap (a checkpoint
// beside a busy writer never lets it rewind by itself), the database file takes the pages as
// the run goes, and nothing is lost.
TEST_F(StoreTest, BackgroundCheckpointsKeepTheLogBoundedAndLoseNothing) {
  auto s = Open();
  ASSERT_TRUE(s);
  constexpr int64_t kCap = 2 << 20;
  ASSERT_TRUE(s->CheckpointInBackground(kCap).ok());
  const std::string wal = path_ + "-wal";
  const std::string filler(3000, 'x');
  uintmax_t largest_log = 0;
  int docs = 0;
  for (int batch = 0; batch < 40; ++batch) {
    ASSERT_TRUE(s->BeginBatch().ok());
    for (int d = 0; d < 20; ++d, ++docs) {
      std::vector<std::string> texts;
      for (int c = 0; c < 4; ++c) {
        texts.push_back("doc " + std::to_string(docs) + " part " + std::to_string(c) + " " +
                        filler);
      }
      ASSERT_TRUE(s->WriteDocument(MakeDoc("bulk/" + std::to_string(docs) + ".md", texts)).ok());
    }
    ASSERT_TRUE(s->CommitBatch().ok());
    largest_log = std::max(largest_log, fs::file_size(wal));
  }
  // Each batch adds ~0.5 MB: without the cap the log would pass 20 MB.
  EXPECT_LT(largest_log, static_cast<uintmax_t>(kCap) + (3 << 20));
  EXPECT_GT(fs::file_size(path_), 10u << 20) << "the database file never received the pages";
  ASSERT_TRUE(s->Checkpoint().ok());
  EXPECT_EQ(fs::file_size(wal), 0u);
  auto stats = s->Stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->doc_count, docs);
  EXPECT_EQ(stats->chunk_count, 4 * docs);
  EXPECT_EQ(Search(*s, "\"doc 799 part 3\"").size(), 1u);
}

TEST_F(StoreTest, ReplacingTheNewestDocumentInABatchKeepsSharedTerms) {
  auto s = Open();
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->WriteDocument(MakeDoc("a.md", {"shared alpha"})).ok());
  ASSERT_TRUE(s->BeginBatch().ok());
  ASSERT_TRUE(s->WriteDocument(MakeDoc("a.md", {"shared beta"}, "v2")).ok());
  ASSERT_TRUE(s->WriteDocument(MakeDoc("a.md", {"shared gamma"}, "v3")).ok());
  ASSERT_TRUE(s->CommitBatch().ok());
  EXPECT_EQ(Search(*s, "shared").size(), 1u);
  EXPECT_EQ(Search(*s, "gamma").size(), 1u);
  EXPECT_TRUE(Search(*s, "alpha").empty());
  EXPECT_TRUE(Search(*s, "beta").empty());
  auto fts = s->FullTextIntegrityCheck();
  ASSERT_TRUE(fts.ok());
  EXPECT_EQ(*fts, "ok");
}

TEST_F(StoreTest, VectorsAreKeyedByTextSoMovesAndDuplicatesNeedNoNewEmbedding) {
  auto s = Open();
  ASSERT_TRUE(s);
  const SpaceKey key{"llama", "tiny", "v1", 2, "passage: "};
  auto space = s->EnsureSpace(key);
  ASSERT_TRUE(space.ok()) << space.status().ToString();
  auto again = s->EnsureSpace(key);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *space);
  auto other = s->EnsureSpace({"llama", "tiny", "v2", 2, "passage: "});
  ASSERT_TRUE(other.ok());
  EXPECT_NE(*other, *space);

  ASSERT_TRUE(s->WriteDocument(MakeDoc("a.md", {"same text", "only in a"})).ok());
  ASSERT_TRUE(s->WriteDocument(MakeDoc("b.md", {"same text"})).ok());
  auto pending = s->TextsWithoutVectors(*space, 10);
  ASSERT_TRUE(pending.ok());
  ASSERT_EQ(pending->size(), 3u);  // every chunk, "same text" twice
  EXPECT_EQ(*s->CountTextsWithoutVectors(*space), 2);
  auto page = s->TextsWithoutVectors(*space, 10, (*pending)[1].chunk_rowid);
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->size(), 1u);
  EXPECT_EQ((*page)[0].chunk_rowid, (*pending)[2].chunk_rowid);
  std::vector<std::string> hashes;
  std::vector<std::vector<float>> vectors;
  for (const PendingText& p : *pending) {
    // The key written with the chunk is the one vectors are stored under for its text.
    EXPECT_EQ(p.text_hash, Blake3Key16(p.text));
    hashes.push_back(p.text_hash);
    vectors.push_back(p.text == "same text" ? std::vector<float>{1, 0} : std::vector<float>{0, 1});
  }
  ASSERT_TRUE(s->PutVectors(*space, hashes, vectors).ok());
  EXPECT_EQ(*s->CountTextsWithoutVectors(*space), 0);
  EXPECT_EQ(*s->CountTextsWithoutVectors(*other), 2);

  // Moving a file (same text at a new path) needs no new vector.
  ASSERT_TRUE(s->PurgePath("a.md").ok());
  ASSERT_TRUE(s->WriteDocument(MakeDoc("moved/a.md", {"same text", "only in a"})).ok());
  EXPECT_EQ(*s->CountTextsWithoutVectors(*space), 0);
  auto spaces = s->ListSpaces();
  ASSERT_TRUE(spaces.ok());
  ASSERT_EQ(spaces->size(), 2u);
  EXPECT_EQ((*spaces)[0].vector_count, 2);
}

TEST_F(StoreTest, ExactVectorSearchRanksByCosineFiltersInsideAndBreaksTiesById) {
  auto s = Open();
  ASSERT_TRUE(s);
  auto space = s->EnsureSpace({"llama", "tiny", "v1", 2, ""});
  ASSERT_TRUE(space.ok());
  ASSERT_TRUE(s->WriteDocument(MakeDoc("x/one.md", {"north", "east"})).ok());
  ASSERT_TRUE(s->WriteDocument(MakeDoc("y/two.md", {"north twin", "south"})).ok());
  auto pending = s->TextsWithoutVectors(*space, 10);
  ASSERT_TRUE(pending.ok());
  std::vector<std::string> hashes;
  std::vector<std::vector<float>> vectors;
  for (const PendingText& p : *pending) {
    hashes.push_back(p.text_hash);
    if (p.text == "north" || p.text == "north twin") vectors.push_back({0, 1});
    if (p.text == "east") vectors.push_back({1, 0});
    if (p.text == "south") vectors.push_back({0, -1});
  }
  ASSERT_TRUE(s->PutVectors(*space, hashes, vectors).ok());

  auto texts = [&](const std::vector<VectorHit>& hits) {
    std::vector<int64_t> rowids;
    for (const auto& h : hits) rowids.push_back(h.chunk_rowid);
    std::vector<std::string> out;
    auto rows = s->ChunksByRowid(rowids);
    EXPECT_TRUE(rows.ok());
    if (rows.ok()) {
      for (const auto& row : *rows) out.push_back(row.chunk.chunk.text);
    }
    return out;
  };
  auto hits = s->ExactVectorSearch(*space, {0, 1}, {}, 3);
  ASSERT_TRUE(hits.ok()) << hits.status().ToString();
  ASSERT_EQ(hits->size(), 3u);
  EXPECT_NEAR((*hits)[0].similarity, 1.0, 1e-6);
  EXPECT_NEAR((*hits)[2].similarity, 0.0, 1e-6);
  // "north" and "north twin" tie at 1.0: the smaller chunk id comes first.
  auto rows = s->ChunksByRowid({(*hits)[0].chunk_rowid, (*hits)[1].chunk_rowid});
  ASSERT_TRUE(rows.ok());
  EXPECT_LT((*rows)[0].chunk.chunk.chunk_id, (*rows)[1].chunk.chunk.chunk_id);
  EXPECT_EQ(texts(*hits)[2], "east");

  // A filter runs inside the scan: k hits from the matching documents only.
  SearchFilters only_y;
  only_y.path_glob = "y/**";
  auto filtered = s->ExactVectorSearch(*space, {0, 1}, only_y, 2);
  ASSERT_TRUE(filtered.ok());
  EXPECT_EQ(texts(*filtered), (std::vector<std::string>{"north twin", "south"}));
}

TEST_F(StoreTest, PurgeRemovesEverything) {
  auto s = Open();
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->WriteDocument(MakeDoc("a.md", {"alpha"})).ok());
  ASSERT_TRUE(s->PurgePath("a.md").ok());
  auto stats = s->Stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->doc_count, 0);
  EXPECT_EQ(stats->asset_count, 0);
  EXPECT_EQ(stats->block_count, 0);
  EXPECT_EQ(stats->fts_rows, 0);
  EXPECT_TRUE(Search(*s, "alpha").empty());
}

TEST_F(StoreTest, FiltersApplyInsideTheQuery) {
  auto s = Open();
  ASSERT_TRUE(s);
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(s->WriteDocument(MakeDoc("x/" + std::to_string(i) + ".md", {"common"})).ok());
  }
  ASSERT_TRUE(s->WriteDocument(MakeDoc("y/only.md", {"common"})).ok());
  SearchFilters f;
  f.path_glob = "y/*.md";
  auto rows = Search(*s, "common", f);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].chunk.doc_path, "y/only.md");
  f = {};
  f.tags_any = {"nope"};
  EXPECT_TRUE(Search(*s, "common", f).empty());
  f = {};
  f.lang = "en";
  EXPECT_EQ(Search(*s, "common", f).size(), 6u);
}

TEST_F(StoreTest, DeterministicTieBreakByChunkId) {
  auto s = Open();
  ASSERT_TRUE(s);
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(s->WriteDocument(MakeDoc("d" + std::to_string(i) + ".md", {"same text"})).ok());
  }
  auto rows = Search(*s, "same");
  ASSERT_EQ(rows.size(), 4u);
  for (size_t i = 1; i < rows.size(); ++i) {
    EXPECT_LT(rows[i - 1].chunk.chunk.chunk_id, rows[i].chunk.chunk.chunk_id);
  }
}

TEST_F(StoreTest, BadMatchSyntaxIsInvalidInput) {
  auto s = Open();
  ASSERT_TRUE(s);
  auto rows = s->LexicalSearch({.match = "AND OR (", .limit = 10});
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), ErrorCode::kInvalidInput);
}

TEST_F(StoreTest, StemmerChangeRebuildsIndex) {
  {
    auto s = Open("none");
    ASSERT_TRUE(s);
    ASSERT_TRUE(s->WriteDocument(MakeDoc("a.md", {"running fast"})).ok());
    EXPECT_TRUE(Search(*s, "run").empty());
  }
  auto s = Open("english");
  ASSERT_TRUE(s);
  EXPECT_EQ(Search(*s, "run").size(), 1u);
  auto ro = Open("none", /*readonly=*/true);
  ASSERT_TRUE(ro);
  EXPECT_EQ(ro->stemmer(), "english") << "readonly opens analyze queries like the index";
}

TEST_F(StoreTest, ReadonlyOpenOfMissingIndexIsNotIndexed) {
  auto s = Store::Open(path_, {.readonly = true});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), ErrorCode::kNotIndexed);
}

TEST_F(StoreTest, RevisionBumps) {
  auto s = Open();
  ASSERT_TRUE(s);
  auto r1 = s->BumpCorpusRevision();
  auto r2 = s->BumpCorpusRevision();
  ASSERT_TRUE(r1.ok() && r2.ok());
  EXPECT_EQ(*r1, 1);
  EXPECT_EQ(*r2, 2);
}

TEST_F(StoreTest, AnswersAreKeptWholeAndRefusalsToo) {
  auto s = Open();
  ASSERT_TRUE(s);
  AnswerRecord refusal{.trace_id = "ret_00000001",
                       .query = "what is our revenue?",
                       .answer = "Not enough evidence.",
                       .refusal_reason = "score_gate",
                       .model_id = "qwen",
                       .model_provider = "ollama",
                       .prompt_template_version = "rag-v2",
                       .retrieval_mode = "lexical",
                       .retrieval_k = 10,
                       .score_gate = 0.3,
                       .top_score = 0.1,
                       .citations_json = "[]",
                       .created_at = "2026-11-24T10:00:00Z",
                       .answer_json = R"({"grounded":false})"};
  ASSERT_TRUE(s->RecordAnswer(refusal).ok());
  AnswerRecord grounded = refusal;
  grounded.trace_id = "ret_00000002";
  grounded.grounded = true;
  grounded.refusal_reason.reset();
  grounded.packed_chunks_json = R"([{"n":1}])";
  grounded.answer_json = R"({"grounded":true})";
  ASSERT_TRUE(s->RecordAnswer(grounded).ok());

  auto first = s->AnswerJson("ret_00000001");
  ASSERT_TRUE(first.ok() && first->has_value());
  EXPECT_EQ(**first, R"({"grounded":false})");
  auto packed = s->PackedChunksJson("ret_00000002");
  ASSERT_TRUE(packed.ok() && packed->has_value());
  EXPECT_EQ(**packed, R"([{"n":1}])");
  auto none = s->PackedChunksJson("ret_00000001");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value()) << "packed chunks are kept for --explain asks only";
  auto missing = s->AnswerJson("ret_ffffffff");
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());
}

TEST_F(StoreTest, EvalRunsKeepTheirQueriesInOrderAndListNewestFirst) {
  auto s = Open();
  ASSERT_TRUE(s);
  EvalRunRecord older{.run_id = "run_a",
                      .suite = "notes",
                      .config_snapshot_json = R"({"mode":"lexical"})",
                      .aggregate_json = R"({"mrr@10":0.5})",
                      .created_at = "2026-11-24T10:00:00Z"};
  ASSERT_TRUE(s->RecordEvalRun(older, {{"q2", R"({"rank":1})"}, {"q1", R"({"rank":0})"}}).ok());
  EvalRunRecord newer = older;
  newer.run_id = "run_b";
  newer.commit_hash = "abc123";
  newer.created_at = "2026-11-24T11:00:00Z";
  ASSERT_TRUE(s->RecordEvalRun(newer, {}).ok());
  // A run id used twice fails and leaves no half-written rows.
  EXPECT_FALSE(s->RecordEvalRun(older, {{"q9", "{}"}}).ok());

  auto runs = s->ListEvalRuns(0);
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 2u);
  EXPECT_EQ((*runs)[0].run_id, "run_b");
  EXPECT_EQ((*runs)[0].commit_hash, "abc123");
  EXPECT_FALSE((*runs)[1].commit_hash.has_value());
  auto results = s->EvalQueryResults("run_a");
  ASSERT_TRUE(results.ok());
  ASSERT_EQ(results->size(), 2u);
  EXPECT_EQ((*results)[0].query_id, "q2");
  EXPECT_EQ((*results)[1].result_json, R"({"rank":0})");

  ASSERT_TRUE(s->SetEvalAggregate("run_a", R"({"mrr@10":0.75})").ok());
  auto run = s->GetEvalRun("run_a");
  ASSERT_TRUE(run.ok() && run->has_value());
  EXPECT_EQ((*run)->aggregate_json, R"({"mrr@10":0.75})");
  auto none = s->GetEvalRun("run_zz");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

}  // namespace
}  // namespace kebab::store
