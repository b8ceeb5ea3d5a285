// LoadConfig: defaults → config.toml → KEBAB_* environment, then path expansion and
// validation. The TOML document is checked key by key against the schema table so that a typo
// or a wrong type is an error with a file position, never a silently ignored setting.
#include <toml++/toml.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <system_error>

#include "config/config.h"
#include "config/env_overrides.h"
#include "config/expand.h"
#include "config/schema.h"

namespace kebab::config {
namespace {

using internal::FindKey;
using internal::KeySpec;
using internal::PathBases;
using internal::QualifiedName;

constexpr std::string_view kSchemaVersionKey = "schema_version";

std::string_view TomlTypeName(toml::node_type type) {
  switch (type) {
    case toml::node_type::none:
      return "nothing";
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
  }
  return "an unknown value";
}

// "path:line:col" when the position is known, else "path".
std::string Where(const std::string& path, const toml::source_region& source) {
  std::string out = path;
  if (source.begin.line > 0) {
    out += ':' + std::to_string(source.begin.line) + ':' + std::to_string(source.begin.column);
  }
  return out;
}

Status SyntaxError(const std::string& path, const toml::parse_error& error) {
  return ConfigInvalid(Where(path, error.source()) + ": " + std::string(error.description()),
                       "fix the TOML syntax at that position (see https://toml.io)");
}

Status TypeError(const std::string& path, const toml::node& node, std::string_view what,
                 std::string_view expected) {
  return ConfigInvalid(Where(path, node.source()) + ": " + std::string(what) + " must be " +
                           std::string(expected) + ", got " +
                           std::string(TomlTypeName(node.type())),
                       "change the value's type in " + path);
}

std::string KeysHint() {
  return "every valid key is documented in the config.toml that `kebab init` writes";
}

Result<toml::table> ParseToml(const std::string& text, const std::string& path) {
#if TOML_EXCEPTIONS
  try {
    return toml::parse(text, std::string_view(path));
  } catch (const toml::parse_error& e) {
    return SyntaxError(path, e);
  } catch (const std::exception& e) {
    return ConfigInvalid(path + ": cannot parse TOML: " + e.what());
  }
#else
  toml::parse_result result = toml::parse(text, std::string_view(path));
  if (!result) return SyntaxError(path, result.error());
  return std::move(result).table();
#endif
}

// Writes one TOML value into the Config field of `key`.
Status AssignTomlValue(const KeySpec& key, const toml::node& node, const std::string& path,
                       Config* config) {
  const std::string name = QualifiedName(key);
  const internal::FieldRef field = key.field(*config);
  auto type_error = [&] { return TypeError(path, node, name, internal::ExpectedType(field)); };
  auto int_of = [&](const toml::value<int64_t>& value) -> Result<int> {
    const int64_t v = value.get();
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
      return ConfigInvalid(Where(path, node.source()) + ": " + name + " = " + std::to_string(v) +
                           " is out of range");
    }
    return static_cast<int>(v);
  };

  if (auto* s = std::get_if<std::string*>(&field)) {
    const auto* value = node.as_string();
    if (value == nullptr) return type_error();
    if (key.is_path && value->get().empty()) {
      return ConfigInvalid(Where(path, node.source()) + ": " + name + " must not be empty",
                           "set it to a path or remove the line to use the default");
    }
    **s = value->get();
  } else if (auto* list = std::get_if<std::vector<std::string>*>(&field)) {
    const auto* array = node.as_array();
    if (array == nullptr) return type_error();
    std::vector<std::string> items;
    for (const toml::node& item : *array) {
      const auto* value = item.as_string();
      if (value == nullptr) return TypeError(path, item, "each item of " + name, "a string");
      items.push_back(value->get());
    }
    **list = std::move(items);
  } else if (auto* i = std::get_if<int*>(&field)) {
    const auto* value = node.as_integer();
    if (value == nullptr) return type_error();
    KEBAB_ASSIGN_OR_RETURN(**i, int_of(*value));
  } else if (auto* psm = std::get_if<OcrPageSegmentation*>(&field)) {
    // "auto" or a mode's number, whose range Validate checks.
    const auto* text = node.as_string();
    const auto* number = node.as_integer();
    if (text != nullptr && text->get() == "auto") {
      **psm = {};
    } else if (number != nullptr) {
      KEBAB_ASSIGN_OR_RETURN(const int v, int_of(*number));
      **psm = {OcrPageSegmentation::Kind::kFixed, v};
    } else {
      return type_error();
    }
  } else if (auto* ll = std::get_if<long long*>(&field)) {
    const auto* value = node.as_integer();
    if (value == nullptr) return type_error();
    **ll = value->get();
  } else if (auto* b = std::get_if<bool*>(&field)) {
    const auto* value = node.as_boolean();
    if (value == nullptr) return type_error();
    **b = value->get();
  } else if (auto* d = std::get_if<double*>(&field)) {
    // An integer is a fine number here: `score_gate = 1` means 1.0.
    double v = 0;
    if (const auto* f = node.as_floating_point()) {
      v = f->get();
    } else if (const auto* n = node.as_integer()) {
      v = static_cast<double>(n->get());
    } else {
      return type_error();
    }
    if (!std::isfinite(v)) {
      return ConfigInvalid(Where(path, node.source()) + ": " + name + " must be a finite number");
    }
    **d = v;
  }
  return Status::OK();
}

class DocumentApplier {
 public:
  DocumentApplier(std::string path, Config* config) : path_(std::move(path)), config_(config) {}

