// Thin RAII wrappers over the SQLite C API used inside the store module only.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace kebab::store {

// Maps a SQLite result code (and the connection's message) to a Status.
Status SqliteError(sqlite3* db, int rc, std::string_view what);

// A prepared statement. Bind indexes are 1-based; column indexes 0-based. Not copyable.
class Statement {
 public:
  Statement() = default;
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Status of preparation; a statement that failed to prepare fails every Step().
  const Status& prepare_status() const { return prepare_status_; }

  Statement& Bind(int index, std::string_view text);
  // Binds without copying: the bytes must stay alive until the statement is reset.
  Statement& BindRef(int index, std::string_view text);
  Statement& Bind(int index, int64_t value);
  Statement& Bind(int index, int value) { return Bind(index, static_cast<int64_t>(value)); }
  Statement& Bind(int index, double value);
  Statement& BindNull(int index);
  Statement& BindBlob(int index, std::string_view bytes);

  // Steps once: true when a row is available, false when done; errors go to *status.
  bool Step(Status* status);
  // Runs to completion (for statements that return no rows).
  Status Run();
  void Reset();

  std::string ColumnText(int col) const;
  std::string_view ColumnView(int col) const;
  std::string_view ColumnBlob(int col) const;
  int64_t ColumnInt(int col) const;
  double ColumnDouble(int col) const;
  bool ColumnIsNull(int col) const;

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
  Status prepare_status_;
};

// Executes one or more SQL statements with no parameters.
Status Exec(sqlite3* db, std::string_view sql);

}  // namespace kebab::store
