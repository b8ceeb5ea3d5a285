#include "chunk/internal/transcript.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace kebab::chunk {
namespace {

using internal::ChunkTranscript;
using internal::kMaxWindowMs;

struct Said {
  uint64_t start_ms, end_ms;
  std::string text;
};

// A recording's document: its description block, then one block per segment.
CanonicalDocument Recording(const std::vector<Said>& said, uint64_t length_ms = 0) {
  CanonicalDocument doc;
  doc.doc_id = "doc-audio";
  Block description;
  description.kind = BlockKind::kAudioRef;
  description.text = "talk.m4a — recording";
  description.span.kind = SourceSpan::Kind::kTime;
  description.span.end = length_ms > 0 ? length_ms : (said.empty() ? 0 : said.back().end_ms);
  doc.blocks.push_back(description);
  for (const Said& s : said) {
    Block b;
    b.kind = BlockKind::kParagraph;
    b.text = s.text;
    b.span.kind = SourceSpan::Kind::kTime;
    b.span.start = s.start_ms;
    b.span.end = s.end_ms;
    doc.blocks.push_back(b);
  }
  for (size_t i = 0; i < doc.blocks.size(); ++i) {
    doc.blocks[i].ordinal = static_cast<int>(i);
    doc.blocks[i].block_id = "b" + std::to_string(i);
  }
  return doc;
}

// Each chunk as "start-end:text".
std::vector<std::string> Windows(const std::vector<Chunk>& chunks) {
  std::vector<std::string> out;
  for (const Chunk& c : chunks) {
    EXPECT_EQ(c.source_spans.size(), 1u);
    EXPECT_EQ(c.source_spans[0].kind, SourceSpan::Kind::kTime);
    out.push_back(std::to_string(c.source_spans[0].start) + "-" +
                  std::to_string(c.source_spans[0].end) + ":" + c.text);
  }
  return out;
}

TEST(TranscriptChunkerTest, WindowsEndAtAPauseOnceLongEnoughAndCarryTheLastSegment) {
  // Sentences of 4 s: one pause of 2 s after the third (12 s in), short gaps elsewhere.
  const CanonicalDocument doc = Recording({{0, 4000, "one"},
                                           {4200, 8000, "two"},
                                           {8200, 12000, "three"},
                                           {14000, 18000, "four"},
                                           {18200, 22000, "five"}});
  const std::vector<Chunk> chunks = ChunkTranscript(doc, ChunkPolicy{});
  EXPECT_EQ(Windows(chunks),
            (std::vector<std::string>{"0-22000:talk.m4a — recording", "0-12000:one two three",
                                      "8200-22000:three four five"}));
  for (const Chunk& c : chunks) {
    EXPECT_EQ(c.chunker_version, "transcript-v1");
    EXPECT_EQ(c.doc_id, "doc-audio");
    EXPECT_FALSE(c.chunk_id.empty());
  }
  EXPECT_EQ(chunks[1].block_ids, (std::vector<std::string>{"b1", "b2", "b3"}));
}

TEST(TranscriptChunkerTest, SpeechWithoutPausesIsCutByTime) {
  std::vector<Said> said;
  for (uint64_t t = 0; t < 90'000; t += 5000) said.push_back({t, t + 4900, "words"});
  const std::vector<Chunk> chunks = ChunkTranscript(Recording(said), ChunkPolicy{});
  ASSERT_GE(chunks.size(), 4u);
  for (size_t i = 1; i < chunks.size(); ++i) {
    const SourceSpan& s = chunks[i].source_spans[0];
    EXPECT_LE(s.end - s.start, kMaxWindowMs + 5000) << i;
  }
  // The last window reaches the end of the recording.
  EXPECT_EQ(chunks.back().source_spans[0].end, 89'900u);
}

TEST(TranscriptChunkerTest, TheTokenTargetClosesAWindowToo) {
  const std::string long_text(400, 'a');  // 100 tokens
  const CanonicalDocument doc =
      Recording({{0, 1000, long_text}, {1100, 2000, long_text}, {2100, 3000, long_text}});
  ChunkPolicy policy;
  policy.target_tokens = 150;
  policy.overlap_tokens = 0;
  const std::vector<Chunk> chunks = ChunkTranscript(doc, policy);
  ASSERT_EQ(chunks.size(), 3u);  // the description, then two windows of two and one segments
  EXPECT_EQ(chunks[1].block_ids, (std::vector<std::string>{"b1", "b2"}));
  EXPECT_EQ(chunks[2].block_ids, (std::vector<std::string>{"b3"}));
}

TEST(TranscriptChunkerTest, ARecordingWithoutSpeechIsItsDescription) {
  const std::vector<Chunk> chunks = ChunkTranscript(Recording({}, 60'000), ChunkPolicy{});
  EXPECT_EQ(Windows(chunks), (std::vector<std::string>{"0-60000:talk.m4a — recording"}));
}

TEST(TranscriptChunkerTest, ThePolicyHashFollowsTheSizes) {
  ChunkPolicy a, b;
  b.target_tokens = a.target_tokens + 1;
  EXPECT_NE(internal::TranscriptPolicyHash(a), internal::TranscriptPolicyHash(b));
  EXPECT_EQ(internal::TranscriptPolicyHash(a), internal::TranscriptPolicyHash(ChunkPolicy{}));
}

}  // namespace
}  // namespace kebab::chunk
