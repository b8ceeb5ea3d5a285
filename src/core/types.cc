#include "core/types.h"

#include <algorithm>

namespace kebab {
namespace {

template <typename E, size_t N>
std::optional<E> Lookup(const std::pair<E, std::string_view> (&table)[N], std::string_view name) {
  for (const auto& [e, n] : table) {
    if (n == name) return e;
  }
  return std::nullopt;
}

template <typename E, size_t N>
std::string_view NameOf(const std::pair<E, std::string_view> (&table)[N], E e) {
  for (const auto& [v, n] : table) {
    if (v == e) return n;
  }
  return "unknown";
}

constexpr std::pair<MediaKind, std::string_view> kMediaNames[] = {
    {MediaKind::kMarkdown, "markdown"}, {MediaKind::kPdf, "pdf"},   {MediaKind::kImage, "image"},
    {MediaKind::kAudio, "audio"},       {MediaKind::kCode, "code"}, {MediaKind::kOther, "other"}};
constexpr std::pair<SourceType, std::string_view> kSourceTypeNames[] = {
    {SourceType::kMarkdown, "markdown"},
    {SourceType::kNote, "note"},
    {SourceType::kPaper, "paper"},
    {SourceType::kReference, "reference"},
    {SourceType::kInbox, "inbox"}};
constexpr std::pair<TrustLevel, std::string_view> kTrustNames[] = {
    {TrustLevel::kPrimary, "primary"},
    {TrustLevel::kSecondary, "secondary"},
    {TrustLevel::kGenerated, "generated"}};
constexpr std::pair<BlockKind, std::string_view> kBlockNames[] = {
    {BlockKind::kHeading, "heading"},    {BlockKind::kParagraph, "paragraph"},
    {BlockKind::kList, "list"},          {BlockKind::kCode, "code"},
    {BlockKind::kTable, "table"},        {BlockKind::kQuote, "quote"},
    {BlockKind::kImageRef, "image_ref"}, {BlockKind::kAudioRef, "audio_ref"}};
constexpr std::pair<SourceSpan::Kind, std::string_view> kSpanNames[] = {
    {SourceSpan::Kind::kLine, "line"},      {SourceSpan::Kind::kByte, "byte"},
    {SourceSpan::Kind::kPage, "page"},      {SourceSpan::Kind::kRegion, "region"},
    {SourceSpan::Kind::kTime, "time"},      {SourceSpan::Kind::kCode, "code"},
    {SourceSpan::Kind::kCaption, "caption"}};

}  // namespace

std::string_view MediaKindName(MediaKind kind) {
  return NameOf(kMediaNames, kind);
}
std::optional<MediaKind> ParseMediaKind(std::string_view name) {
  if (name == "md") return MediaKind::kMarkdown;
  return Lookup(kMediaNames, name);
}
std::string_view SourceTypeName(SourceType t) {
  return NameOf(kSourceTypeNames, t);
}
std::optional<SourceType> ParseSourceType(std::string_view name) {
  return Lookup(kSourceTypeNames, name);
}
std::string_view TrustLevelName(TrustLevel t) {
  return NameOf(kTrustNames, t);
}
std::optional<TrustLevel> ParseTrustLevel(std::string_view name) {
  return Lookup(kTrustNames, name);
}
std::string_view BlockKindName(BlockKind kind) {
  return NameOf(kBlockNames, kind);
}
std::optional<BlockKind> ParseBlockKind(std::string_view name) {
  return Lookup(kBlockNames, name);
}

nlohmann::json SourceSpan::ToJson() const {
  nlohmann::json j = {{"kind", NameOf(kSpanNames, kind)}};
  switch (kind) {
    case Kind::kLine:
    case Kind::kByte:
      j["start"] = start;
      j["end"] = end;
      break;
    case Kind::kPage:
      j["page"] = page;
      if (char_start) j["char_start"] = *char_start;
      if (char_end) j["char_end"] = *char_end;
      break;
    case Kind::kRegion:
      if (page > 0) j["page"] = page;
      j["x"] = x;
      j["y"] = y;
      j["w"] = w;
      j["h"] = h;
      if (dpi) j["dpi"] = *dpi;
      break;
    case Kind::kTime:
      j["start_ms"] = start;
      j["end_ms"] = end;
      break;
    case Kind::kCode:
      j["line_start"] = start;
      j["line_end"] = end;
      if (symbol) j["symbol"] = *symbol;
      if (lang) j["lang"] = *lang;
      break;
    case Kind::kCaption:
      j["model"] = model;
      break;
  }
  return j;
}

Result<SourceSpan> SourceSpan::FromJson(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string()) {
    return Status(ErrorCode::kCorrupt, "source span without a kind: " + j.dump());
  }
  auto kind = Lookup(kSpanNames, j["kind"].get<std::string>());
  if (!kind) return Status(ErrorCode::kCorrupt, "unknown source span kind: " + j.dump());
  SourceSpan s;
  s.kind = *kind;
  auto u64 = [&](const char* key) { return j.value(key, uint64_t{0}); };
  auto u32 = [&](const char* key) { return j.value(key, uint32_t{0}); };
  switch (s.kind) {
    case Kind::kLine:
    case Kind::kByte:
      s.start = u64("start");
      s.end = u64("end");
      break;
    case Kind::kPage:
      s.page = u32("page");
      if (j.contains("char_start")) s.char_start = u32("char_start");
      if (j.contains("char_end")) s.char_end = u32("char_end");
      break;
    case Kind::kRegion:
      s.page = u32("page");
      s.x = u32("x");
      s.y = u32("y");
      s.w = u32("w");
      s.h = u32("h");
      if (j.contains("dpi")) s.dpi = u32("dpi");
      break;
    case Kind::kTime:
      s.start = u64("start_ms");
      s.end = u64("end_ms");
      break;
    case Kind::kCode:
      s.start = u64("line_start");
      s.end = u64("line_end");
      if (j.contains("symbol")) s.symbol = j["symbol"].get<std::string>();
      if (j.contains("lang")) s.lang = j["lang"].get<std::string>();
      break;
    case Kind::kCaption:
      s.model = j.value("model", std::string());
      break;
  }
  return s;
}

