// Classic TREC ad hoc collections: SGML document files, a topics file and a qrels file in one
// directory tree (recognition rules in eval/import.h). Tags are matched in any case.
#include <algorithm>
#include <cctype>
#include <optional>

#include "core/unicode.h"
#include "eval/internal/collection.h"

namespace kebab::eval::internal {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kLayout =
    "a TREC collection directory holds document files (<DOC> <DOCNO>...</DOCNO> <TEXT>...</TEXT> "
    "</DOC>), a topics file (<top> <num> ... <title> ... </top>) and a qrels file named qrels* "
    "(lines `qid iteration docno rel`)";

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool StartsWithNoCase(std::string_view s, std::string_view lower_prefix) {
  return s.size() >= lower_prefix.size() &&
         AsciiLower(s.substr(0, lower_prefix.size())) == lower_prefix;
}

// Line numbers of byte offsets asked for in increasing order, counting each newline once.
class LineCounter {
 public:
  explicit LineCounter(std::string_view text) : text_(text) {}
  int At(size_t offset) {
    line_ += static_cast<int>(std::count(text_.begin() + pos_, text_.begin() + offset, '\n'));
    pos_ = offset;
    return line_;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
};

// Where an element sits in a text: [begin, end) spans the tags, [content_begin, content_end)
// what is between them.
struct Element {
  size_t begin = 0, content_begin = 0, content_end = 0, end = 0;
};

// The first <name>...</name> at or after `from` in `lower` (a lowercased text, cut where the
// search must stop). An element that is never closed runs to the end of `lower`.
std::optional<Element> FindElement(std::string_view lower, std::string_view name, size_t from) {
  const std::string open = "<" + std::string(name) + ">";
  const size_t begin = lower.find(open, from);
  if (begin == std::string_view::npos) return std::nullopt;
  Element e{.begin = begin, .content_begin = begin + open.size()};
  const size_t close = lower.find("</" + std::string(name) + ">", e.content_begin);
  e.content_end = close == std::string_view::npos ? lower.size() : close;
  e.end = close == std::string_view::npos ? lower.size() : close + open.size() + 1;
  return e;
}

// The first <name> at or after `from` and its text up to the next tag: classic TREC topics do
// not close their fields.
std::optional<Element> FindField(std::string_view lower, std::string_view name, size_t from) {
  const std::string open = "<" + std::string(name) + ">";
  const size_t begin = lower.find(open, from);
  if (begin == std::string_view::npos) return std::nullopt;
  Element e{.begin = begin, .content_begin = begin + open.size()};
  const size_t next_tag = lower.find('<', e.content_begin);
  e.content_end = e.end = next_tag == std::string_view::npos ? lower.size() : next_tag;
  return e;
}

// SGML to text: tags (and comments) become a space so words on either side stay apart. A '<'
// that does not open a tag is kept. Character references (&amp;, &#38;) stay as written:
// Markdown decodes them itself, and a decoded "&lt;b&gt;" would be an HTML tag the index drops.
std::string PlainText(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const char next = i + 1 < s.size() ? s[i + 1] : '\0';
    const bool tag = s[i] == '<' &&
                     (std::isalpha(static_cast<unsigned char>(next)) || next == '/' || next == '!');
    if (tag) {
      const bool comment = s.substr(i, 4) == "<!--";
      const size_t close = comment ? s.find("-->", i) : s.find('>', i);
      if (close != std::string_view::npos) {
        i = close + (comment ? 3 : 1);
        out += ' ';
        continue;
      }
    }
    out += s[i++];
  }
  return out;
}

std::string_view Slice(std::string_view s, size_t begin, size_t end) {
  return s.substr(begin, end - begin);
}

// Every <DOC> of one file; `lower` is `text` lowercased.
Status ReadDocuments(std::string_view file, std::string_view text, std::string_view lower,
                     Collection* collection) {
  LineCounter lines(text);
  for (size_t pos = 0;;) {
    const std::optional<Element> doc = FindElement(lower, "doc", pos);
    if (!doc) break;
    const int line = lines.At(doc->begin);
    if (lower.compare(doc->content_end, 6, "</doc>") != 0) {
      return LineError(file, line, "<DOC> without </DOC>");
    }
    const std::string_view body = Slice(lower, 0, doc->content_end);
    const std::optional<Element> docno = FindElement(body, "docno", doc->content_begin);
    if (!docno) return LineError(file, line, "<DOC> without <DOCNO>");

    Document out;
    out.where = Where(file, line);
    out.id = std::string(Trim(PlainText(Slice(text, docno->content_begin, docno->content_end))));
    std::optional<Element> title;
    for (std::string_view name : {"title", "headline", "head"}) {
      if (!title) title = FindElement(body, name, doc->content_begin);
    }
    if (title) out.title = PlainText(Slice(text, title->content_begin, title->content_end));
    for (size_t from = doc->content_begin;;) {
      const std::optional<Element> part = FindElement(body, "text", from);
      if (!part) break;
      if (!out.text.empty()) out.text += "\n\n";
      out.text += PlainText(Slice(text, part->content_begin, part->content_end));
      from = part->end;
    }
    if (out.text.empty()) {
      // No <TEXT>: the whole body is the text, less what became the id and the title.
      std::vector<Element> taken = {*docno};
      if (title) taken.push_back(*title);
      std::sort(taken.begin(), taken.end(),
                [](const Element& a, const Element& b) { return a.begin < b.begin; });
      size_t from = doc->content_begin;
      for (const Element& e : taken) {
        if (e.begin < from) continue;  // overlapping tags: the first one already took it
        out.text += PlainText(Slice(text, from, e.begin)) + "\n";
        from = e.end;
      }
      out.text += PlainText(Slice(text, from, doc->content_end));
    }
    collection->documents.push_back(std::move(out));
    pos = doc->end;
  }
  return Status::OK();
}

std::string_view StripPrefixNoCase(std::string_view s, std::string_view lower_prefix) {
  s = Trim(s);
  if (StartsWithNoCase(s, lower_prefix)) s.remove_prefix(lower_prefix.size());
  return Trim(s);
}

// Every <top> of one topics file; the query is the topic's title. `lower` is `text` lowercased.
Status ReadTopics(std::string_view file, std::string_view text, std::string_view lower,
                  Collection* collection) {
  LineCounter lines(text);
  for (size_t pos = 0;;) {
    const size_t begin = lower.find("<top>", pos);
    if (begin == std::string::npos) break;
    const int line = lines.At(begin);
    const size_t end = lower.find("</top>", begin);
    if (end == std::string::npos) return LineError(file, line, "<top> without </top>");
    const std::string_view body = Slice(lower, 0, end);
    const std::optional<Element> num = FindField(body, "num", begin);
    const std::optional<Element> title = FindField(body, "title", begin);
    if (!num) return LineError(file, line, "topic without <num>");
    Query query;
    query.where = Where(file, line);
    query.id = std::string(
        StripPrefixNoCase(Slice(text, num->content_begin, num->content_end), "number:"));
    if (query.id.empty()) return LineError(file, line, "topic with an empty <num>");
    if (title) {
      query.text = std::string(StripPrefixNoCase(
          CollapseWhitespace(PlainText(Slice(text, title->content_begin, title->content_end))),
          "topic:"));
    }
    if (query.text.empty()) {
      return LineError(file, line, "topic " + query.id + " has no <title> text");
    }
    collection->queries.push_back(std::move(query));
    pos = end + 6;
  }
  return Status::OK();
}

// `qid iteration docno rel` per line, whitespace-separated.
Status ReadQrels(std::string_view file, std::string_view text, Collection* collection) {
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(&line)) {
    std::vector<std::string_view> fields;
    for (size_t pos = 0;;) {
      while (pos < line.size() && IsAsciiSpace(line[pos])) ++pos;
      if (pos == line.size()) break;
      size_t end = pos;
      while (end < line.size() && !IsAsciiSpace(line[end])) ++end;
      fields.push_back(Slice(line, pos, end));
      pos = end;
    }
    if (fields.empty()) continue;
    if (fields.size() != 4) {
      return LineError(file, lines.number(),
                       "expected 4 fields (query iteration docno relevance), got " +
                           std::to_string(fields.size()));
    }
    int grade = 0;
    if (!ParseInt(fields[3], &grade)) {
      return LineError(file, lines.number(),
                       "relevance \"" + std::string(fields[3]) + "\" is not an integer");
    }
    collection->judgements.push_back(
        {std::string(fields[0]), std::string(fields[2]), grade, Where(file, lines.number())});
  }
  return Status::OK();
}

