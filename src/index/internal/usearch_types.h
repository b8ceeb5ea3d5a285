// Small bridges between kebab and USearch types, for the backends' .cc files only (they are
// the only ones that include USearch's headers).
#pragma once

#include <string>
#include <usearch/index_dense.hpp>

namespace kebab::index::internal {

inline unum::usearch::scalar_kind_t ScalarKind(const std::string& name) {
  if (name == "f32") return unum::usearch::scalar_kind_t::f32_k;
  if (name == "i8") return unum::usearch::scalar_kind_t::i8_k;
  return unum::usearch::scalar_kind_t::f16_k;
}

// USearch's error_t throws from its destructor unless released; this takes the message out.
inline std::string TakeError(unum::usearch::error_t& error) {
  const char* message = error.release();
  return message != nullptr ? message : "unknown USearch error";
}

}  // namespace kebab::index::internal
