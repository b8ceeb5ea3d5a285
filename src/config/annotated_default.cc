// AnnotatedDefaultConfig: the config.toml that `kebab init` writes, generated from the schema
// table so that it always lists exactly the keys the loader accepts, with their defaults.
#include <charconv>
#include <string_view>

#include "config/config.h"
#include "config/schema.h"

namespace kebab::config {
namespace {

constexpr std::string_view kPreamble =
    "# kebab configuration.\n"
    "#\n"
    "# Every key is listed below with its built-in default; delete a line to go back to the\n"
    "# default. Settings are applied in this order, later ones winning:\n"
    "#   built-in defaults -> this file -> KEBAB_<SECTION>_<KEY> environment variables\n"
    "#   (e.g. KEBAB_SEARCH_DEFAULT_K=20; lists comma-separated; booleans 1/0, true/false,\n"
    "#   yes/no, on/off) -> command-line flags.\n"
    "# Paths may use ~, $VAR, ${VAR:-fallback} and {data_dir}; a relative path is resolved\n"
    "# against the directory of this file. Unknown sections and keys are errors, so a typo is\n"
    "# never silently ignored.\n";

void AppendComment(std::string_view text, std::string* out) {
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    *out += "# ";
    *out += text.substr(0, nl);
    *out += '\n';
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
}

void AppendTomlString(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  *out += '"';
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      *out += '\\';
      *out += ch;
    } else if (c < 0x20 || c == 0x7f) {
      *out += "\\u00";
      *out += kHex[c >> 4];
      *out += kHex[c & 0xf];
    } else {
      *out += ch;
    }
  }
  *out += '"';
}

// Shortest round-tripping form, always with a fraction or exponent so TOML reads a float.
void AppendTomlFloat(double v, std::string* out) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  std::string_view text(buf, ec == std::errc() ? static_cast<size_t>(end - buf) : 0);
  *out += text;
  if (text.find_first_of(".eE") == std::string_view::npos) *out += ".0";
}

void AppendValue(const internal::FieldRef& field, std::string* out) {
  struct Visitor {
    std::string* out;
    void operator()(std::string* v) const { AppendTomlString(*v, out); }
    void operator()(std::vector<std::string>* v) const {
      *out += '[';
      for (size_t i = 0; i < v->size(); ++i) {
        if (i > 0) *out += ", ";
        AppendTomlString((*v)[i], out);
      }
      *out += ']';
    }
    void operator()(int* v) const { *out += std::to_string(*v); }
    void operator()(long long* v) const { *out += std::to_string(*v); }
    void operator()(bool* v) const { *out += *v ? "true" : "false"; }
    void operator()(double* v) const { AppendTomlFloat(*v, out); }
    void operator()(OcrPageSegmentation* v) const {
      if (v->kind == OcrPageSegmentation::Kind::kAuto) {
        AppendTomlString("auto", out);
      } else {
        *out += std::to_string(v->psm);
      }
    }
  };
  std::visit(Visitor{out}, field);
}

}  // namespace

std::string AnnotatedDefaultConfig() {
  Config defaults = internal::RawDefaultConfig();
  std::string out(kPreamble);
  out += "\n# Layout version of this file. Only 1.\n";
  out += "schema_version = " + std::to_string(defaults.schema_version) + "\n";
  for (const internal::SectionSpec& section : internal::Sections()) {
    out += '\n';
    AppendComment(section.doc, &out);
    out += '[';
    out += section.name;
    out += "]\n";
    for (const internal::KeySpec& key : internal::Keys()) {
      if (key.section != section.name) continue;
      if (!out.ends_with("]\n")) out += '\n';
      AppendComment(key.doc, &out);
      AppendComment("env: " + internal::EnvVarName(key.section, key.name), &out);
      out += key.name;
      out += " = ";
      AppendValue(key.field(defaults), &out);
      out += '\n';
    }
  }
  return out;
}

}  // namespace kebab::config