// Regular files under `dir`, hidden files and directories left out, sorted by path.
Result<std::vector<fs::path>> ListFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().filename().string().starts_with(".")) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) files.push_back(it->path().lexically_relative(dir));
  }
  if (ec) return IoError("cannot list " + dir.string() + ": " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

Result<Collection> ReadTrec(const fs::path& dir) {
  KEBAB_ASSIGN_OR_RETURN(const std::vector<fs::path> files, ListFiles(dir));
  // The qrels are known by name, so their absence fails before any document is parsed.
  const auto is_qrels = [](const fs::path& path) {
    return StartsWithNoCase(path.filename().string(), "qrels");
  };
  if (std::none_of(files.begin(), files.end(), is_qrels)) {
    return InvalidInput("TREC collection " + dir.string() + " has no qrels file",
                        std::string(kLayout));
  }

  Collection collection;
  collection.description = "TREC collection " + dir.string();
  int document_files = 0, topic_files = 0;
  std::vector<std::string> ignored;
  for (const fs::path& relative : files) {
    const std::string name = relative.generic_string();
    KEBAB_ASSIGN_OR_RETURN(std::string text, ReadFile(dir / relative));
    SanitizeFile(name, &text, &collection.warnings);
    if (is_qrels(relative)) {
      KEBAB_RETURN_IF_ERROR(ReadQrels(name, text, &collection));
      continue;
    }
    const std::string lower = AsciiLower(text);
    if (lower.find("<top>") != std::string::npos) {
      ++topic_files;
      KEBAB_RETURN_IF_ERROR(ReadTopics(name, text, lower, &collection));
    } else if (lower.find("<doc>") != std::string::npos) {
      ++document_files;
      KEBAB_RETURN_IF_ERROR(ReadDocuments(name, text, lower, &collection));
    } else {
      ignored.push_back(name);
    }
  }
  if (document_files == 0) {
    return InvalidInput(
        "TREC collection " + dir.string() + " has no document file (none contains <DOC>)",
        std::string(kLayout));
  }
  if (topic_files == 0) {
    return InvalidInput(
        "TREC collection " + dir.string() + " has no topics file (none contains <top>)",
        std::string(kLayout));
  }
  if (!ignored.empty()) {
    std::string list;
    for (size_t i = 0; i < ignored.size() && i < 5; ++i) list += (i ? ", " : "") + ignored[i];
    if (ignored.size() > 5) list += ", ...";
    collection.warnings.Add("ignored " + std::to_string(ignored.size()) +
                            " file(s) that are neither documents (<DOC>), topics (<top>) nor "
                            "qrels (named qrels*): " +
                            list + "; compressed files must be unpacked first");
  }
  return collection;
}

}  // namespace kebab::eval::internal
