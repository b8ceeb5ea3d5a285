#include "config/env_overrides.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <string_view>
#include <vector>

#include "config/schema.h"

extern char** environ;

namespace kebab::config {
namespace internal {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

template <typename Int>
bool ParseInt(std::string_view text, Int* out) {
  text = Trim(text);
  if (text.starts_with('+')) {
    text.remove_prefix(1);
    if (text.starts_with('-')) return false;
  }
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *out);
  return !text.empty() && ec == std::errc() && ptr == end;
}

bool ParseDouble(std::string_view text, double* out) {
  text = Trim(text);
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *out);
  return !text.empty() && ec == std::errc() && ptr == end && std::isfinite(*out);
}

bool ParseBool(std::string_view text, bool* out) {
  std::string lower;
  for (char c : Trim(text)) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "1" || lower == "true" || lower == "yes" || lower == "on") {
    *out = true;
    return true;
  }
  if (lower == "0" || lower == "false" || lower == "no" || lower == "off") {
    *out = false;
    return true;
  }
  return false;
}

std::vector<std::string> SplitList(std::string_view text) {
  std::vector<std::string> items;
  while (true) {
    const size_t comma = text.find(',');
    std::string_view item = Trim(text.substr(0, comma));
    if (!item.empty()) items.emplace_back(item);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return items;
}

// Parses an override into the field it names. Scalars parse into a temporary so a rejected
// value leaves the field untouched.
class Assigner {
 public:
  explicit Assigner(std::string_view value) : value_(value) {}

  bool operator()(std::string* field) const {
    *field = value_;
    return true;
  }
  bool operator()(std::vector<std::string>* field) const {
    *field = SplitList(value_);
    return true;
  }
  bool operator()(int* field) const { return Commit(ParseInt<int>, field); }
  bool operator()(long long* field) const { return Commit(ParseInt<long long>, field); }
  bool operator()(bool* field) const { return Commit(ParseBool, field); }
  bool operator()(double* field) const { return Commit(ParseDouble, field); }
  bool operator()(OcrPageSegmentation* field) const {
    if (Trim(value_) == "auto") {
      *field = {};
      return true;
    }
    int psm = 0;
    if (!ParseInt(value_, &psm)) return false;
    *field = {OcrPageSegmentation::Kind::kFixed, psm};
    return true;
  }

 private:
  template <typename T>
  bool Commit(bool (*parse)(std::string_view, T*), T* field) const {
    T parsed{};
    if (!parse(value_, &parsed)) return false;
    *field = parsed;
    return true;
  }

  std::string_view value_;
};

}  // namespace

Status ApplyEnvOverrides(const Environment& env, const std::string& cwd, Config* config,
                         PathBases* bases) {
  for (const KeySpec& key : Keys()) {
    // The legacy spelling first, so the current one wins when both are set.
    std::string names[2] = {std::string(), EnvVarName(key.section, key.name)};
    if (key.section == "ingest") names[0] = EnvVarName(kLegacyIngestSection, key.name);
    for (const std::string& var : names) {
      if (var.empty()) continue;
      auto it = env.find(var);
      if (it == env.end()) continue;
      if (key.is_path && Trim(it->second).empty()) {
        return ConfigInvalid("environment variable " + var + " is empty (it sets " +
                                 QualifiedName(key) + ", which must be a path)",
                             "unset " + var + " or set it to a path");
      }
      if (!std::visit(Assigner(it->second), key.field(*config))) {
        const std::string expected(ExpectedType(key.field(*config)));
        return ConfigInvalid("environment variable " + var + " = \"" + it->second + "\" is not " +
                                 expected + " (it sets " + QualifiedName(key) + ")",
                             "unset " + var + " or give it " + expected);
      }
      if (key.is_path) (*bases)[QualifiedName(key)] = cwd;
    }
  }
  return Status::OK();
}

}  // namespace internal

Environment ProcessEnvironment() {
  Environment env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    std::string_view kv(*entry);
    const size_t eq = kv.find('=');
    if (eq == std::string_view::npos) continue;
    env.emplace(std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1)));
  }
  return env;
}

}  // namespace kebab::config