  Status Apply(const toml::table& root) {
    for (auto&& [key, node] : root) {
      const std::string_view name = key.str();
      if (name == kSchemaVersionKey) {
        const auto* value = node.as_integer();
        if (value == nullptr) return TypeError(path_, node, name, "an integer");
        const int64_t v = value->get();
        if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
          return ConfigInvalid(Where(path_, node.source()) +
                                   ": schema_version = " + std::to_string(v) + " is out of range",
                               "set schema_version = 1");
        }
        config_->schema_version = static_cast<int>(v);
      } else if (name == "models") {
        KEBAB_RETURN_IF_ERROR(ApplyModels(node));
      } else if (internal::IsSection(name) || name == internal::kLegacyIngestSection) {
        KEBAB_RETURN_IF_ERROR(ApplySection(name, node));
      } else if (node.is_table()) {
        return UnknownSection(key, name);
      } else {
        return ConfigInvalid(Where(path_, key.source()) + ": unknown top-level key '" +
                                 std::string(name) + "'; valid: schema_version and the sections " +
                                 internal::ValidSections(),
                             "put the key under its [section]; " + KeysHint());
      }
    }
    return Status::OK();
  }

 private:
  Status ApplyModels(const toml::node& node) {
    const toml::table* models = node.as_table();
    if (models == nullptr) return TypeError(path_, node, "[models]", "a table");
    for (auto&& [sub_key, sub_node] : *models) {
      const std::string section = "models." + std::string(sub_key.str());
      if (!internal::IsSection(section)) return UnknownSection(sub_key, section);
      KEBAB_RETURN_IF_ERROR(ApplySection(section, sub_node));
    }
    return Status::OK();
  }

  // `spelled` is the section as written; [indexing] fills [ingest].
  Status ApplySection(std::string_view spelled, const toml::node& node) {
    const toml::table* table = node.as_table();
    if (table == nullptr) {
      return TypeError(path_, node, "[" + std::string(spelled) + "]", "a table");
    }
    const std::string_view section =
        spelled == internal::kLegacyIngestSection ? std::string_view("ingest") : spelled;
    for (auto&& [entry_key, entry] : *table) {
      const std::string_view name = entry_key.str();
      // The spec's frozen schema listed include patterns; kebab ingests every supported file.
      if (section == "workspace" && name == "include") continue;
      // A table inside a section is its subsection: [ingest.pdf] within [ingest].
      if (const std::string sub = std::string(section) + "." + std::string(name);
          entry.is_table() && (internal::IsSection(sub) || internal::HoldsSections(sub))) {
        KEBAB_RETURN_IF_ERROR(ApplySection(sub, entry));
        continue;
      }
      const KeySpec* spec = FindKey(section, name);
      if (spec == nullptr) {
        return ConfigInvalid(Where(path_, entry_key.source()) + ": unknown key '" +
                                 std::string(name) + "' in [" + std::string(spelled) +
                                 "]; valid keys: " + internal::ValidKeysOf(section),
                             "fix the spelling or remove the key; " + KeysHint());
      }
      if (!seen_.insert(QualifiedName(*spec)).second) {
        return ConfigInvalid(Where(path_, entry_key.source()) + ": " + QualifiedName(*spec) +
                                 " is set in both [ingest] and [indexing]",
                             "keep it in [ingest] only");
      }
      KEBAB_RETURN_IF_ERROR(AssignTomlValue(*spec, entry, path_, config_));
    }
    return Status::OK();
  }

