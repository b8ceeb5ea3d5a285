// The cmark arena: calloc, realloc and reuse across scopes, and a parse through it.
#include "parse/cmark_arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "parse/cmark_blocks.h"

namespace kebab::parse {
namespace {

bool AllZero(const void* p, size_t n) {
  const auto* bytes = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; ++i) {
    if (bytes[i] != 0) return false;
  }
  return true;
}

TEST(CmarkArenaTest, CallocIsZeroedEvenInReusedMemory) {
  {
    CmarkArenaScope scope;
    for (int i = 0; i < 4000; ++i) std::memset(scope.mem()->calloc(1, 200), 0xAB, 200);
  }
  CmarkArenaScope scope;
  for (int i = 0; i < 4000; ++i) {
    void* p = scope.mem()->calloc(5, 40);
    ASSERT_TRUE(AllZero(p, 200)) << "allocation " << i;
  }
}

TEST(CmarkArenaTest, AllocationsAreAlignedAndDisjoint) {
  CmarkArenaScope scope;
  std::vector<unsigned char*> blocks;
  for (size_t i = 0; i < 3000; ++i) {
    const size_t size = 1 + i % 97;
    auto* p = static_cast<unsigned char*>(scope.mem()->calloc(1, size));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % alignof(std::max_align_t), 0u);
    std::memset(p, static_cast<int>(i % 251), size);
    blocks.push_back(p);
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    const size_t size = 1 + i % 97;
    for (size_t j = 0; j < size; ++j) ASSERT_EQ(blocks[i][j], i % 251) << i;
  }
}

TEST(CmarkArenaTest, ReallocKeepsContentsWhetherGrownInPlaceMovedOrLarge) {
  CmarkArenaScope scope;
  cmark_mem* mem = scope.mem();
  std::string expected;
  char* buffer = static_cast<char*>(mem->realloc(nullptr, 1));
  // Grows like a cmark_strbuf, past a block's size and into a block of its own, with other
  // allocations in between that stop growth in place.
  for (size_t size = 2; size <= (1u << 20); size = size * 3 / 2 + 1) {
    mem->calloc(1, 24);
    buffer = static_cast<char*>(mem->realloc(buffer, size));
    ASSERT_EQ(std::memcmp(buffer, expected.data(), expected.size()), 0) << "size " << size;
    while (expected.size() < size)
      expected.push_back(static_cast<char>('a' + expected.size() % 26));
    std::memcpy(buffer, expected.data(), size);
  }
  // Shrinking keeps the buffer.
  EXPECT_EQ(mem->realloc(buffer, 10), buffer);
  EXPECT_EQ(std::memcmp(buffer, expected.data(), 10), 0);
}

TEST(CmarkArenaTest, ThreadsHaveTheirOwnArenas) {
  auto fill = [](unsigned char value, bool* intact) {
    CmarkArenaScope scope;
    std::vector<unsigned char*> blocks;
    for (int i = 0; i < 20000; ++i) {
      auto* p = static_cast<unsigned char*>(scope.mem()->calloc(1, 64));
      std::memset(p, value, 64);
      blocks.push_back(p);
    }
    *intact = true;
    for (unsigned char* p : blocks) *intact = *intact && p[0] == value && p[63] == value;
  };
  bool a = false, b = false;
  std::thread ta(fill, 1, &a), tb(fill, 2, &b);
  ta.join();
  tb.join();
  EXPECT_TRUE(a);
  EXPECT_TRUE(b);
}

TEST(CmarkArenaTest, ParsesALargeDocumentTwiceTheSame) {
  // A code block over 1 MiB (a large buffer of its own) among many small nodes.
  std::string text = "# Title\n\n";
  for (int i = 0; i < 2000; ++i) text += "- item *" + std::to_string(i) + "* with `code`\n";
  text += "\n```\n" + std::string(1 << 20, 'x') + "\n```\n\nLast paragraph.\n";
  auto parse = [&] {
    BlockContext context;
    std::vector<Block> blocks;
    AppendMarkdownBlocks(text, 0, &context, &blocks);
    return blocks;
  };
  const std::vector<Block> first = parse();
  const std::vector<Block> second = parse();
  ASSERT_EQ(first.size(), 4u);
  EXPECT_EQ(first[2].kind, BlockKind::kCode);
  EXPECT_EQ(first[2].text.size(), 1u << 20);
  EXPECT_EQ(first[3].text, "Last paragraph.");
  ASSERT_EQ(second.size(), first.size());
  for (size_t i = 0; i < first.size(); ++i) EXPECT_EQ(second[i].text, first[i].text) << i;
}

}  // namespace
}  // namespace kebab::parse
