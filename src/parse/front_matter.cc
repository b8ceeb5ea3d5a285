#include "parse/front_matter.h"

#include <toml++/toml.h>
#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cmath>
#include <exception>
#include <sstream>
#include <unordered_set>

#include "core/status.h"
#include "core/time.h"
#include "core/unicode.h"
#include "parse/lines.h"

namespace kebab::parse {
namespace {

using nlohmann::json;

// Alias expansion can turn a few lines of YAML into billions of values ("billion laughs"), so
// conversion stops at these limits and the front matter counts as malformed.
constexpr int kMaxDepth = 64;
constexpr size_t kMaxValues = 100000;

constexpr std::string_view kKnownKeys[] = {
    "title", "aliases", "tags", "lang", "created_at", "updated_at", "source_type", "trust_level"};

bool IsKnownKey(std::string_view key) {
  for (std::string_view k : kKnownKeys) {
    if (k == key) return true;
  }
  return false;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() &&
         (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

Status Malformed(std::string reason) {
  return InvalidInput(std::move(reason));
}

// ---------------------------------------------------------------------------------------------
// YAML → JSON

bool IsDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// YAML 1.2 core-schema float: [-+]? ( . [0-9]+ | [0-9]+ ( . [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
bool LooksLikeFloat(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  size_t int_digits = 0, frac_digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++int_digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++frac_digits;
  }
  if (int_digits + frac_digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (!IsDigits(s.substr(i))) return false;
    i = s.size();
  }
  return i == s.size();
}

// A plain (unquoted) YAML scalar as the JSON value a YAML 1.2 reader would see: null, bool,
// integer or float where the text says so, a string otherwise.
json TypedScalar(const std::string& s) {
  if (s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  std::string_view v = s;
  bool negative = !v.empty() && v.front() == '-';
  std::string_view unsigned_part =
      (!v.empty() && (v.front() == '-' || v.front() == '+')) ? v.substr(1) : v;
  if (IsDigits(unsigned_part)) {
    int64_t n = 0;
    auto [p, ec] =
        std::from_chars(unsigned_part.data(), unsigned_part.data() + unsigned_part.size(), n);
    if (ec == std::errc() && p == unsigned_part.data() + unsigned_part.size()) {
      return negative ? -n : n;
    }
  }
  if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'o')) {
    int64_t n = 0;
    int base = v[1] == 'x' ? 16 : 8;
    auto [p, ec] = std::from_chars(v.data() + 2, v.data() + v.size(), n, base);
    if (ec == std::errc() && p == v.data() + v.size()) return n;
  }
  if (LooksLikeFloat(v)) {
    // from_chars rejects a leading '+', which YAML allows.
    std::string_view digits = (!v.empty() && v.front() == '+') ? v.substr(1) : v;
    double d = 0;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), d);
    if (ec == std::errc() && p == digits.data() + digits.size() && std::isfinite(d)) return d;
  }
  return s;
}

// `typed` = false keeps every scalar as its source text (used for known keys, where "1.10"
// must stay "1.10").
Result<json> YamlToJson(const YAML::Node& node, bool typed, int depth, size_t* budget) {
  if (depth > kMaxDepth) return Malformed("values nested more than 64 levels deep");
  if (*budget == 0) return Malformed("more than 100000 values (alias expansion?)");
  --*budget;
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      // Tag "?" marks a plain scalar; quoted scalars ("!") and explicit tags stay strings.
      if (typed && node.Tag() == "?") return TypedScalar(node.Scalar());
      return json(node.Scalar());
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (const YAML::Node& item : node) {
        KEBAB_ASSIGN_OR_RETURN(json value, YamlToJson(item, typed, depth + 1, budget));
        out.push_back(std::move(value));
      }
      return out;
    }
    case YAML::NodeType::Map: {
      json out = json::object();
      for (const auto& kv : node) {
        if (!kv.first.IsScalar()) continue;
        KEBAB_ASSIGN_OR_RETURN(json value, YamlToJson(kv.second, typed, depth + 1, budget));
        out[kv.first.Scalar()] = std::move(value);
      }
      return out;
    }
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      break;
  }
  return json(nullptr);
}

