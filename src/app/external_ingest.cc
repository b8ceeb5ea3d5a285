// ingest-file and ingest-stdin: content lands in <root>/_external/<blake3-12>.<ext> (spec
// §6.7), which `.kebabignore` hides from whole-workspace walks, then is ingested directly.
#include <filesystem>
#include <fstream>

#include "app/ingest.h"
#include "core/files.h"
#include "core/hash.h"
#include "parse/extractor.h"
#include "source/ignore.h"
#include "source/walker.h"

namespace kebab::app {
namespace {

namespace fs = std::filesystem;

// Writes `bytes` to <root>/_external/<hash12><ext> atomically; returns the absolute path.
Result<std::string> StoreExternal(const std::string& root, std::string_view bytes,
                                  const std::string& ext) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    return IoError("workspace root " + root + " does not exist",
                   "run `kebab init` or set workspace.root in the config");
  }
  const fs::path dir = fs::path(root) / "_external";
  fs::create_directories(dir, ec);
  if (ec) return IoError("cannot create " + dir.string() + ": " + ec.message());
  KEBAB_RETURN_IF_ERROR(source::EnsureKebabignoreLine(root, "_external/"));
  const fs::path dest = dir / (Blake3Hex(bytes).substr(0, 12) + ext);
  if (!fs::exists(dest, ec)) KEBAB_RETURN_IF_ERROR(WriteFileAtomically(dest.string(), bytes));
  return dest.string();
}

Result<IngestReport> IngestStored(Session& session, const std::string& path) {
  IngestOptions options;
  options.explicit_files = {path};
  return Ingest(session, options, nullptr, nullptr);
}

std::string YamlQuoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace

Result<IngestReport> IngestFile(Session& session, const std::string& file) {
  KEBAB_RETURN_IF_ERROR(session.CheckWritable("ingest-file"));
  const config::Config& config = session.config();
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    return IoError("no such file: " + file);
  }
  KEBAB_RETURN_IF_ERROR(CheckReadable(file));
  std::ifstream in(file, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  if (!in.good() && !in.eof()) return IoError("cannot read " + file);
  std::string ext = fs::path(file).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  KEBAB_ASSIGN_OR_RETURN(std::string dest, StoreExternal(config.workspace.root, bytes, ext));
  return IngestStored(session, dest);
}

Result<IngestReport> IngestText(Session& session, const std::string& title,
                                const std::string& body) {
  KEBAB_RETURN_IF_ERROR(session.CheckWritable("ingest-stdin"));
  const config::Config& config = session.config();
  if (title.empty()) return InvalidInput("--title must not be empty");
  if (body.starts_with("---") || body.starts_with("+++")) {
    return InvalidInput("the text already starts with front matter",
                        "save it as a file and use `kebab ingest-file`");
  }
  std::string doc = "---\ntitle: " + YamlQuoted(title) + "\nsource_type: inbox\n---\n" + body;
  KEBAB_ASSIGN_OR_RETURN(std::string dest, StoreExternal(config.workspace.root, doc, ".md"));
  return IngestStored(session, dest);
}

}  // namespace kebab::app