nlohmann::json Block::PayloadJson() const {
  switch (kind) {
    case BlockKind::kHeading:
      return {{"level", level}, {"text", text}};
    case BlockKind::kParagraph:
    case BlockKind::kQuote:
      if (confidence) return {{"text", text}, {"confidence", *confidence}};
      return {{"text", text}};
    case BlockKind::kList:
      return {{"ordered", ordered}, {"items", items}};
    case BlockKind::kCode:
      return {{"lang", lang}, {"code", text}};
    case BlockKind::kTable:
      return {{"headers", headers}, {"rows", rows}};
    case BlockKind::kImageRef:
    case BlockKind::kAudioRef:
      return {{"src", src}, {"alt", alt}};
  }
  return nlohmann::json::object();
}

nlohmann::json Metadata::ToJson() const {
  nlohmann::json j = {{"aliases", aliases},
                      {"tags", tags},
                      {"created_at", created_at},
                      {"updated_at", updated_at},
                      {"source_type", SourceTypeName(source_type)},
                      {"trust_level", TrustLevelName(trust_level)},
                      {"user", user}};
  for (const auto& [key, value] : OptionalFieldsOf(*this)) {
    if (*value) j[key] = **value;
  }
  return j;
}

Metadata Metadata::FromJson(const nlohmann::json& j) {
  Metadata m;
  if (!j.is_object()) return m;
  m.aliases = j.value("aliases", std::vector<std::string>{});
  m.tags = j.value("tags", std::vector<std::string>{});
  m.created_at = j.value("created_at", std::string{});
  m.updated_at = j.value("updated_at", std::string{});
  m.source_type =
      ParseSourceType(j.value("source_type", std::string{})).value_or(SourceType::kMarkdown);
  m.trust_level =
      ParseTrustLevel(j.value("trust_level", std::string{})).value_or(TrustLevel::kPrimary);
  if (j.contains("user") && j["user"].is_object()) m.user = j["user"];
  for (const auto& [key, value] : OptionalFieldsOf(m)) {
    if (j.contains(key) && j[key].is_string()) *value = j[key].get<std::string>();
  }
  return m;
}

bool IsPaged(const CanonicalDocument& doc) {
  return std::any_of(doc.blocks.begin(), doc.blocks.end(), [](const Block& b) {
    return b.span.kind == SourceSpan::Kind::kPage ||
           (b.span.kind == SourceSpan::Kind::kRegion && b.span.page > 0);
  });
}

}  // namespace kebab
