// The write path of Store: a document's rows (assets, documents, tags, blocks, chunks and
// their full-text entries), replacing and purging documents, and encoding rows off the writer.
#include <algorithm>
#include <memory>
#include <string>

#include "core/hash.h"
#include "core/json_text.h"
#include "core/time.h"
#include "store/sqlite_util.h"
#include "store/store.h"

namespace kebab::store {

void EncodeRows(DocumentWrite* w, const text::Analyzer* analyzer) {
  DocumentWrite::Encoded e;
  AppendMetadataJson(e.metadata, w->doc.metadata);
  AppendProvenanceJson(e.provenance, w->doc.provenance);
  // Columns are sized for typical rows up front; larger ones grow the buffer as usual.
  const size_t blocks = w->doc.blocks.size();
  size_t text_bytes = 0;
  for (const auto& b : w->doc.blocks) text_bytes += b.text.size();
  e.block_heading.Reserve(blocks, 16 * blocks);
  e.block_span.Reserve(blocks, 40 * blocks);
  e.block_payload.Reserve(blocks, 24 * blocks + text_bytes + text_bytes / 8);
  for (const auto& b : w->doc.blocks) {
    AppendJsonStringArray(e.block_heading.text(), b.heading_path);
    e.block_heading.EndValue();
    AppendSpanJson(e.block_span.text(), b.span);
    e.block_span.EndValue();
    AppendBlockPayloadJson(e.block_payload.text(), b);
    e.block_payload.EndValue();
  }
  const size_t chunks = w->chunks.size();
  size_t block_id_bytes = 0;
  for (const auto& c : w->chunks) block_id_bytes += 2 + 35 * c.block_ids.size();
  e.chunk_heading.Reserve(chunks, 16 * chunks);
  e.chunk_spans.Reserve(chunks, 40 * chunks);
  e.chunk_block_ids.Reserve(chunks, block_id_bytes);
  if (analyzer != nullptr) {
    e.chunk_heading_tokens.reserve(chunks);
    e.chunk_text_tokens.reserve(chunks);
  }
  e.chunk_text_hashes.reserve(kBlake3Key16Bytes * chunks);
  for (const auto& c : w->chunks) {
    AppendBlake3Key16(c.text, e.chunk_text_hashes);
    AppendJsonStringArray(e.chunk_heading.text(), c.heading_path);
    e.chunk_heading.EndValue();
    AppendSpansJson(e.chunk_spans.text(), c.source_spans);
    e.chunk_spans.EndValue();
    AppendJsonStringArray(e.chunk_block_ids.text(), c.block_ids);
    e.chunk_block_ids.EndValue();
    if (analyzer != nullptr) {
      e.chunk_heading_tokens.push_back(text::TokenStream::Of(*analyzer, e.chunk_heading.back()));
      e.chunk_text_tokens.push_back(text::TokenStream::Of(*analyzer, c.text));
    }
  }
  w->encoded = std::move(e);
}

Result<std::string> Store::DocIdAtPath(const std::string& workspace_path) {
  Statement& q = Prepared("SELECT doc_id FROM documents WHERE workspace_path = ?1");
  q.Bind(1, workspace_path);
  Status st;
  std::string id;
  if (q.Step(&st)) id = q.ColumnText(0);
  q.Reset();
  if (!st.ok()) return st;
  return id;
}

Status Store::DeleteDocument(const std::string& doc_id) {
  std::string asset_id;
  int64_t first_block = 0, block_count = 0;
  {
    Statement& q = Prepared(
        "SELECT asset_id, first_block_rowid, block_count FROM documents WHERE doc_id = ?1");
    q.Bind(1, doc_id);
    Status st;
    if (q.Step(&st)) {
      asset_id = q.ColumnText(0);
      first_block = q.ColumnInt(1);
      block_count = q.ColumnInt(2);
    }
    q.Reset();
    KEBAB_RETURN_IF_ERROR(st);
  }
  KEBAB_RETURN_IF_ERROR(
      Prepared("DELETE FROM blocks WHERE block_rowid >= ?1 AND block_rowid < ?2 AND doc_id = ?3")
          .Bind(1, first_block)
          .Bind(2, first_block + block_count)
          .Bind(3, doc_id)
          .Run());
  // Blocks take SQLite's next rowids, which these may have been.
  next_block_rowid_ = 0;
  // The external-content FTS index forgets each chunk by its indexed text, before the chunk
  // rows go.
  {
    Statement& rows =
        Prepared("SELECT chunk_rowid, heading_path_json, text FROM chunks WHERE doc_id = ?1");
    rows.Bind(1, doc_id);
    Status st;
    while (rows.Step(&st)) {
      const int64_t rowid = rows.ColumnInt(0);
      deferred_.fts_deletes.push_back({rowid, rows.ColumnText(1), rows.ColumnText(2)});
      deferred_.max_rowid = std::max(deferred_.max_rowid, rowid);
    }
    rows.Reset();
    KEBAB_RETURN_IF_ERROR(st);
  }
  KEBAB_RETURN_IF_ERROR(Prepared("DELETE FROM chunks WHERE doc_id = ?1").Bind(1, doc_id).Run());
  KEBAB_RETURN_IF_ERROR(Prepared("DELETE FROM documents WHERE doc_id = ?1").Bind(1, doc_id).Run());
  if (!asset_id.empty()) deferred_.asset_ids.push_back(asset_id);
  return in_batch_ ? Status::OK() : ApplyDeferredDeletes();
}

Status Store::ApplyDeferredDeletes() {
  // FTS5 keeps a batch's pending terms in memory only while rowids ascend; a delete below the
  // last written rowid, or any multi-row statement (the asset delete checks foreign keys),
  // flushes them to a new segment. Done once per batch, in rowid order, instead of per document.
  Deferred work = std::move(deferred_);
  deferred_ = {};
  std::sort(work.fts_deletes.begin(), work.fts_deletes.end(),
            [](const auto& a, const auto& b) { return a.rowid < b.rowid; });
  Statement& forget = Prepared(
      "INSERT INTO chunks_fts(chunks_fts, rowid, heading_path_json, text) "
      "VALUES ('delete', ?1, ?2, ?3)");
  for (const auto& d : work.fts_deletes) {
    KEBAB_RETURN_IF_ERROR(forget.Bind(1, d.rowid).BindRef(2, d.heading).BindRef(3, d.text).Run());
  }
  Statement& gc = Prepared(
      "DELETE FROM assets WHERE asset_id = ?1 AND NOT EXISTS "
      "(SELECT 1 FROM documents WHERE asset_id = ?1)");
  for (const std::string& id : work.asset_ids) {
    KEBAB_RETURN_IF_ERROR(gc.Bind(1, id).Run());
  }
  return Status::OK();
}

Status Store::WriteDocument(const DocumentWrite& write) {
  const DocumentWrite* wp = &write;
  DocumentWrite local;
  if (!write.encoded) {
    local = write;
    EncodeRows(&local);
    wp = &local;
  }
  const DocumentWrite& w = *wp;
  const DocumentWrite::Encoded& enc = *w.encoded;
  const CanonicalDocument& doc = w.doc;
  const std::string now = NowRfc3339();
  auto insert_asset = [&]() -> Status {
    return Prepared(
               "INSERT OR IGNORE INTO assets(asset_id, source_uri, workspace_path, "
               "media_type, byte_len, checksum, storage_kind, storage_path, discovered_at) "
               "VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'reference', ?2, ?7)")
        .BindRef(1, w.asset.asset_id)
        .BindRef(2, w.asset.source_uri)
        .BindRef(3, w.asset.workspace_path)
        .BindRef(4, MediaKindName(w.asset.media))
        .Bind(5, static_cast<int64_t>(w.asset.byte_len))
        .BindRef(6, w.asset.checksum)
        .BindRef(7, w.asset.discovered_at)
        .Run();
  };
  // False when a document is already stored at the path (nothing was inserted).
  auto insert_document = [&](int64_t first_block) -> Result<bool> {
    KEBAB_RETURN_IF_ERROR(
        Prepared("INSERT INTO documents(doc_id, asset_id, workspace_path, title, lang, "
                 "source_type, trust_level, parser_version, chunker_version, policy_hash, "
                 "doc_version, schema_version, metadata_json, provenance_json, created_at, "
                 "updated_at, ingested_at, source_uri, first_block_rowid, block_count) VALUES "
                 "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, "
                 "?18, ?19, ?20) ON CONFLICT(workspace_path) DO NOTHING")
            .BindRef(1, doc.doc_id)
            .BindRef(2, doc.asset_id)
            .BindRef(3, doc.workspace_path)
            .BindRef(4, doc.title)
            .BindRef(5, doc.lang)
            .BindRef(6, SourceTypeName(doc.metadata.source_type))
            .BindRef(7, TrustLevelName(doc.metadata.trust_level))
            .BindRef(8, doc.parser_version)
            .BindRef(9, w.chunker_version)
            .BindRef(10, w.policy_hash)
            .Bind(11, doc.doc_version)
            .Bind(12, doc.schema_version)
            .BindRef(13, enc.metadata)
            .BindRef(14, enc.provenance)
            .BindRef(15, doc.metadata.created_at)
            .BindRef(16, doc.metadata.updated_at)
            .BindRef(17, now)
            .BindRef(18, w.asset.source_uri)
            .Bind(19, first_block)
            .Bind(20, static_cast<int64_t>(doc.blocks.size()))
            .Run());
    return sqlite3_changes(db_) > 0;
  };
  auto body = [&]() -> Status {
    KEBAB_ASSIGN_OR_RETURN(int64_t first_block, NextBlockRowid());
    KEBAB_RETURN_IF_ERROR(insert_asset());
    KEBAB_ASSIGN_OR_RETURN(bool inserted, insert_document(first_block));
    if (!inserted) {
      // The document stored at this path makes way (its asset too, unless shared), then this
      // one goes in. Trying the insert first spares every new document a lookup by path.
      KEBAB_ASSIGN_OR_RETURN(std::string old_id, DocIdAtPath(doc.workspace_path));
      KEBAB_RETURN_IF_ERROR(DeleteDocument(old_id));
      KEBAB_RETURN_IF_ERROR(insert_asset());
      KEBAB_ASSIGN_OR_RETURN(first_block, NextBlockRowid());
      KEBAB_ASSIGN_OR_RETURN(inserted, insert_document(first_block));
      if (!inserted) {
        return Status(ErrorCode::kCorrupt,
                      "a document at " + doc.workspace_path + " is still stored after its removal");
      }
    }
    Statement& tag = Prepared("INSERT OR IGNORE INTO document_tags(doc_id, tag) VALUES (?1, ?2)");
    for (const auto& t : doc.metadata.tags) {
      KEBAB_RETURN_IF_ERROR(tag.BindRef(1, doc.doc_id).BindRef(2, t).Run());
    }
    KEBAB_RETURN_IF_ERROR(InsertBlocks(w, first_block));
    return InsertChunks(w, now);
  };
  return Atomically(body).WithContext(doc.workspace_path);
}

Result<int64_t> Store::NextBlockRowid() {
  if (in_batch_ && next_block_rowid_ > 0) return next_block_rowid_;
  Statement& q = Prepared("SELECT coalesce(max(block_rowid), 0) + 1 FROM blocks");
  Status st;
  int64_t next = 1;
  if (q.Step(&st)) next = q.ColumnInt(0);
  q.Reset();
  if (!st.ok()) return st;
  return next;
}

Statement& Store::BlockInsert(size_t rows) {
  std::unique_ptr<Statement>& statement = block_inserts_[rows - 1];
  if (statement == nullptr) {
    // ?1 is the document id all rows share; row r binds ?(2 + 6r) to ?(7 + 6r). A statement of
    // several rows that could abort half-way takes a statement savepoint, at which FTS5 flushes
    // its pending terms into a new segment: so a conflict FAILs (the caller then rolls back the
    // whole transaction), and the rowids are SQLite's own (the largest plus one), since one
    // given explicitly could abort its integer check.
    std::string sql =
        "INSERT OR FAIL INTO blocks(block_id, doc_id, kind, heading_path_json, ordinal, "
        "source_span_json, payload_json) VALUES ";
    for (size_t r = 0; r < rows; ++r) {
      const size_t p = 2 + 6 * r;
      sql += r ? ",(" : "(";
      for (size_t k = 0; k < 6; ++k) {
        sql += "?" + std::to_string(p + k) + (k == 0 ? ",?1," : k < 5 ? "," : ")");
      }
    }
    statement = std::make_unique<Statement>(db_, sql);
  }
  return *statement;
}

Status Store::InsertBlocks(const DocumentWrite& w, int64_t first_rowid) {
  const CanonicalDocument& doc = w.doc;
  const DocumentWrite::Encoded& enc = *w.encoded;
  for (size_t start = 0; start < doc.blocks.size(); start += kBlocksPerInsert) {
    const size_t rows = std::min(kBlocksPerInsert, doc.blocks.size() - start);
    Statement& insert = BlockInsert(rows);
    insert.BindRef(1, doc.doc_id);
    for (size_t r = 0; r < rows; ++r) {
      const size_t i = start + r;
      const Block& b = doc.blocks[i];
      const int p = 2 + 6 * static_cast<int>(r);
      insert.BindRef(p, b.block_id)
          .BindRef(p + 1, BlockKindName(b.kind))
          .BindRef(p + 2, enc.block_heading[i])
          .Bind(p + 3, b.ordinal)
          .BindRef(p + 4, enc.block_span[i])
          .BindRef(p + 5, enc.block_payload[i]);
    }
    KEBAB_RETURN_IF_ERROR(insert.Run().WithContext("block ", doc.blocks[start].block_id));
    const int64_t last = first_rowid + static_cast<int64_t>(start + rows) - 1;
    if (sqlite3_last_insert_rowid(db_) != last) {
      return Status(ErrorCode::kCorrupt, "blocks of " + doc.workspace_path + " end at rowid " +
                                             std::to_string(sqlite3_last_insert_rowid(db_)) +
                                             " instead of " + std::to_string(last));
    }
  }
  if (in_batch_) next_block_rowid_ = first_rowid + static_cast<int64_t>(doc.blocks.size());
  return Status::OK();
}

Status Store::InsertChunks(const DocumentWrite& w, const std::string& now) {
  const CanonicalDocument& doc = w.doc;
  const DocumentWrite::Encoded& enc = *w.encoded;
  // Rowids are assigned here, above any chunk whose FTS entries still await their deferred
  // delete: reusing one would let that delete strip the new chunk's terms.
  int64_t rowid = in_batch_ ? last_chunk_rowid_ : 0;
  if (rowid == 0) {
    Statement& q = Prepared("SELECT coalesce(max(chunk_rowid), 0) FROM chunks");
    Status st;
    if (q.Step(&st)) rowid = q.ColumnInt(0);
    q.Reset();
    KEBAB_RETURN_IF_ERROR(st);
  }
  rowid = std::max(rowid, deferred_.max_rowid);
  Statement& chunk = Prepared(
      "INSERT INTO chunks(chunk_rowid, chunk_id, doc_id, ordinal, text, heading_path_json, "
      "section_label, source_spans_json, token_estimate, chunker_version, "
      "policy_hash, block_ids_json, created_at, text_hash) VALUES (?13, ?1, ?2, ?3, ?4, ?5, "
      "?6, ?7, ?8, ?9, ?10, ?11, ?12, ?14)");
  Statement& fts =
      Prepared("INSERT INTO chunks_fts(rowid, heading_path_json, text) VALUES (?1, ?2, ?3)");
  for (size_t i = 0; i < w.chunks.size(); ++i) {
    const Chunk& c = w.chunks[i];
    chunk.BindRef(1, c.chunk_id)
        .BindRef(2, doc.doc_id)
        .Bind(3, static_cast<int64_t>(i))
        .BindRef(4, c.text)
        .BindRef(5, enc.chunk_heading[i]);
    if (c.section_label.empty()) {
      chunk.BindNull(6);
    } else {
      chunk.BindRef(6, c.section_label);
    }
    KEBAB_RETURN_IF_ERROR(chunk.BindRef(7, enc.chunk_spans[i])
                              .Bind(8, c.token_estimate)
                              .BindRef(9, c.chunker_version)
                              .BindRef(10, c.policy_hash)
                              .BindRef(11, enc.chunk_block_ids[i])
                              .BindRef(12, now)
                              .Bind(13, ++rowid)
                              .BindBlob(14, std::string_view(enc.chunk_text_hashes)
                                                .substr(kBlake3Key16Bytes * i, kBlake3Key16Bytes))
                              .Run()
                              .WithContext("chunk ", c.chunk_id));
    std::optional<text::ScopedTokenReplay> replay;
    if (i < enc.chunk_text_tokens.size()) {
      replay.emplace(enc.chunk_heading[i], enc.chunk_heading_tokens[i], c.text,
                     enc.chunk_text_tokens[i]);
    }
    KEBAB_RETURN_IF_ERROR(
        fts.Bind(1, rowid).BindRef(2, enc.chunk_heading[i]).BindRef(3, c.text).Run());
  }
  if (in_batch_) last_chunk_rowid_ = rowid;
  return Status::OK();
}

Status Store::PurgePath(const std::string& workspace_path) {
  return Atomically([&]() -> Status {
    KEBAB_ASSIGN_OR_RETURN(std::string id, DocIdAtPath(workspace_path));
    return id.empty() ? Status::OK() : DeleteDocument(id);
  });
}

}  // namespace kebab::store
