// Path templates: "~", $VAR, ${VAR}, ${VAR:-fallback} and {data_dir}, then resolution against a
// base directory and lexical normalization.
#include "config/expand.h"

#include <filesystem>
#include <system_error>

#include "config/config.h"

namespace kebab::config {
namespace {

constexpr std::string_view kDataDirToken = "{data_dir}";

bool IsNameStart(char c) {
  return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}
bool IsNameChar(char c) {
  return IsNameStart(c) || (c >= '0' && c <= '9');
}

// Index of the '}' closing the '{' at `open`, or npos.
size_t MatchingBrace(std::string_view s, size_t open) {
  int depth = 0;
  for (size_t k = open; k < s.size(); ++k) {
    if (s[k] == '{') {
      ++depth;
    } else if (s[k] == '}' && --depth == 0) {
      return k;
    }
  }
  return std::string_view::npos;
}

// Expands one template. Always produces a best-effort result (unexpandable parts stay
// literal) and remembers the first problem, so the lenient and strict entry points share it.
class Expander {
 public:
  Expander(const Environment& env, std::optional<std::string_view> data_dir)
      : env_(env), data_dir_(data_dir) {}

  std::string Expand(std::string_view s) {
    std::string out;
    size_t i = 0;
    if (!s.empty() && s[0] == '~' && (s.size() == 1 || s[1] == '/')) {
      AppendHome(&out);
      i = 1;
    }
    while (i < s.size()) {
      const char c = s[i];
      if (c == '$' && i + 1 < s.size() && s[i + 1] == '{') {
        const size_t close = MatchingBrace(s, i + 1);
        if (close == std::string_view::npos) {
          Fail("unterminated \"${\" in \"" + std::string(s) + "\"");
          out.append(s.substr(i));
          break;
        }
        AppendBraced(s.substr(i + 2, close - i - 2), s.substr(i, close + 1 - i), &out);
        i = close + 1;
      } else if (c == '$' && i + 1 < s.size() && IsNameStart(s[i + 1])) {
        size_t end = i + 1;
        while (end < s.size() && IsNameChar(s[end])) ++end;
        AppendVar(s.substr(i + 1, end - i - 1), &out);
        i = end;
      } else if (c == '{' && s.substr(i).starts_with(kDataDirToken)) {
        if (data_dir_) {
          out += *data_dir_;
        } else {
          Fail("{data_dir} can only be used in paths other than storage.data_dir");
          out += kDataDirToken;
        }
        i += kDataDirToken.size();
      } else {
        out += c;
        ++i;
      }
    }
    return out;
  }

  const std::string& error() const { return error_; }

 private:
  // nullopt when unset. XDG_* variables holding relative paths count as unset, as the XDG
  // Base Directory spec requires.
  std::optional<std::string_view> Lookup(std::string_view name) const {
    auto it = env_.find(std::string(name));
    if (it == env_.end()) return std::nullopt;
    if (name.starts_with("XDG_") && !it->second.starts_with('/')) return std::nullopt;
    return std::string_view(it->second);
  }

  void AppendHome(std::string* out) {
    std::optional<std::string_view> home = Lookup("HOME");
    if (!home || home->empty()) {
      Fail("HOME is not set, so \"~\" and $HOME cannot be expanded");
      *out += '~';
    } else if (!home->starts_with('/')) {
      Fail("HOME = \"" + std::string(*home) + "\" is not an absolute path");
      *out += *home;
    } else {
      *out += *home;
    }
  }

  void AppendVar(std::string_view name, std::string* out) {
    if (name == "HOME") return AppendHome(out);
    if (std::optional<std::string_view> value = Lookup(name)) *out += *value;
  }

  // `inner` is what sits between "${" and "}"; `whole` includes them.
  void AppendBraced(std::string_view inner, std::string_view whole, std::string* out) {
    size_t name_end = 0;
    if (!inner.empty() && IsNameStart(inner[0])) {
      while (name_end < inner.size() && IsNameChar(inner[name_end])) ++name_end;
    }
    const std::string_view name = inner.substr(0, name_end);
    const std::string_view rest = inner.substr(name_end);
    if (!name.empty() && rest.empty()) return AppendVar(name, out);
    if (!name.empty() && rest.starts_with(":-")) {
      std::optional<std::string_view> value = Lookup(name);
      if (value && !value->empty()) {
        *out += *value;
      } else {
        *out += Expand(rest.substr(2));
      }
      return;
    }
    Fail("unsupported \"" + std::string(whole) + "\" (use ${VAR} or ${VAR:-fallback})");
    *out += whole;
  }

  void Fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
  }

  const Environment& env_;
  std::optional<std::string_view> data_dir_;
  std::string error_;
};

// Absolute, lexically normal, without a trailing slash.
std::string Normalize(const std::string& expanded, std::string_view base_dir) {
  std::filesystem::path p(expanded);
  if (p.is_relative()) {
    std::filesystem::path base(base_dir);
    if (base.empty() || base.is_relative()) {
      std::error_code ec;
      std::filesystem::path cwd = std::filesystem::current_path(ec);
      base = ec ? std::filesystem::path("/") / base : cwd / base;
    }
    p = base / p;
  }
  std::string s = p.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

}  // namespace

std::string ExpandPath(const std::string& value, const Environment& env,
                       const std::string& base_dir, const std::string& data_dir) {
  Expander expander(env,
                    data_dir.empty() ? std::nullopt : std::optional<std::string_view>(data_dir));
  return Normalize(expander.Expand(value), base_dir);
}

std::string DefaultConfigPath(const Environment& env) {
  return ExpandPath(std::string(internal::kDefaultConfigPathTemplate), env, "/");
}

namespace internal {

Result<std::string> ExpandPathChecked(std::string_view value, const Environment& env,
                                      std::string_view base_dir,
                                      std::optional<std::string_view> data_dir) {
  Expander expander(env, data_dir);
  std::string expanded = expander.Expand(value);
  if (!expander.error().empty()) return ConfigInvalid(expander.error());
  if (expanded.empty()) {
    return ConfigInvalid("\"" + std::string(value) + "\" expands to an empty path");
  }
  return Normalize(expanded, base_dir);
}

std::string ParentDir(std::string_view file_path) {
  std::string parent = std::filesystem::path(file_path).parent_path().string();
  return parent.empty() ? "/" : parent;
}

}  // namespace internal
}  // namespace kebab::config
