// Store::DeleteSpace: dropping one embedding space at a time (`kebab models gc`), where
// DeleteAllVectors (vectors.cc) drops them all.
#include "store/store.h"

namespace kebab::store {

Result<int64_t> Store::DeleteSpace(int64_t space_id) {
  int64_t removed = 0;
  KEBAB_RETURN_IF_ERROR(Atomically([&]() -> Status {
    Statement count(db_, "SELECT count(*) FROM embeddings WHERE space_id = ?1");
    count.Bind(1, space_id);
    Status st;
    if (count.Step(&st)) removed = count.ColumnInt(0);
    KEBAB_RETURN_IF_ERROR(st);
    KEBAB_RETURN_IF_ERROR(
        Statement(db_, "DELETE FROM embeddings WHERE space_id = ?1").Bind(1, space_id).Run());
    KEBAB_RETURN_IF_ERROR(
        Statement(db_, "DELETE FROM embedding_spaces WHERE space_id = ?1").Bind(1, space_id).Run());
    if (sqlite3_changes(db_) == 0) return Status::OK();  // no such space: nothing changed
    // Same bookkeeping as DeleteAllVectors: the vector index cache is stamped with
    // vectors_revision, and cursors with the corpus revision.
    KEBAB_RETURN_IF_ERROR(Exec(db_,
                               "UPDATE kv SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) "
                               "WHERE key = 'vectors_revision'"));
    return BumpCorpusRevision().status();
  }));
  return removed;
}

}  // namespace kebab::store
