// Memory for cmark-gfm parses (internal to the parse module): a per-thread bump allocator.
// A parse allocates a node or buffer by moving a pointer, never frees one by one, and releases
// the whole tree at once when its scope ends; the thread keeps the arena's first blocks for its
// next document. On a tldr-pages ingest, cmark's calloc/free were about a third of its cost.
#pragma once

#include <cmark-gfm.h>

namespace kebab::parse {

// While a scope is alive, mem() hands out memory from this thread's arena; when it
// ends, every allocation made through it is gone, so nothing from the parse (nodes, iterators,
// literals) may be used afterwards. Scopes do not nest. Not copyable.
class CmarkArenaScope {
 public:
  CmarkArenaScope();
  ~CmarkArenaScope();
  CmarkArenaScope(const CmarkArenaScope&) = delete;
  CmarkArenaScope& operator=(const CmarkArenaScope&) = delete;

  // The allocator to pass to cmark_parser_new_with_mem. Frees are no-ops.
  cmark_mem* mem();
};

}  // namespace kebab::parse
