// The domain model (spec §3): assets, canonical documents, blocks, chunks and the enums
// they carry. Plain structs; IDs are 32-hex strings made by core/ids.h. JSON forms used by
// the store (payload_json, source_span_json, metadata_json) live beside each type.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kebab {

enum class MediaKind { kMarkdown, kPdf, kImage, kAudio, kCode, kOther };
std::string_view MediaKindName(MediaKind kind);
std::optional<MediaKind> ParseMediaKind(std::string_view name);  // also accepts "md"

enum class SourceType { kMarkdown, kNote, kPaper, kReference, kInbox };
std::string_view SourceTypeName(SourceType t);
std::optional<SourceType> ParseSourceType(std::string_view name);

// Ordered: a filter `trust_min = secondary` admits secondary and primary.
enum class TrustLevel { kGenerated = 1, kSecondary = 2, kPrimary = 3 };
std::string_view TrustLevelName(TrustLevel t);
std::optional<TrustLevel> ParseTrustLevel(std::string_view name);

// The symbol of a source file's imports and glue between its units (kCode spans).
inline constexpr char kTopLevelSymbol[] = "<top-level>";

// Where a block or chunk came from inside its asset (§3.4). Lines are 1-based, inclusive.
struct SourceSpan {
  enum class Kind { kLine, kByte, kPage, kRegion, kTime, kCode, kCaption };
  Kind kind = Kind::kLine;
  uint64_t start = 0;  // kLine/kCode: first line; kByte: offset; kTime: start_ms
  uint64_t end = 0;    // kLine/kCode: last line; kByte: end offset; kTime: end_ms
  uint32_t page = 0;   // kPage; kRegion: the page or frame the region is on (0 = an image)
  std::optional<uint32_t> char_start, char_end;  // kPage
  // kRegion: pixels of the page rendered at `dpi` (a PDF page), or of the image as stored.
  uint32_t x = 0, y = 0, w = 0, h = 0;
  std::optional<uint32_t> dpi;
  std::optional<std::string> symbol, lang;  // kCode
  std::string model;                        // kCaption: the model that wrote it

  static SourceSpan Lines(uint32_t first, uint32_t last) {
    SourceSpan s;
    s.start = first;
    s.end = last;
    return s;
  }
  nlohmann::json ToJson() const;
  static Result<SourceSpan> FromJson(const nlohmann::json& j);
  bool operator==(const SourceSpan&) const = default;
};

enum class BlockKind { kHeading, kParagraph, kList, kCode, kTable, kQuote, kImageRef, kAudioRef };
std::string_view BlockKindName(BlockKind kind);
std::optional<BlockKind> ParseBlockKind(std::string_view name);

// One structural unit of a document. Kind-specific fields are empty for other kinds.
struct Block {
  BlockKind kind = BlockKind::kParagraph;
  std::string block_id;
  std::vector<std::string> heading_path;  // headings above this block, outermost first
  SourceSpan span;
  int ordinal = 0;  // position in the document, from 0

  int level = 0;                               // kHeading: 1..6
  std::string text;                            // heading/paragraph/quote text, code body
  bool ordered = false;                        // kList
  std::vector<std::string> items;              // kList: one entry per item
  std::string lang;                            // kCode: fence info string, may be empty
  uint32_t head_end = 0;                       // kCode unit: its head's last line, or 0
  std::vector<std::string> headers;            // kTable
  std::vector<std::vector<std::string>> rows;  // kTable
  std::string src, alt;                        // kImageRef / kAudioRef
  std::optional<double> confidence;            // read by OCR: its lines' mean, 0..100

  // The kind-specific part, as stored in blocks.payload_json.
  nlohmann::json PayloadJson() const;
};

struct Metadata {
  std::vector<std::string> aliases;
  std::vector<std::string> tags;
  std::string created_at;  // RFC 3339
  std::string updated_at;  // RFC 3339
  SourceType source_type = SourceType::kMarkdown;
  TrustLevel trust_level = TrustLevel::kPrimary;
  nlohmann::json user = nlohmann::json::object();  // front-matter keys we do not know
  // Source code and files in a git repository (spec §3.6, p10-1A-1); absent otherwise. The
  // repository fields are read from the nearest enclosing `.git` when the file was indexed.
  std::optional<std::string> code_lang;   // lowercase canonical language, e.g. "rust"
  std::optional<std::string> repo;        // the remote's basename, else the repository's folder
  std::optional<std::string> git_remote;  // origin's URL (any other remote's without one)
  std::optional<std::string> git_branch;  // HEAD's branch; absent when detached
  std::optional<std::string> git_commit;  // HEAD's commit, 12 hex digits

  // The optional fields above by JSON key, in key order, for the (de)serializers.
  template <typename Self>
  static auto OptionalFieldsOf(Self& m) {
    return std::array{std::pair{"code_lang", &m.code_lang}, std::pair{"git_branch", &m.git_branch},
                      std::pair{"git_commit", &m.git_commit},
                      std::pair{"git_remote", &m.git_remote}, std::pair{"repo", &m.repo}};
  }

  nlohmann::json ToJson() const;
  static Metadata FromJson(const nlohmann::json& j);
};

struct ProvenanceEvent {
  std::string at;     // RFC 3339
  std::string agent;  // e.g. "kebab-parse-md"
  std::string kind;   // discovered | parsed | normalized | chunked | warning | error | ...
  std::string note;
};

// A file found in the workspace, before parsing (§3.3).
struct RawAsset {
  std::string asset_id;
  std::string source_uri;      // absolute filesystem path
  std::string workspace_path;  // normalized, relative to the workspace root
  MediaKind media = MediaKind::kOther;
  uint64_t byte_len = 0;
  std::string checksum;  // full BLAKE3 hex of the bytes
  std::string discovered_at;
};

// A parsed document in medium-independent form (§3.4).
struct CanonicalDocument {
  std::string doc_id;
  std::string asset_id;
  std::string workspace_path;
  std::string title;
  std::string lang;  // ISO 639-1 or "und"
  std::vector<Block> blocks;
  Metadata metadata;
  std::vector<ProvenanceEvent> provenance;
  std::string parser_version;
  int schema_version = 1;
  int doc_version = 1;
  std::vector<std::string> warnings;  // non-fatal parse problems, shown in the ingest report
};

// True when the document's blocks lie on pages (a PDF's text layer or OCR, a multi-page tiff's
// frames) rather than on lines or one image.
bool IsPaged(const CanonicalDocument& doc);

// A retrievable unit of text made by a chunker (§3.5).
struct Chunk {
  std::string chunk_id;
  std::string doc_id;
  std::vector<std::string> block_ids;
  std::string text;
  std::vector<std::string> heading_path;
  std::string section_label;  // e.g. "§2 Chunking 정책"; empty when the chunk has no heading
  std::vector<SourceSpan> source_spans;
  int token_estimate = 0;
  std::string chunker_version;
  std::string policy_hash;
};

}  // namespace kebab
