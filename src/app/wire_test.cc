#include "app/wire.h"

#include <gtest/gtest.h>

namespace kebab::app::wire {
namespace {

std::string Dumped(const IngestEvent& e) {
  return IngestProgress(e).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

IngestEvent Event(IngestEvent::Kind kind, std::string path) {
  IngestEvent e{.kind = kind};
  e.ts = "2026-11-24T21:24:25Z";
  e.total = 38405;
  e.idx = 12;
  e.path = std::move(path);
  e.media = "markdown";
  e.result = "new";
  e.chunks = 3;
  e.ms = 7;
  return e;
}

// The hand-written per-file lines must stay byte-identical to the json object's dump, for
// every path a file system can hand us.
TEST(IngestProgressLineTest, PerFileEventsMatchTheJsonDumpByteForByte) {
  const std::vector<std::string> paths = {
      "notes/a.md",
      "노트/데이터베이스.md",
      "odd/\"quoted\" back\\slash.md",
      std::string("ctl/tab\tnew\nline\x01\x1f.md"),
      "emoji/😀 ünïcode.md",
      "bad/\xff\xfe-latin1-\xe9.md",  // not UTF-8: replacement characters, as nlohmann writes
  };
  for (const std::string& path : paths) {
    for (auto kind : {IngestEvent::Kind::kAssetStarted, IngestEvent::Kind::kAssetFinished}) {
      IngestEvent e = Event(kind, path);
      EXPECT_EQ(IngestProgressLine(e), Dumped(e)) << path;
    }
  }
}

TEST(IngestProgressLineTest, OtherEventsAreTheJsonDump) {
  IngestEvent scan = Event(IngestEvent::Kind::kScanStarted, "");
  scan.root = "/home/me/kb";
  EXPECT_EQ(IngestProgressLine(scan), Dumped(scan));
  IngestEvent purged = Event(IngestEvent::Kind::kPurged, "gone.md");
  EXPECT_EQ(IngestProgressLine(purged), Dumped(purged));
  const std::string line = IngestProgressLine(Event(IngestEvent::Kind::kAssetFinished, "a.md"));
  EXPECT_EQ(json::parse(line)["kind"], "asset_finished");
  EXPECT_EQ(line.back(), '\n');
}

// A client of `kebab serve` reads the objects back and renders them as an in-process call
// does: every field the wire carries survives the round trip.
TEST(WireParseTest, IngestProgressAndReportReadBackWhole) {
  using K = IngestEvent::Kind;
  for (K kind :
       {K::kScanStarted, K::kScanCompleted, K::kAssetStarted, K::kAssetProgress, K::kOcrStarted,
        K::kOcrFinished, K::kAssetFinished, K::kPurged, K::kEmbedBatchStarted,
        K::kEmbedBatchFinished, K::kIndexStarted, K::kIndexFinished, K::kCompleted, K::kAborted}) {
    IngestEvent e = Event(kind, "노트/a.md");
    e.root = "/ws";
    e.done = 3;
    e.of = 41;
    e.unit = "page";
    e.page = 2;
    e.ocr_chars = 812;
    e.ocr_cached = true;
    e.ocr_engine = "tesseract 5.3.0";
    e.failure = "timeout";
    e.index_kind = "hnsw";
    e.vectors = 9;
    e.counts = {.scanned = 5, .new_docs = 2, .updated = 1, .purged = 1, .chunks_indexed = 7};
    const json once = IngestProgress(e);
    Result<IngestEvent> back = ParseIngestProgress(once);
    ASSERT_TRUE(back.ok()) << once.dump();
    EXPECT_EQ(IngestProgress(*back), once);
  }
  EXPECT_FALSE(ParseIngestProgress({{"kind", "sideways"}}).ok());

  app::IngestReport r;
  r.run_id = "run_1";
  r.root = "/ws";
  r.exclude = {"drafts/**"};
  r.counts = {.scanned = 9,
              .new_docs = 3,
              .updated = 1,
              .unchanged = 4,
              .skipped = 1,
              .errors = 1,
              .purged = 2,
              .chunks_indexed = 12,
              .embeddings_indexed = 12};
  r.duration_ms = 345;
  r.corpus_revision = 8;
  r.skipped_by_reason = {{"gitignore", 1}};
  r.skip_examples = {{"gitignore", {"build/x.md"}}};
  r.skipped_by_extension = {{".bin", 2}};
  r.warnings = {"cannot read /ws/locked"};
  r.purge_withheld = 3;
  r.items.emplace();
  r.items->push_back({.kind = "error",
                      .doc_path = "bad.pdf",
                      .byte_len = 10,
                      .warnings = {"odd"},
                      .error = "broken",
                      .ocr_pages = 2,
                      .ocr_ms = 40});
  const json report = IngestReport(r);
  Result<app::IngestReport> back = ParseIngestReport(report);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(IngestReport(*back), report);
  r.items.reset();
  EXPECT_EQ(IngestReport(*ParseIngestReport(IngestReport(r))), IngestReport(r));
  EXPECT_FALSE(ParseIngestReport({{"schema_version", "doctor.v1"}}).ok());
}

}  // namespace
}  // namespace kebab::app::wire
