#include "parse/cmark_blocks.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include "core/unicode.h"
#include "parse/cmark_arena.h"
#include "parse/lines.h"

namespace kebab::parse {
namespace {

constexpr const char* kExtensions[] = {"table", "strikethrough", "autolink", "tasklist"};

// cmark-gfm 0.29.0.gfm.6 appends each cell of a table row to a linked list by walking the
// list, so a row costs time quadratic in its cells (40,000 cells: ten seconds). Text with a
// line holding more pipes than this is parsed without the table extension, which bounds the
// cost per byte.
constexpr size_t kMaxTablePipes = 128;

// cmark_gfm_core_extensions_ensure_registered() is not thread-safe.
std::once_flag g_register_once;

// cmark-gfm 0.29.0.gfm.6 switches the extensions' special characters on in a process-wide
// table at the start of every inline pass and off again at its end, so two documents in
// their inline passes at once could lose strikethrough and autolinks. Block parsing (feed)
// runs concurrently; the inline pass (finish) runs one document at a time.
std::mutex g_inline_mutex;

struct ParserDeleter {
  void operator()(cmark_parser* parser) const { cmark_parser_free(parser); }
};

bool HasOverwideRow(std::string_view text) {
  size_t pipes = 0;
  for (char c : text) {
    if (c == '|') {
      if (++pipes > kMaxTablePipes) return true;
    } else if (c == '\n' || c == '\r') {
      pipes = 0;
    }
  }
  return false;
}

// The tree lives in `mem` and is released with it.
cmark_node* ParseGfm(std::string_view text, bool tables, cmark_mem* mem) {
  std::call_once(g_register_once, cmark_gfm_core_extensions_ensure_registered);
  std::unique_ptr<cmark_parser, ParserDeleter> parser(
      cmark_parser_new_with_mem(CMARK_OPT_DEFAULT, mem));
  for (const char* name : kExtensions) {
    if (!tables && std::strcmp(name, "table") == 0) continue;
    if (cmark_syntax_extension* extension = cmark_find_syntax_extension(name)) {
      cmark_parser_attach_syntax_extension(parser.get(), extension);
    }
  }
  cmark_parser_feed(parser.get(), text.data(), text.size());
  std::lock_guard lock(g_inline_mutex);
  return cmark_parser_finish(parser.get());
}

bool HasTypeString(cmark_node* node, const char* name) {
  const char* type = cmark_node_get_type_string(node);
  return type != nullptr && std::strcmp(type, name) == 0;
}

std::string_view Literal(cmark_node* node) {
  const char* literal = cmark_node_get_literal(node);
  return literal ? std::string_view(literal) : std::string_view();
}

std::string_view TrimTrailing(std::string_view s) {
  while (!s.empty() &&
         (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

void NfcInPlace(std::string* s) {
  if (!IsKnownNfc(*s)) *s = Nfc(*s);
}

// Builds the plain text of a subtree. Blocks start on new lines; content of nested list items
// is indented by two spaces per level; a pending prefix ("[x] ") goes before the first text
// of a task item.
class TextWriter {
 public:
  explicit TextWriter(std::string* out) : out_(out) {}

  void BeginBlock() { pending_break_ = !out_->empty() && !at_line_start_; }
  void LineBreak() {
    out_->push_back('\n');
    at_line_start_ = true;
    pending_break_ = false;
  }
  void SetIndent(size_t indent) { indent_ = indent; }
  void SetPrefix(std::string_view prefix) { prefix_ = prefix; }
  // Writes a prefix still pending (a task item with no text).
  void Flush() {
    if (!prefix_.empty()) WritePiece({});
  }

  void Write(std::string_view text) {
    for (size_t pos = 0;;) {
      size_t newline = text.find('\n', pos);
      if (newline == std::string_view::npos) {
        WritePiece(text.substr(pos));
        return;
      }
      WritePiece(text.substr(pos, newline - pos));
      LineBreak();
      pos = newline + 1;
    }
  }

 private:
  void WritePiece(std::string_view piece) {
    if (piece.empty() && prefix_.empty()) return;
    if (pending_break_) LineBreak();
    if (at_line_start_) {
      out_->append(indent_, ' ');
      out_->append(prefix_);
      prefix_ = {};
      at_line_start_ = false;
    }
    out_->append(piece);
  }

  std::string* out_;
  size_t indent_ = 0;
  std::string_view prefix_;
  bool pending_break_ = false;
  bool at_line_start_ = true;
};

// Plain text of `root`'s subtree: text, code spans, link and image text, emphasis content;
// inline HTML dropped. Soft and hard breaks become "\n" (or " " when `breaks_as_spaces`).
// Iterative, so deeply nested input cannot exhaust the stack.
std::string NodeText(cmark_node* root, bool breaks_as_spaces) {
  std::string out;
  TextWriter writer(&out);
  size_t open_items = 0;
  cmark_iter* iter = cmark_iter_new(root);
  for (cmark_event_type event; (event = cmark_iter_next(iter)) != CMARK_EVENT_DONE;) {
    cmark_node* node = cmark_iter_get_node(iter);
    cmark_node_type type = cmark_node_get_type(node);
    if (event == CMARK_EVENT_EXIT) {
      if (type == CMARK_NODE_ITEM) {
        writer.Flush();
        --open_items;
        writer.SetIndent(open_items > 0 ? 2 * (open_items - 1) : 0);
      }
      continue;
    }
    switch (type) {
      case CMARK_NODE_ITEM:
        ++open_items;
        writer.BeginBlock();
        writer.SetIndent(2 * (open_items - 1));
        if (HasTypeString(node, "tasklist")) {
          writer.SetPrefix(cmark_gfm_extensions_get_tasklist_item_checked(node) ? "[x] " : "[ ] ");
        }
        break;
      case CMARK_NODE_PARAGRAPH:
      case CMARK_NODE_HEADING:
        writer.BeginBlock();
        break;
      case CMARK_NODE_CODE_BLOCK:
      case CMARK_NODE_HTML_BLOCK:
        writer.BeginBlock();
        writer.Write(TrimTrailing(Literal(node)));
        break;
      case CMARK_NODE_TEXT:
      case CMARK_NODE_CODE:
        writer.Write(Literal(node));
        break;
      case CMARK_NODE_SOFTBREAK:
      case CMARK_NODE_LINEBREAK:
        if (breaks_as_spaces) {
          writer.Write(" ");
        } else {
          writer.LineBreak();
        }
        break;
      case CMARK_NODE_DOCUMENT:
      case CMARK_NODE_BLOCK_QUOTE:
      case CMARK_NODE_LIST:
      case CMARK_NODE_THEMATIC_BREAK:
      case CMARK_NODE_HTML_INLINE:
      case CMARK_NODE_EMPH:
      case CMARK_NODE_STRONG:
      case CMARK_NODE_LINK:
      case CMARK_NODE_IMAGE:
        break;
      default:  // extension nodes: tables, strikethrough
        if (HasTypeString(node, "table_header") || HasTypeString(node, "table_row")) {
          writer.BeginBlock();
        } else if (node != root && HasTypeString(node, "table_cell") &&
                   cmark_node_previous(node) != nullptr) {
          writer.Write(" | ");
        }
        break;
    }
  }
  cmark_iter_free(iter);
  out.resize(TrimTrailing(out).size());
  return out;
}

// The image a paragraph consists of (possibly wrapped in a link), or null.
cmark_node* SoleImage(cmark_node* paragraph) {
  cmark_node* image = nullptr;
  for (cmark_node* child = cmark_node_first_child(paragraph); child;
       child = cmark_node_next(child)) {
    cmark_node_type type = cmark_node_get_type(child);
    if (type == CMARK_NODE_SOFTBREAK ||
        (type == CMARK_NODE_TEXT && TrimTrailing(Literal(child)).empty()))
      continue;
    cmark_node* candidate = child;
    if (type == CMARK_NODE_LINK) {
      candidate = cmark_node_first_child(child);
      if (candidate == nullptr || cmark_node_next(candidate) != nullptr) return nullptr;
    }
    if (image != nullptr || cmark_node_get_type(candidate) != CMARK_NODE_IMAGE) return nullptr;
    image = candidate;
  }
  return image;
}

// MDX ESM: a top-level block whose first line begins with `import` or `export`.
bool IsMdxEsm(std::string_view line) {
  for (std::string_view keyword : {"import", "export"}) {
    if (line.size() > keyword.size() && line.starts_with(keyword)) {
      char next = line[keyword.size()];
      if (next == ' ' || next == '\t' || next == '{' || next == '*') return true;
    }
  }
  return false;
}

struct LineRange {
  uint32_t first = 0;
  uint32_t last = 0;
};

class Extractor {
 public:
  Extractor(std::string_view text, uint32_t line_offset, BlockContext* context,
            std::vector<Block>* blocks)
      : lines_(text), line_offset_(line_offset), context_(context), blocks_(blocks) {
    for (const auto& heading : context_->headings) path_.push_back(heading.second);
  }

  void Run(cmark_node* document) {
    // About one block per top-level node: growing the vector block by block moved every
    // block emitted so far, several times per document.
    size_t nodes = 0;
    for (cmark_node* node = cmark_node_first_child(document); node; node = cmark_node_next(node)) {
      ++nodes;
    }
    blocks_->reserve(blocks_->size() + nodes);
    for (cmark_node* node = cmark_node_first_child(document); node; node = cmark_node_next(node)) {
      switch (cmark_node_get_type(node)) {
        case CMARK_NODE_HEADING:
          AddHeading(node);
          break;
        case CMARK_NODE_PARAGRAPH:
          AddParagraph(node);
          break;
        case CMARK_NODE_LIST:
          AddList(node);
          break;
        case CMARK_NODE_CODE_BLOCK:
          AddCode(node);
          break;
        case CMARK_NODE_HTML_BLOCK:
          AddHtml(node);
          break;
        case CMARK_NODE_BLOCK_QUOTE:
          AddText(BlockKind::kQuote, node, SpanOf(node));
          break;
        case CMARK_NODE_THEMATIC_BREAK:
          break;
        default:
          if (HasTypeString(node, "table")) {
            AddTable(node);
          } else {
            AddText(BlockKind::kParagraph, node, SpanOf(node));
          }
          break;
      }
    }
  }

 private:
  // Clamps to the piece and drops trailing blank lines, which cmark counts into lists, code
  // blocks and setext headings closed by a later line.
  LineRange Clean(int first, int last) const {
    uint32_t count = static_cast<uint32_t>(std::max<size_t>(lines_.size(), 1));
    uint32_t l = static_cast<uint32_t>(std::clamp<int64_t>(last, 1, count));
    uint32_t f = static_cast<uint32_t>(std::clamp<int64_t>(first, 1, l));
    while (l > f && IsBlankLine(lines_.Line(l))) --l;
    return {f, l};
  }

  LineRange SpanOf(cmark_node* node) const {
    return Clean(cmark_node_get_start_line(node), cmark_node_get_end_line(node));
  }

  // GFM table rows are one line each, after the header and delimiter rows. cmark-gfm gives a
  // table that interrupts a paragraph the paragraph's start line, so count back from the end.
  LineRange TableSpan(cmark_node* table) const {
    LineRange span = SpanOf(table);
    uint32_t body_rows = 0;
    for (cmark_node* row = cmark_node_first_child(table); row; row = cmark_node_next(row)) {
      if (!HasTypeString(row, "table_header")) ++body_rows;
    }
    if (span.last > body_rows + 1) span.first = std::max(span.first, span.last - body_rows - 1);
    return span;
  }

  Block& Emit(BlockKind kind, LineRange span) {
    Block& block = blocks_->emplace_back();
    block.kind = kind;
    block.span = SourceSpan::Lines(span.first + line_offset_, span.last + line_offset_);
    block.ordinal = static_cast<int>(blocks_->size() - 1);
    block.heading_path = path_;
    return block;
  }

  void AddHeading(cmark_node* node) {
    int level = cmark_node_get_heading_level(node);
    std::string text = NodeText(node, /*breaks_as_spaces=*/true);
    NfcInPlace(&text);
    auto& headings = context_->headings;
    while (!headings.empty() && headings.back().first >= level) {
      headings.pop_back();
      path_.pop_back();
    }
    headings.emplace_back(level, text);
    path_.push_back(text);
    Block& block = Emit(BlockKind::kHeading, SpanOf(node));
    block.level = level;
    block.text = std::move(text);
  }

  void AddParagraph(cmark_node* node) {
    LineRange span;
    cmark_node* next = cmark_node_next(node);
    if (cmark_node_get_start_line(node) == 0 && next && HasTypeString(next, "table")) {
      // The text before a table that interrupted it: cmark-gfm leaves it without a position.
      span = Clean(cmark_node_get_start_line(next), TableSpan(next).first - 1);
    } else {
      span = SpanOf(node);
    }
    if (context_->mdx && IsMdxEsm(lines_.Line(span.first))) return;
    if (cmark_node* image = SoleImage(node)) {
      const char* url = cmark_node_get_url(image);
      Block& block = Emit(BlockKind::kImageRef, span);
      block.src = url ? url : "";
      block.alt = NodeText(image, /*breaks_as_spaces=*/true);
      NfcInPlace(&block.src);
      NfcInPlace(&block.alt);
      return;
    }
    if (!AddText(BlockKind::kParagraph, node, span)) return;
    if (OnlyInlineCode(node)) context_->command_paragraphs.push_back(blocks_->size() - 1);
    if (!context_->first_paragraph) context_->first_paragraph = blocks_->size() - 1;
  }

  // A paragraph that is nothing but `inline code` (a command line, as in tldr-pages) is not
  // prose: its words would only mislead language detection.
  static bool OnlyInlineCode(cmark_node* paragraph) {
    bool code = false;
    for (cmark_node* n = cmark_node_first_child(paragraph); n; n = cmark_node_next(n)) {
      switch (cmark_node_get_type(n)) {
        case CMARK_NODE_CODE:
          code = true;
          break;
        case CMARK_NODE_SOFTBREAK:
        case CMARK_NODE_LINEBREAK:
          break;
        case CMARK_NODE_TEXT: {
          const char* literal = cmark_node_get_literal(n);
          for (const char* c = literal ? literal : ""; *c; ++c) {
            if (*c != ' ' && *c != '\t') return false;
          }
          break;
        }
        default:
          return false;
      }
    }
    return code;
  }

  bool AddText(BlockKind kind, cmark_node* node, LineRange span) {
    std::string text = NodeText(node, /*breaks_as_spaces=*/false);
    if (text.empty()) return false;
    NfcInPlace(&text);
    Emit(kind, span).text = std::move(text);
    return true;
  }

  void AddList(cmark_node* node) {
    Block& block = Emit(BlockKind::kList, SpanOf(node));
    block.ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST;
    for (cmark_node* item = cmark_node_first_child(node); item; item = cmark_node_next(item)) {
      std::string text = NodeText(item, /*breaks_as_spaces=*/false);
      NfcInPlace(&text);
      block.items.push_back(std::move(text));
    }
  }

  void AddCode(cmark_node* node) {
    const char* fence_info = cmark_node_get_fence_info(node);
    std::string_view info = fence_info ? fence_info : "";
    size_t lang_start = info.find_first_not_of(" \t");
    std::string_view lang =
        lang_start == std::string_view::npos ? std::string_view() : info.substr(lang_start);
    lang = lang.substr(0, lang.find_first_of(" \t"));
    Block& block = Emit(BlockKind::kCode, SpanOf(node));
    std::string_view body = Literal(node);
    while (!body.empty() && body.back() == '\n') body.remove_suffix(1);
    block.text = body;
    block.lang = lang;
    NfcInPlace(&block.text);
    NfcInPlace(&block.lang);
  }

  void AddHtml(cmark_node* node) {
    // An HTML block is its source lines verbatim. cmark-gfm ends one that closes with an end
    // marker (-->, </pre>, ...) a line early, so count its lines instead.
    std::string_view literal = Literal(node);
    int first = cmark_node_get_start_line(node);
    int line_count = static_cast<int>(std::count(literal.begin(), literal.end(), '\n'));
    if (literal.empty() || literal.back() != '\n') ++line_count;
    LineRange span = Clean(first, first + std::max(line_count, 1) - 1);
    if (context_->mdx && IsMdxEsm(lines_.Line(span.first))) return;
    std::string text(TrimTrailing(literal));
    if (text.empty()) return;
    NfcInPlace(&text);
    Emit(BlockKind::kParagraph, span).text = std::move(text);
  }

  void AddTable(cmark_node* node) {
    Block& block = Emit(BlockKind::kTable, TableSpan(node));
    for (cmark_node* row = cmark_node_first_child(node); row; row = cmark_node_next(row)) {
      std::vector<std::string> cells;
      for (cmark_node* cell = cmark_node_first_child(row); cell; cell = cmark_node_next(cell)) {
        std::string text = NodeText(cell, /*breaks_as_spaces=*/true);
        NfcInPlace(&text);
        cells.push_back(std::move(text));
      }
      if (HasTypeString(row, "table_header")) {
        block.headers = std::move(cells);
      } else {
        block.rows.push_back(std::move(cells));
      }
    }
  }

  LineIndex lines_;
  uint32_t line_offset_;
  BlockContext* context_;
  std::vector<Block>* blocks_;
  std::vector<std::string> path_;  // texts of context_->headings
};

}  // namespace

void AppendMarkdownBlocks(std::string_view text, uint32_t line_offset, BlockContext* context,
                          std::vector<Block>* blocks) {
  bool tables = !HasOverwideRow(text);
  if (!tables) {
    std::string warning = "tables left as text: a line has more than " +
                          std::to_string(kMaxTablePipes) + " '|' characters";
    auto& warnings = context->warnings;
    if (std::find(warnings.begin(), warnings.end(), warning) == warnings.end()) {
      warnings.push_back(std::move(warning));
    }
  }
  CmarkArenaScope arena;
  cmark_node* document = ParseGfm(text, tables, arena.mem());
  if (document == nullptr) return;
  Extractor(text, line_offset, context, blocks).Run(document);
}

}  // namespace kebab::parse
