// The table of every config key (internal to the config module). It is the one place that
// names each section and key, says where its value lives in Config, whether it is a path and
// what `kebab init` writes above it; loading, KEBAB_* overrides and the annotated default all
// walk it, so adding a key means adding one row here and one field in config.h.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "config/config.h"

namespace kebab::config::internal {

// The Config field a key writes to; the alternative also fixes the key's value type.
using FieldRef = std::variant<std::string*, std::vector<std::string>*, int*, long long*, bool*,
                              double*, OcrPageSegmentation*>;

struct KeySpec {
  std::string_view section;  // "workspace", "models.embedding", ...
  std::string_view name;     // "root", "default_k", ...
  FieldRef (*field)(Config&);
  bool is_path;          // expanded and made absolute after loading
  std::string_view doc;  // comment lines ('\n'-separated) written above the key
};

struct SectionSpec {
  std::string_view name;
  std::string_view doc;
};

// The legacy spelling of [ingest] from the frozen spec's schema.
inline constexpr std::string_view kLegacyIngestSection = "indexing";

// Sections in the order the annotated default lists them.
std::span<const SectionSpec> Sections();
// Keys grouped by section, in annotated-default order.
std::span<const KeySpec> Keys();

// nullptr when `section` has no key `name`.
const KeySpec* FindKey(std::string_view section, std::string_view name);
bool IsSection(std::string_view section);
// True when some section lies inside `name` ([ingest.image] holds [ingest.image.caption])
// though `name` has no keys of its own.
bool HoldsSections(std::string_view name);

// "root, exclude" — for error messages.
std::string ValidKeysOf(std::string_view section);
// "workspace, storage, ..." — for error messages.
std::string ValidSections();

// "models.llm.model".
std::string QualifiedName(const KeySpec& key);
// "KEBAB_MODELS_LLM_MODEL".
std::string EnvVarName(std::string_view section, std::string_view name);

// "a string", "an integer", ... — what a key of this field type expects.
std::string_view ExpectedType(const FieldRef& field);

// Built-in defaults with path templates ("~/KnowledgeBase", "{data_dir}/kebab.sqlite") not yet
// expanded.
Config RawDefaultConfig();

}  // namespace kebab::config::internal
