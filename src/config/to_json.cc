#include <nlohmann/json.hpp>

#include "config/config.h"
#include "config/schema.h"

namespace kebab::config {
namespace {

// A value as the config file spells it.
template <typename T>
nlohmann::json ValueJson(const T& value) {
  return value;
}
nlohmann::json ValueJson(const OcrPageSegmentation& value) {
  if (value.kind == OcrPageSegmentation::Kind::kAuto) return "auto";
  return value.psm;
}

}  // namespace

nlohmann::json ToJson(const Config& config) {
  Config copy = config;  // the key table hands out pointers into a mutable Config
  nlohmann::json out = {{"schema_version", config.schema_version}};
  for (const internal::KeySpec& key : internal::Keys()) {
    nlohmann::json* section = &out;
    std::string_view rest = key.section;
    while (!rest.empty()) {
      const size_t dot = rest.find('.');
      section = &(*section)[std::string(rest.substr(0, dot))];
      rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    }
    std::visit([&](auto* field) { (*section)[std::string(key.name)] = ValueJson(*field); },
               key.field(copy));
  }
  return out;
}

}  // namespace kebab::config
