// Store::BeginBulkLoad / EndBulkLoad, and the repair of a load that never ended.
#include <string>

#include "store/sqlite_util.h"
#include "store/store.h"

namespace kebab::store {
namespace {

struct SecondaryIndex {
  const char* name;
  const char* on;  // as the migration that created it defined it
  // Whether a load drops it. An index whose keys arrive in order (paths, walked sorted) or
  // take few values (media types, languages) costs little to keep during the load, where that
  // cost runs beside parsing; building it afterwards is time nothing else overlaps (tldr-pages:
  // the rebuild after a load took ~210 ms with these five dropped, ~130 ms without).
  bool dropped;
};

// The secondary indexes that writing a new document never reads: reads, deletes and filters
// use them. The unique ones stay, since they enforce what a write must not break. A load
// left unfinished by an older kebab may have dropped any of them, so repairs check them all.
constexpr SecondaryIndex kReadIndexes[] = {
    {"idx_assets_workspace_path", "assets(workspace_path)", false},
    {"idx_assets_media_type", "assets(media_type)", false},
    {"idx_docs_asset_id", "documents(asset_id)", true},
    {"idx_docs_lang", "documents(lang)", false},
    {"idx_docs_source_type", "documents(source_type)", false},
    {"idx_document_tags_tag", "document_tags(tag)", false},
    {"idx_chunks_doc_id", "chunks(doc_id, ordinal)", true},
    {"idx_chunks_text_hash", "chunks(text_hash)", true},
};

// FTS5's merge settings outside a load: automerge as migration V001 sets it, crisismerge at
// FTS5's default. A load turns automerge off, since each commit would merge the segments of
// the commits before it, work that the full merge ending a large ingest redoes. It also lets
// segments pile up further before a crisis merge: tldr-pages' 38k pages commit about 20
// segments, and at 16 the load merged most of its index once only for the final merge to
// rewrite it (alternating runs: the load ended 60 ms sooner, the final merge took 15 ms more).
constexpr int kAutomerge = 8;
constexpr int kCrisisMerge = 16;
constexpr int kLoadCrisisMerge = 64;

Status SetMergeOptions(sqlite3* db, int automerge, int crisismerge) {
  const std::string set = "INSERT INTO chunks_fts(chunks_fts, rank) VALUES ";
  KEBAB_RETURN_IF_ERROR(Exec(db, set + "('automerge', " + std::to_string(automerge) + ")"));
  return Exec(db, set + "('crisismerge', " + std::to_string(crisismerge) + ")");
}

// Whether a load left its marks: a deferrable index missing, or automerge off.
Result<bool> LoadUnfinished(sqlite3* db) {
  Statement present(db, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?1");
  Status st;
  for (const SecondaryIndex& index : kReadIndexes) {
    present.Bind(1, index.name);
    const bool missing = present.Step(&st) && present.ColumnInt(0) == 0;
    present.Reset();
    KEBAB_RETURN_IF_ERROR(st);
    if (missing) return true;
  }
  Statement automerge(db, "SELECT v FROM chunks_fts_config WHERE k = 'automerge'");
  const bool off = automerge.Step(&st) && automerge.ColumnInt(0) != kAutomerge;
  KEBAB_RETURN_IF_ERROR(st);
  return off;
}

}  // namespace

Result<bool> Store::BeginBulkLoad() {
  {
    Statement any(db_, "SELECT EXISTS (SELECT 1 FROM documents)");
    Status st;
    if (!any.Step(&st)) return st.ok() ? Status(ErrorCode::kCorrupt, "EXISTS returned no row") : st;
    if (any.ColumnInt(0) != 0) return false;
  }
  KEBAB_RETURN_IF_ERROR(Atomically([&]() -> Status {
    for (const SecondaryIndex& index : kReadIndexes) {
      if (!index.dropped) continue;
      KEBAB_RETURN_IF_ERROR(Exec(db_, std::string("DROP INDEX IF EXISTS ") + index.name));
    }
    return SetMergeOptions(db_, 0, kLoadCrisisMerge);
  }));
  return true;
}

Status Store::EndBulkLoad() {
  KEBAB_ASSIGN_OR_RETURN(const bool unfinished, LoadUnfinished(db_));
  if (!unfinished) return Status::OK();
  return Atomically([&]() -> Status {
    for (const SecondaryIndex& index : kReadIndexes) {
      KEBAB_RETURN_IF_ERROR(
          Exec(db_, std::string("CREATE INDEX IF NOT EXISTS ") + index.name + " ON " + index.on));
    }
    return SetMergeOptions(db_, kAutomerge, kCrisisMerge);
  });
}

}  // namespace kebab::store
