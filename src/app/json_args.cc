#include "app/json_args.h"

namespace kebab::app {
namespace {

Status Bad(const std::string& path, const std::string& what) {
  return InvalidInput(path.empty() ? "arguments " + what : "argument '" + path + "' " + what);
}

Status CheckValue(const json& schema, const json& value, const std::string& path) {
  if (schema.contains("enum")) {
    for (const json& allowed : schema["enum"]) {
      if (allowed == value) return Status::OK();
    }
    std::string list;
    for (const json& allowed : schema["enum"]) list += (list.empty() ? "" : ", ") + allowed.dump();
    return Bad(path, "must be one of " + list);
  }
  const std::string type = schema.value("type", "");
  if (type == "string") {
    if (!value.is_string()) return Bad(path, "must be a string");
  } else if (type == "boolean") {
    if (!value.is_boolean()) return Bad(path, "must be true or false");
  } else if (type == "integer" || type == "number") {
    const bool ok = type == "integer" ? value.is_number_integer() : value.is_number();
    if (!ok) return Bad(path, type == "integer" ? "must be an integer" : "must be a number");
    const double v = value.get<double>();
    if (schema.contains("minimum") && v < schema["minimum"].get<double>()) {
      return Bad(path, "must be at least " + schema["minimum"].dump());
    }
    if (schema.contains("maximum") && v > schema["maximum"].get<double>()) {
      return Bad(path, "must be at most " + schema["maximum"].dump());
    }
  } else if (type == "array") {
    if (!value.is_array()) return Bad(path, "must be an array");
    if (schema.contains("minItems") && value.size() < schema["minItems"].get<size_t>()) {
      return Bad(path, "needs at least " + schema["minItems"].dump() + " items");
    }
    if (schema.contains("maxItems") && value.size() > schema["maxItems"].get<size_t>()) {
      return Bad(path, "takes at most " + schema["maxItems"].dump() + " items");
    }
    for (size_t i = 0; i < value.size(); ++i) {
      KEBAB_RETURN_IF_ERROR(
          CheckValue(schema["items"], value[i], path + "[" + std::to_string(i) + "]"));
    }
  } else if (type == "object") {
    if (!value.is_object()) return Bad(path, "must be an object");
    const json& properties = schema["properties"];
    for (const auto& [key, item] : value.items()) {
      const std::string item_path = path.empty() ? key : path + "." + key;
      if (!properties.contains(key)) {
        if (schema.value("additionalProperties", true) == false) {
          return Bad(
              item_path, "is not known; the arguments are: " + [&] {
                std::string names;
                for (const auto& [name, _] : properties.items()) {
                  names += (names.empty() ? "" : ", ") + name;
                }
                return names;
              }());
        }
        continue;
      }
      KEBAB_RETURN_IF_ERROR(CheckValue(properties[key], item, item_path));
    }
    for (const json& required : schema.value("required", json::array())) {
      const std::string name = required.get<std::string>();
      if (!value.contains(name)) return Bad(path.empty() ? name : path + "." + name, "is required");
    }
  }
  return Status::OK();
}

}  // namespace

json Str(std::string description) {
  return {{"type", "string"}, {"description", std::move(description)}};
}

json Int(std::string description, std::optional<long long> minimum,
         std::optional<long long> maximum) {
  json j = {{"type", "integer"}, {"description", std::move(description)}};
  if (minimum) j["minimum"] = *minimum;
  if (maximum) j["maximum"] = *maximum;
  return j;
}

json Num(std::string description, double minimum, double maximum) {
  return {{"type", "number"},
          {"description", std::move(description)},
          {"minimum", minimum},
          {"maximum", maximum}};
}

json Bool(std::string description) {
  return {{"type", "boolean"}, {"description", std::move(description)}};
}

json Enum(std::string description, std::initializer_list<const char*> values) {
  json list = json::array();
  for (const char* v : values) list.push_back(v);
  return {{"type", "string"}, {"enum", list}, {"description", std::move(description)}};
}

json StrList(std::string description) {
  return {
      {"type", "array"}, {"items", {{"type", "string"}}}, {"description", std::move(description)}};
}

json Object(json properties, std::initializer_list<const char*> required) {
  json list = json::array();
  for (const char* r : required) list.push_back(r);
  json j = {
      {"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!list.empty()) j["required"] = list;
  return j;
}

Status CheckArguments(const json& schema, const json& arguments) {
  return CheckValue(schema, arguments, "");
}

}  // namespace kebab::app
