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

}  // namespace
}  // namespace kebab::app::wire
