// Plain-text renderings of facade results, for readers that are language models (the MCP
// server's text blocks): what the CLI shows a person, without color or terminal layout. The
// JSON twin of each is in app/wire.h. Pure functions; safe from any thread.
#pragma once

#include <string>
#include <vector>

#include "app/admin.h"
#include "app/ask.h"
#include "app/ingest.h"
#include "app/queries.h"

namespace kebab::app::render {

// Ranked hits: "1. 0.83  notes/wal.md#L10-L14", the section, the snippet (matches in **…**).
std::string Search(const search::SearchResponse& response);
// The answer with its [n] markers, the sources they cite, and the status line ("grounded ✓
// verified 3/4 claims ..."); a refusal says why and lists the candidates.
std::string Answer(const rag::Answer& answer);
// What a fetch read: the citation's URI ("papers/x.pdf#p=12", "notes/x.md#L10-L14"), the
// pages of a page range ("papers/x.pdf pp. 3-5"), or the document's path.
std::string FetchHeader(const FetchResult& result);
std::string Fetch(const FetchResult& result);
std::string DocList(const std::vector<store::DocSummary>& docs);
std::string Doctor(const DoctorReport& report);
std::string Schema(const SchemaInfo& info);
std::string Ingest(const IngestReport& report);

}  // namespace kebab::app::render