// The top-level mapping as a JSON object; known keys keep their scalars as text.
Result<json> YamlFields(std::string_view content) {
  try {
    YAML::Node root = YAML::Load(std::string(content));
    if (root.IsNull()) return json::object();
    if (!root.IsMap()) return Malformed("not a mapping");
    json out = json::object();
    size_t budget = kMaxValues;
    for (const auto& kv : root) {
      if (!kv.first.IsScalar()) continue;
      const std::string& key = kv.first.Scalar();
      KEBAB_ASSIGN_OR_RETURN(json value, YamlToJson(kv.second, !IsKnownKey(key), 1, &budget));
      out[key] = std::move(value);
    }
    return out;
  } catch (const YAML::Exception& e) {
    if (e.mark.is_null()) return Malformed(e.msg);
    // +2: the mark counts from 0 inside the front matter, which starts after the `---` line.
    return Malformed("line " + std::to_string(e.mark.line + 2) + ", column " +
                     std::to_string(e.mark.column + 1) + ": " + e.msg);
  } catch (const std::exception& e) {
    return Malformed(e.what());
  }
}

// ---------------------------------------------------------------------------------------------
// TOML → JSON

json TomlToJson(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table: {
      json out = json::object();
      for (auto&& [key, value] : *node.as_table()) out[std::string(key.str())] = TomlToJson(value);
      return out;
    }
    case toml::node_type::array: {
      json out = json::array();
      for (const toml::node& item : *node.as_array()) out.push_back(TomlToJson(item));
      return out;
    }
    case toml::node_type::string:
      return node.as_string()->get();
    case toml::node_type::integer:
      return node.as_integer()->get();
    case toml::node_type::floating_point: {
      double d = node.as_floating_point()->get();
      if (std::isfinite(d)) return d;
      break;  // JSON has no inf/nan: keep the TOML text
    }
    case toml::node_type::boolean:
      return node.as_boolean()->get();
    default:
      break;
  }
  // Dates and times (and non-finite floats) as their TOML text, e.g. 1979-05-27T07:32:00Z.
  std::ostringstream text;
  node.visit([&](const auto& value) { text << value; });
  return text.str();
}

Result<json> TomlFields(std::string_view content) {
  try {
    toml::table table = toml::parse(content);
    return TomlToJson(table);
  } catch (const toml::parse_error& e) {
    // +1: TOML counts lines from 1 inside the front matter, which starts after `+++`.
    return Malformed("line " + std::to_string(e.source().begin.line + 1) + ": " +
                     std::string(e.description()));
  } catch (const std::exception& e) {
    return Malformed(e.what());
  }
}

// ---------------------------------------------------------------------------------------------
// Known keys

// A scalar as text: strings as they are, numbers and booleans as JSON writes them.
std::optional<std::string> ScalarText(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number() || value.is_boolean()) return value.dump();
  return std::nullopt;
}

// A string or a list of strings (tags also accept "a, b, c"), trimmed, without empties or
// repeats, in their first-seen order, NFC.
std::vector<std::string> StringList(const json& value, bool split_commas, std::string_view key,
                                    std::vector<std::string>* warnings) {
  std::vector<std::string> raw;
  auto add = [&](std::string_view text) {
    if (!split_commas) {
      raw.emplace_back(text);
      return;
    }
    size_t pos = 0;
    while (pos <= text.size()) {
      size_t comma = text.find(',', pos);
      if (comma == std::string_view::npos) comma = text.size();
      raw.emplace_back(text.substr(pos, comma - pos));
      pos = comma + 1;
    }
  };
  if (value.is_array()) {
    for (const json& item : value) {
      if (auto text = ScalarText(item)) {
        raw.push_back(std::move(*text));
      } else if (!item.is_null()) {
        warnings->push_back("front matter " + std::string(key) +
                            ": ignored an item that is not a string");
      }
    }
  } else if (auto text = ScalarText(value)) {
    add(*text);
  } else if (!value.is_null()) {
    warnings->push_back("front matter " + std::string(key) +
                        ": expected a string or a list of strings; ignored");
  }
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  for (const std::string& item : raw) {
    std::string clean = Nfc(Trim(item));
    if (clean.empty() || !seen.insert(clean).second) continue;
    out.push_back(std::move(clean));
  }
  return out;
}

