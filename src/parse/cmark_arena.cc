#include "parse/cmark_arena.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace kebab::parse {
namespace {

// Each allocation is preceded by a header holding its size, which realloc needs to copy; the
// header's size keeps every allocation aligned for any type.
constexpr size_t kHeader = alignof(std::max_align_t);
constexpr size_t kBlockBytes = 256 << 10;
// Blocks kept for the thread's next parse; a larger document's extra blocks go back.
constexpr size_t kKeptBlocks = 4;

[[noreturn]] void OutOfMemory() {
  // What cmark's own allocator does: its callers cannot handle a null pointer.
  std::fputs("[cmark] arena allocation failed, aborting\n", stderr);
  std::abort();
}

void* AllocateOrDie(size_t bytes) {
  void* p = std::malloc(bytes);
  if (p == nullptr) OutOfMemory();
  return p;
}

size_t RoundUp(size_t n) {
  return (n + kHeader - 1) / kHeader * kHeader;
}

class Arena {
 public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() {
    Reset();
    for (char* block : blocks_) std::free(block);
  }

  void* Allocate(size_t size) {
    const size_t need = kHeader + RoundUp(size == 0 ? 1 : size);
    if (need < size) OutOfMemory();  // size so large that the header overflowed it
    char* start;
    if (need > kBlockBytes / 4) {
      // Large buffers get a block of their own rather than wasting the rest of a shared one.
      start = static_cast<char*>(AllocateOrDie(need));
      large_.push_back(start);
    } else {
      if (current_ == nullptr || used_ + need > kBlockBytes) NextBlock();
      start = current_ + used_;
      used_ += need;
      last_ = start + kHeader;
    }
    std::memcpy(start, &size, sizeof size);
    return start + kHeader;
  }

  void* Reallocate(void* ptr, size_t size) {
    if (ptr == nullptr) return Allocate(size);
    char* p = static_cast<char*>(ptr);
    size_t old_size;
    std::memcpy(&old_size, p - kHeader, sizeof old_size);
    if (size <= old_size) return ptr;
    // The newest allocation of the current block grows in place when the block has room:
    // cmark grows one buffer at a time while it reads a line or a paragraph.
    if (p == last_) {
      const size_t end = static_cast<size_t>(p - current_) + RoundUp(size);
      if (end <= kBlockBytes) {
        used_ = end;
        std::memcpy(p - kHeader, &size, sizeof size);
        return ptr;
      }
    }
    void* moved = Allocate(size);
    std::memcpy(moved, ptr, old_size);
    return moved;
  }

  // Forgets every allocation; keeps up to kKeptBlocks blocks for reuse.
  void Reset() {
    for (char* block : large_) std::free(block);
    large_.clear();
    while (blocks_.size() > kKeptBlocks) {
      std::free(blocks_.back());
      blocks_.pop_back();
    }
    next_block_ = 0;
    current_ = nullptr;
    used_ = 0;
    last_ = nullptr;
  }

 private:
  void NextBlock() {
    if (next_block_ == blocks_.size()) {
      blocks_.push_back(static_cast<char*>(AllocateOrDie(kBlockBytes)));
    }
    current_ = blocks_[next_block_++];
    used_ = 0;
    last_ = nullptr;
  }

  std::vector<char*> blocks_;  // kBlockBytes each; [0, next_block_) in use
  size_t next_block_ = 0;
  char* current_ = nullptr;  // the block being filled
  size_t used_ = 0;          // bytes of current_ handed out
  char* last_ = nullptr;     // the newest allocation in current_, if any
  std::vector<char*> large_;
};

thread_local Arena t_arena;

void* ArenaCalloc(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size) OutOfMemory();
  void* p = t_arena.Allocate(count * size);
  std::memset(p, 0, count * size);
  return p;
}

void* ArenaRealloc(void* ptr, size_t size) {
  return t_arena.Reallocate(ptr, size);
}

void ArenaFree(void*) {}

cmark_mem g_arena_mem = {ArenaCalloc, ArenaRealloc, ArenaFree};

}  // namespace

CmarkArenaScope::CmarkArenaScope() = default;

CmarkArenaScope::~CmarkArenaScope() {
  t_arena.Reset();
}

cmark_mem* CmarkArenaScope::mem() {
  return &g_arena_mem;
}

}  // namespace kebab::parse
