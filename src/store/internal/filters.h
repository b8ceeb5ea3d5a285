// SearchFilters as SQL conditions over `documents d` (and `chunks c` for symbol_glob), shared by
// every query that filters documents or chunks (lexical and vector search, list docs).
#pragma once

#include <string>
#include <vector>

#include "core/search_types.h"

namespace kebab::store {

// Hands out "?N" placeholders from `first_index` on and remembers the values to bind.
class Binder {
 public:
  explicit Binder(int first_index) : first_index_(first_index) {}
  std::string Param(std::string value);
  std::string List(const std::vector<std::string>& values);
  int first_index() const { return first_index_; }
  const std::vector<std::string>& values() const { return values_; }

 private:
  int first_index_;
  std::vector<std::string> values_;
};

// " AND …" for every filter that is set (empty when none is).
std::string FilterSql(const SearchFilters& filters, Binder& binder);

}  // namespace kebab::store
