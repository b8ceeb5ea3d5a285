// Golden files pin the full chunk list of three hand-built documents. Set
// KEBAB_UPDATE_GOLDEN=1 to rewrite them after an intended change (then review the diff).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "chunk/md_heading.h"
#include "chunk/test_doc_builder.h"

namespace kebab::chunk {
namespace {

using testing::DocBuilder;

nlohmann::json ToJson(const ChunkPolicy& p, const std::vector<Chunk>& chunks) {
  nlohmann::json list = nlohmann::json::array();
  for (const Chunk& c : chunks) {
    nlohmann::json spans = nlohmann::json::array();
    for (const SourceSpan& s : c.source_spans) spans.push_back(s.ToJson());
    list.push_back({{"chunk_id", c.chunk_id},
                    {"doc_id", c.doc_id},
                    {"block_ids", c.block_ids},
                    {"text", c.text},
                    {"heading_path", c.heading_path},
                    {"section_label", c.section_label},
                    {"source_spans", spans},
                    {"token_estimate", c.token_estimate},
                    {"chunker_version", c.chunker_version},
                    {"policy_hash", c.policy_hash}});
  }
  return {{"policy",
           {{"target_tokens", p.target_tokens},
            {"overlap_tokens", p.overlap_tokens},
            {"max_chunk_tokens", p.max_chunk_tokens},
            {"respect_markdown_headings", p.respect_markdown_headings}}},
          {"chunks", list}};
}

void ExpectGolden(const std::string& name, const CanonicalDocument& doc,
                  const ChunkPolicy& policy) {
  const std::string path = std::string(KEBAB_TESTDATA_DIR) + "/chunk/" + name + ".golden.json";
  const nlohmann::json actual = ToJson(policy, ChunkMarkdown(doc, policy));
  const char* update = std::getenv("KEBAB_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << actual.dump(2) << "\n";
    ASSERT_TRUE(out.good()) << "cannot write " << path;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << path << " is missing; run with KEBAB_UPDATE_GOLDEN=1";
  std::stringstream buf;
  buf << in.rdbuf();
  const nlohmann::json expected = nlohmann::json::parse(buf.str(), nullptr, false);
  ASSERT_FALSE(expected.is_discarded()) << path << " is not valid JSON";
  EXPECT_EQ(actual["policy"], expected["policy"]);
  const nlohmann::json& got = actual["chunks"];
  const nlohmann::json& want = expected["chunks"];
  ASSERT_EQ(got.size(), want.size()) << name << ": chunk count changed";
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].dump(2), want[i].dump(2)) << name << ": chunk " << i << " changed";
  }
}

TEST(GoldenTest, EnglishGuide) {
  const CanonicalDocument doc =
      DocBuilder("doc-guide")
          .Heading(1, "kebab user guide", 1)
          .Para("kebab is a local-first knowledge base with cited answers.", 3, 3)
          .Heading(2, "Install", 5)
          .Code("sudo apt install kebab\nkebab --version\n", 7, 10, "sh")
          .Heading(2, "Ingest", 12)
          .Para(
              "Point kebab at a folder of Markdown notes.\nIt walks the tree and skips "
              "ignored files.",
              14, 15)
          .List({"Markdown and MDX", "PDF pages", "images via OCR"}, false, 17, 19)
          .Para("Every file becomes blocks, then chunks, then index rows.", 21, 21)
          .Quote("Re-ingesting unchanged files is free.", 23, 23)
          .Para("Changed files are re-chunked and re-embedded only where text changed.", 25, 25)
          .Heading(3, "Options", 27)
          .Table({"flag", "effect"}, {{"--root", "workspace root"}, {"--json", "JSON events"}}, 29,
                 32)
          .Para("See `kebab ingest --help` for the rest.", 34, 34)
          .Image("docs/img/pipeline.svg", "", 36)
          .Heading(2, "Search", 38)
          .List({"lexical first", "then vectors", "fused with RRF"}, true, 40, 42)
          .Build();
  ChunkPolicy policy;
  policy.target_tokens = 40;
  policy.overlap_tokens = 12;
  ASSERT_NO_FATAL_FAILURE(ExpectGolden("english_guide", doc, policy));
}

TEST(GoldenTest, KoreanOversize) {
  std::string long_line;
  for (int i = 0; i < 12; ++i) long_line += "청크는 최대 토큰 수를 넘으면 줄 단위로 나뉜다. ";
  const CanonicalDocument doc =
      DocBuilder("doc-ko")
          .Heading(2, "청크 정책", 1)
          .Para("제목은 항상 새 청크를 시작한다.", 3, 3)
          .Para("문단은 모인다.", 5, 5)
          .List({"목록도", "모인다"}, false, 7, 8)
          .Para("넘치면 끝 문단이 겹친다.", 10, 10)
          .Quote("인용도 같다.", 12, 12)
          .Heading(3, "긴 줄", 14)
          .Para(long_line, 16, 16)
          .Code("첫째 줄\n둘째 줄\n셋째 줄\n넷째 줄\n다섯째 줄\n여섯째 줄\n", 18, 25)
          .Build();
  ChunkPolicy policy;
  policy.target_tokens = 30;
  policy.overlap_tokens = 20;
  policy.max_chunk_tokens = 60;
  ASSERT_NO_FATAL_FAILURE(ExpectGolden("korean_oversize", doc, policy));
}

TEST(GoldenTest, FlatWithoutHeadingBoundaries) {
  const CanonicalDocument doc = DocBuilder("doc-flat")
                                    .Para("Meeting notes, week 12.", 1, 1)
                                    .Heading(1, "Decisions", 3)
                                    .List({"ship v0.2", "freeze the schema"}, false, 5, 6)
                                    .Heading(1, "Follow-ups", 8)
                                    .Para("Alice drafts the migration guide.", 10, 10)
                                    .Audio("recordings/week12.m4a", 12)
                                    .Para("Bob benchmarks ingest on the 38k-file corpus.", 14, 14)
                                    .Para("Next sync on Thursday.", 16, 16)
                                    .Build();
  ChunkPolicy policy;
  policy.target_tokens = 20;
  policy.overlap_tokens = 8;
  policy.respect_markdown_headings = false;
  ASSERT_NO_FATAL_FAILURE(ExpectGolden("flat_no_headings", doc, policy));
}

}  // namespace
}  // namespace kebab::chunk