void ApplyKey(const std::string& key, const json& value, FrontMatter* fm,
              std::vector<std::string>* warnings) {
  auto warn = [&](const std::string& what) {
    warnings->push_back("front matter " + key + ": " + what);
  };
  if (key == "aliases") {
    fm->aliases = StringList(value, /*split_commas=*/false, key, warnings);
    return;
  }
  if (key == "tags") {
    fm->tags = StringList(value, /*split_commas=*/true, key, warnings);
    return;
  }
  if (!IsKnownKey(key)) {
    fm->user[key] = value;
    return;
  }
  if (value.is_null()) return;
  std::optional<std::string> text = ScalarText(value);
  if (!text) {
    warn("expected a string; ignored");
    return;
  }
  std::string_view v = Trim(*text);
  if (key == "title") {
    if (!v.empty()) fm->title = Nfc(v);
  } else if (key == "lang") {
    std::string lang = Lower(v.substr(0, v.find_first_of("-_")));
    if (!lang.empty()) fm->lang = std::move(lang);
  } else if (key == "created_at" || key == "updated_at") {
    std::optional<std::string> at = NormalizeTimestamp(v);
    if (!at) {
      warn("'" + std::string(v) + "' is not an RFC 3339 timestamp or YYYY-MM-DD date; ignored");
    } else if (key == "created_at") {
      fm->created_at = std::move(at);
    } else {
      fm->updated_at = std::move(at);
    }
  } else if (key == "source_type") {
    fm->source_type = ParseSourceType(Lower(v));
    if (!fm->source_type) {
      warn("'" + std::string(v) +
           "' is not one of markdown|note|paper|reference|inbox; using markdown");
    }
  } else if (key == "trust_level") {
    fm->trust_level = ParseTrustLevel(Lower(v));
    if (!fm->trust_level) {
      warn("'" + std::string(v) + "' is not one of primary|secondary|generated; using primary");
    }
  }
}

}  // namespace

FrontMatterSplit SplitFrontMatter(std::string_view text) {
  FrontMatterSplit out;
  out.body = text;
  auto trim_right = [](std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  };
  size_t first_end = LineEnd(text, 0);
  std::string_view opening = trim_right(text.substr(0, first_end));
  FrontMatterFormat format;
  if (opening == "---") {
    format = FrontMatterFormat::kYaml;
  } else if (opening == "+++") {
    format = FrontMatterFormat::kToml;
  } else {
    return out;
  }
  size_t content_begin = SkipTerminator(text, first_end);
  uint32_t lines = 1;
  for (size_t pos = content_begin; pos < text.size();) {
    size_t end = LineEnd(text, pos);
    ++lines;
    std::string_view line = trim_right(text.substr(pos, end - pos));
    bool closes =
        format == FrontMatterFormat::kYaml ? (line == "---" || line == "...") : line == "+++";
    if (closes) {
      out.format = format;
      out.content = text.substr(content_begin, pos - content_begin);
      out.body = text.substr(SkipTerminator(text, end));
      out.lines = lines;
      return out;
    }
    pos = SkipTerminator(text, end);
  }
  return out;
}

FrontMatter ParseFrontMatter(FrontMatterFormat format, std::string_view content,
                             std::vector<std::string>* warnings) {
  if (format == FrontMatterFormat::kNone) return {};
  Result<json> fields =
      format == FrontMatterFormat::kYaml ? YamlFields(content) : TomlFields(content);
  if (!fields.ok()) {
    warnings->push_back("malformed front matter: " + fields.status().message());
    return {};
  }
  FrontMatter fm;
  for (const auto& [key, value] : fields->items()) ApplyKey(key, value, &fm, warnings);
  return fm;
}

std::optional<std::string> NormalizeTimestamp(std::string_view value) {
  value = Trim(value);
  std::optional<int64_t> at = ParseRfc3339(value);
  if (!at && value.size() >= 19) at = ParseRfc3339(std::string(value) + "Z");
  if (!at) return std::nullopt;
  return FormatRfc3339(*at);
}

}  // namespace kebab::parse
