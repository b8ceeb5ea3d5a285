#include "core/status.h"

namespace kebab {

std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk:
      return "ok";
    case ErrorCode::kGeneric:
      return "generic";
    case ErrorCode::kInvalidInput:
      return "invalid_input";
    case ErrorCode::kConfigInvalid:
      return "config_invalid";
    case ErrorCode::kConfigNotFound:
      return "config_not_found";
    case ErrorCode::kNotIndexed:
      return "not_indexed";
    case ErrorCode::kIoError:
      return "io_error";
    case ErrorCode::kDocNotFound:
      return "doc_not_found";
    case ErrorCode::kChunkNotFound:
      return "chunk_not_found";
    case ErrorCode::kSpanNotSupported:
      return "span_not_supported";
    case ErrorCode::kStaleCursor:
      return "stale_cursor";
    case ErrorCode::kReadonlyMode:
      return "readonly_mode";
    case ErrorCode::kModelUnreachable:
      return "model_unreachable";
    case ErrorCode::kModelNotPulled:
      return "model_not_pulled";
    case ErrorCode::kTimeout:
      return "timeout";
    case ErrorCode::kCorrupt:
      return "corrupt";
    case ErrorCode::kCancelled:
      return "cancelled";
  }
  return "generic";
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  return Status(code_, std::string(context) + ": " + message_, hint_);
}

Status Status::WithContext(std::string_view what, std::string_view which) const {
  if (ok()) return *this;
  std::string context(what);
  context.append(which);
  return WithContext(context);
}

Status Status::WithHint(std::string hint) const {
  if (ok()) return *this;
  return Status(code_, message_, std::move(hint));
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string s(ErrorCodeName(code_));
  s += ": ";
  s += message_;
  return s;
}

}  // namespace kebab
