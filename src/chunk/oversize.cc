#include "chunk/oversize.h"

#include <algorithm>

namespace kebab::chunk {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

class PieceCollector {
 public:
  PieceCollector(std::string_view text, std::vector<ByteRange>* out) : text_(text), out_(out) {}

  // Records text[begin, end) minus the line breaks that lead it (indentation of its first
  // line is content, so spaces there stay) and any trailing whitespace.
  void Add(size_t begin, size_t end) {
    while (begin < end && (text_[begin] == '\n' || text_[begin] == '\r')) ++begin;
    while (end > begin && IsSpace(text_[end - 1])) --end;
    for (size_t i = begin; i < end; ++i) {
      if (!IsSpace(text_[i])) {
        out_->push_back({begin, end});
        return;
      }
    }
  }

 private:
  std::string_view text_;
  std::vector<ByteRange>* out_;
};

// Cuts text[start, end) between code points: an open piece text[start, line) whose tally is
// `piece` (its closing line break included), then one long line. A cut falls after the last
// space or line break when that keeps at least half of the piece, so words survive whole
// where they can.
void SplitLine(std::string_view text, size_t start, size_t line, size_t end, TokenTally piece,
               size_t max_tokens, PieceCollector& pieces) {
  size_t after_space = line;
  size_t i = line;
  for (; i < end;) {
    size_t next = i + 1;
    while (next < end && (static_cast<unsigned char>(text[next]) & 0xC0) == 0x80) ++next;
    const auto c = static_cast<unsigned char>(text[i]);
    TokenTally grown = piece;
    grown.Add(c);
    if (i > start && grown.Tokens() > max_tokens) {
      size_t cut = i;
      if (after_space > start && after_space - start >= (i - start) / 2) cut = after_space;
      piece = TokenTally{};
      piece.Add(text.substr(cut, next - cut));
      if (piece.Tokens() > max_tokens) {  // rounding left no room: cut right here instead
        cut = i;
        piece = TokenTally{};
        piece.Add(c);
      }
      pieces.Add(start, cut);
      start = cut;
    } else {
      piece = grown;
    }
    if (c == ' ' || c == '\t') after_space = next;
    i = next;
  }
  pieces.Add(start, end);
}

}  // namespace

std::vector<ByteRange> SplitOversize(std::string_view text, size_t max_tokens) {
  max_tokens = std::max<size_t>(max_tokens, 1);
  std::vector<ByteRange> out;
  PieceCollector pieces(text, &out);

  bool open = false;
  size_t piece_begin = 0;
  size_t piece_end = 0;
  TokenTally piece;
  size_t pos = 0;
  while (true) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    TokenTally line;
    line.Add(text.substr(pos, nl - pos));
    if (line.Tokens() > max_tokens) {
      // The long line tops up the open piece before it is cut, so a short lead-in such as
      // a heading is not left behind as a piece of its own.
      if (open) {
        piece.Add('\n');
        SplitLine(text, piece_begin, pos, nl, piece, max_tokens, pieces);
      } else {
        SplitLine(text, pos, pos, nl, TokenTally{}, max_tokens, pieces);
      }
      open = false;
    } else if (open) {
      TokenTally grown = piece;
      grown.Add('\n');
      grown.Add(line);
      if (grown.Tokens() > max_tokens) {
        pieces.Add(piece_begin, piece_end);
        piece_begin = pos;
        piece = line;
      } else {
        piece = grown;
      }
      piece_end = nl;
    } else {
      open = true;
      piece_begin = pos;
      piece_end = nl;
      piece = line;
    }
    if (nl == text.size()) break;
    pos = nl + 1;
  }
  if (open) pieces.Add(piece_begin, piece_end);
  return out;
}

}  // namespace kebab::chunk