  Status UnknownSection(const toml::key& key, std::string_view name) {
    return ConfigInvalid(Where(path_, key.source()) + ": unknown section [" + std::string(name) +
                             "]; valid sections: " + internal::ValidSections(),
                         "fix the section name or remove it; " + KeysHint());
  }

  std::string path_;
  Config* config_;
  std::set<std::string, std::less<>> seen_;
};

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError("cannot open config file " + path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return IoError("cannot read config file " + path);
  return text.str();
}

// Expands every path key; storage.data_dir first because the others may refer to it.
Status ResolvePaths(const Environment& env, const std::string& config_dir, const PathBases& bases,
                    Config* config) {
  const KeySpec* data_dir_key = FindKey("storage", "data_dir");
  for (int pass = 0; pass < 2; ++pass) {
    for (const KeySpec& key : internal::Keys()) {
      if (!key.is_path || (pass == 0) != (&key == data_dir_key)) continue;
      const std::string name = QualifiedName(key);
      std::string* value = std::get<std::string*>(key.field(*config));
      auto base = bases.find(name);
      const std::optional<std::string_view> data_dir =
          pass == 0 ? std::nullopt : std::optional<std::string_view>(config->storage.data_dir);
      Result<std::string> expanded = internal::ExpandPathChecked(
          *value, env, base == bases.end() ? config_dir : base->second, data_dir);
      if (!expanded.ok()) {
        return expanded.status().WithContext(name + " = \"" + *value + "\"");
      }
      *value = std::move(expanded).value();
    }
  }
  return Status::OK();
}

}  // namespace

Result<Config> LoadConfig(const LoadOptions& options) {
  std::error_code ec;
  const std::filesystem::path cwd_path = std::filesystem::current_path(ec);
  if (ec) return IoError("cannot determine the current directory: " + ec.message());
  const std::string cwd = cwd_path.string();

  Config config = internal::RawDefaultConfig();
  const bool explicit_path = !options.explicit_path.empty();
  if (explicit_path) {
    KEBAB_ASSIGN_OR_RETURN(
        config.config_path,
        internal::ExpandPathChecked(options.explicit_path, options.env, cwd, std::nullopt));
  } else {
    Result<std::string> path = internal::ExpandPathChecked(internal::kDefaultConfigPathTemplate,
                                                           options.env, "/", std::nullopt);
    if (!path.ok()) return path.status().WithContext("cannot locate config.toml");
    config.config_path = std::move(path).value();
  }
  const std::string config_dir = internal::ParentDir(config.config_path);

  const std::filesystem::file_status file = std::filesystem::status(config.config_path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory) {
    return IoError("cannot access config file " + config.config_path + ": " + ec.message());
  }
  if (!std::filesystem::exists(file)) {
    if (explicit_path) {
      return Status(ErrorCode::kConfigNotFound, "config file not found: " + config.config_path,
                    "create it with `kebab init --config " + config.config_path +
                        "`, or drop --config to use " + DefaultConfigPath(options.env));
    }
  } else if (std::filesystem::is_directory(file)) {
    return ConfigInvalid(config.config_path + " is a directory, not a config file",
                         "point --config at a config.toml file");
  } else {
    KEBAB_ASSIGN_OR_RETURN(std::string text, ReadFile(config.config_path));
    KEBAB_ASSIGN_OR_RETURN(toml::table document, ParseToml(text, config.config_path));
    KEBAB_RETURN_IF_ERROR(DocumentApplier(config.config_path, &config).Apply(document));
    config.loaded_from_file = true;
  }

  PathBases bases;
  KEBAB_RETURN_IF_ERROR(internal::ApplyEnvOverrides(options.env, cwd, &config, &bases));
  Status status = ResolvePaths(options.env, config_dir, bases, &config);
  if (status.ok()) status = Validate(config);
  if (!status.ok()) {
    return config.loaded_from_file ? status.WithContext(config.config_path) : status;
  }
  return config;
}

}  // namespace kebab::config
