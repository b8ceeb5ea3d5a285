// Status and Result<T>: how every kebab layer reports failure.
//
// A Status is either OK or carries an ErrorCode, a one-line message and an optional hint
// (what the user can do about it). The CLI maps ErrorCode to the spec's exit codes and to
// the `code` of error.v1; nothing below the CLI throws for expected failures.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace kebab {

// The error.v1 codes. Keep ErrorCodeName() and docs/wire-schema/v1/error.schema.json in step.
enum class ErrorCode {
  kOk,
  kGeneric,
  kInvalidInput,
  kConfigInvalid,
  kConfigNotFound,
  kNotIndexed,
  kIoError,
  kDocNotFound,
  kChunkNotFound,
  kSpanNotSupported,
  kStaleCursor,
  kReadonlyMode,
  kModelUnreachable,
  kModelNotPulled,
  kTimeout,
  kCorrupt,
  kCancelled,
};

// The stable wire name of a code, e.g. "config_invalid".
std::string_view ErrorCodeName(ErrorCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(ErrorCode code, std::string message, std::string hint = {})
      : code_(code), message_(std::move(message)), hint_(std::move(hint)) {}

  static Status OK() { return Status(); }

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  const std::string& hint() const { return hint_; }

  // Returns a copy whose message is prefixed with `context: `.
  Status WithContext(std::string_view context) const;
  // The same with the context in two parts ("chunk ", id), joined only when this is an
  // error: hot loops pay nothing for the context of a failure they do not have.
  Status WithContext(std::string_view what, std::string_view which) const;
  Status WithHint(std::string hint) const;

  std::string ToString() const;

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
  std::string hint_;
};

inline Status InvalidInput(std::string msg, std::string hint = {}) {
  return Status(ErrorCode::kInvalidInput, std::move(msg), std::move(hint));
}
inline Status IoError(std::string msg, std::string hint = {}) {
  return Status(ErrorCode::kIoError, std::move(msg), std::move(hint));
}
inline Status ConfigInvalid(std::string msg, std::string hint = {}) {
  return Status(ErrorCode::kConfigInvalid, std::move(msg), std::move(hint));
}
inline Status GenericError(std::string msg, std::string hint = {}) {
  return Status(ErrorCode::kGeneric, std::move(msg), std::move(hint));
}

// Either a value or a non-OK Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {  // NOLINT: implicit by design
    assert(!std::get<Status>(v_).ok());
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace kebab

#define KEBAB_CONCAT_INNER(a, b) a##b
#define KEBAB_CONCAT(a, b) KEBAB_CONCAT_INNER(a, b)

// Returns the Status from the enclosing function when `expr` is not OK.
#define KEBAB_RETURN_IF_ERROR(expr)        \
  do {                                     \
    ::kebab::Status _kebab_st = (expr);    \
    if (!_kebab_st.ok()) return _kebab_st; \
  } while (0)

// `KEBAB_ASSIGN_OR_RETURN(auto x, MakeX());` declares x from a Result or returns its Status.
#define KEBAB_ASSIGN_OR_RETURN(lhs, rexpr) \
  KEBAB_ASSIGN_OR_RETURN_IMPL(KEBAB_CONCAT(_kebab_res_, __LINE__), lhs, rexpr)
#define KEBAB_ASSIGN_OR_RETURN_IMPL(res, lhs, rexpr) \
  auto res = (rexpr);                                \
  if (!res.ok()) return res.status();                \
  lhs = std::move(res).value()
