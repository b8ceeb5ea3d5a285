#include "store/internal/filters.h"

#include "core/time.h"

namespace kebab::store {

std::string Binder::Param(std::string value) {
  values_.push_back(std::move(value));
  return "?" + std::to_string(first_index_ + static_cast<int>(values_.size()) - 1);
}

std::string Binder::List(const std::vector<std::string>& values) {
  std::string out;
  for (const auto& v : values) {
    if (!out.empty()) out += ", ";
    out += Param(v);
  }
  return out;
}

std::string FilterSql(const SearchFilters& f, Binder& b) {
  std::string sql;
  if (!f.tags_any.empty()) {
    sql += " AND EXISTS (SELECT 1 FROM document_tags t WHERE t.doc_id = d.doc_id AND t.tag IN (" +
           b.List(f.tags_any) + "))";
  }
  if (f.lang) sql += " AND d.lang = " + b.Param(*f.lang);
  if (f.path_glob) sql += " AND kebab_path_glob(" + b.Param(*f.path_glob) + ", d.workspace_path)";
  if (f.trust_min) {
    std::vector<std::string> allowed;
    for (TrustLevel t : {TrustLevel::kPrimary, TrustLevel::kSecondary, TrustLevel::kGenerated}) {
      if (static_cast<int>(t) >= static_cast<int>(*f.trust_min)) {
        allowed.emplace_back(TrustLevelName(t));
      }
    }
    sql += " AND d.trust_level IN (" + b.List(allowed) + ")";
  }
  if (!f.media.empty()) {
    std::vector<std::string> names;
    for (MediaKind m : f.media) names.emplace_back(MediaKindName(m));
    // Correlated, so each candidate costs one primary-key lookup; an uncorrelated IN list
    // would first collect every asset of that media type (all of them, in most workspaces).
    sql +=
        " AND EXISTS (SELECT 1 FROM assets a WHERE a.asset_id = d.asset_id AND a.media_type IN (" +
        b.List(names) + "))";
  }
  if (!f.doc_ids.empty()) sql += " AND d.doc_id IN (" + b.List(f.doc_ids) + ")";
  if (!f.source_types.empty()) {
    std::vector<std::string> names;
    for (SourceType t : f.source_types) names.emplace_back(SourceTypeName(t));
    sql += " AND d.source_type IN (" + b.List(names) + ")";
  }
  if (f.ingested_after) {
    // Stored timestamps are UTC "…Z" strings, so text comparison orders them correctly.
    auto t = ParseRfc3339(*f.ingested_after);
    sql += " AND d.ingested_at >= " + b.Param(t ? FormatRfc3339(*t) : *f.ingested_after);
  }
  if (!f.code_langs.empty()) {
    sql += " AND json_extract(d.metadata_json, '$.code_lang') IN (" + b.List(f.code_langs) + ")";
  }
  if (!f.repos.empty()) {
    const std::string list = b.List(f.repos);
    sql += " AND (json_extract(d.metadata_json, '$.repo') IN (" + list +
           ") OR json_extract(d.metadata_json, '$.git_remote') IN (" + list + "))";
  }
  if (f.symbol_glob) {
    // A code chunk's heading is its symbol (chunk/internal/code.h), with " [part i/N]" when
    // the unit was split, so the glob sees the symbol without that suffix. Only code has
    // symbols: the headings of Markdown sections never match.
    sql +=
        " AND json_extract(d.metadata_json, '$.code_lang') IS NOT NULL AND "
        "(SELECT CASE WHEN instr(h, ' [part ') > 0 THEN substr(h, 1, instr(h, ' [part ') - 1) "
        "ELSE h END FROM (SELECT json_extract(c.heading_path_json, '$[0]') AS h)) GLOB " +
        b.Param(*f.symbol_glob);
  }
  return sql;
}

}  // namespace kebab::store
