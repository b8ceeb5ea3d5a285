#include "store/sqlite_util.h"

#include <string>

namespace kebab::store {

Status SqliteError(sqlite3* db, int rc, std::string_view what) {
  std::string msg(what);
  msg += ": ";
  msg += db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  int primary = rc & 0xff;
  if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB) {
    return Status(ErrorCode::kCorrupt, msg,
                  "the database file is damaged; `kebab reset --data-only` rebuilds it from "
                  "your files");
  }
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
    return Status(ErrorCode::kIoError, msg, "another kebab process is writing; try again");
  }
  if (primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN || primary == SQLITE_IOERR ||
      primary == SQLITE_FULL || primary == SQLITE_PERM) {
    return Status(ErrorCode::kIoError, msg);
  }
  return Status(ErrorCode::kGeneric, msg);
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()),
                              SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
  if (rc != SQLITE_OK) {
    prepare_status_ = SqliteError(db, rc, "prepare");
    stmt_ = nullptr;
  }
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(other.stmt_), prepare_status_(std::move(other.prepare_status_)) {
  other.stmt_ = nullptr;
}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    db_ = other.db_;
    stmt_ = other.stmt_;
    prepare_status_ = std::move(other.prepare_status_);
    other.stmt_ = nullptr;
  }
  return *this;
}

Statement& Statement::Bind(int index, std::string_view text) {
  if (stmt_) {
    sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  }
  return *this;
}

Statement& Statement::BindRef(int index, std::string_view text) {
  if (stmt_) {
    sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
  }
  return *this;
}

Statement& Statement::Bind(int index, int64_t value) {
  if (stmt_) sqlite3_bind_int64(stmt_, index, value);
  return *this;
}

Statement& Statement::Bind(int index, double value) {
  if (stmt_) sqlite3_bind_double(stmt_, index, value);
  return *this;
}

Statement& Statement::BindBlob(int index, std::string_view bytes) {
  if (stmt_) {
    sqlite3_bind_blob(stmt_, index, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
  }
  return *this;
}

Statement& Statement::BindNull(int index) {
  if (stmt_) sqlite3_bind_null(stmt_, index);
  return *this;
}

bool Statement::Step(Status* status) {
  if (!stmt_) {
    *status = prepare_status_;
    return false;
  }
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE) *status = SqliteError(db_, rc, "step");
  return false;
}

Status Statement::Run() {
  Status st;
  while (Step(&st)) {
  }
  Reset();
  return st;
}

void Statement::Reset() {
  if (stmt_) {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
}

std::string Statement::ColumnText(int col) const {
  return std::string(ColumnView(col));
}

std::string_view Statement::ColumnView(int col) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  if (!p) return {};
  return std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col)));
}

std::string_view Statement::ColumnBlob(int col) const {
  const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt_, col));
  if (!p) return {};
  return std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col)));
}

int64_t Statement::ColumnInt(int col) const {
  return sqlite3_column_int64(stmt_, col);
}
double Statement::ColumnDouble(int col) const {
  return sqlite3_column_double(stmt_, col);
}
bool Statement::ColumnIsNull(int col) const {
  return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}

Status Exec(sqlite3* db, std::string_view sql) {
  char* err = nullptr;
  std::string owned(sql);
  int rc = sqlite3_exec(db, owned.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    Status st = SqliteError(nullptr, rc, "exec");
    return Status(st.code(), "sqlite: " + msg, st.hint());
  }
  return Status::OK();
}

}  // namespace kebab::store
