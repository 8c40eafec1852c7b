#include "translate/text_pieces.hpp"

namespace opbase::ai {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

bool is_sentence_end(char c) { return c == '.' || c == '!' || c == '?' || c == ';'; }

bool is_closing(char c) { return c == '"' || c == '\'' || c == ')' || c == ']'; }

bool is_word_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || byte >= 0x80;
}

bool starts_code_point(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

void add(std::vector<TextPiece>* pieces, std::string_view text, bool translate) {
  if (text.empty()) return;
  if (!translate && !pieces->empty() && !pieces->back().translate) {
    // Views of one text, adjacent: widen the previous piece instead of adding one.
    const std::string_view previous = pieces->back().text;
    pieces->back().text = std::string_view(previous.data(), previous.size() + text.size());
    return;
  }
  pieces->push_back({text, translate});
}

// Where to end the first piece of `words` (longer than `limit`): after the last sentence end
// followed by a blank, else at the last blank, else at the last code point boundary.
size_t cut_point(std::string_view words, size_t limit) {
  size_t last_blank = 0;
  for (size_t i = limit; i > 0; --i) {
    if (!is_blank(words[i])) continue;
    size_t end = i;
    while (end > 0 && is_closing(words[end - 1])) --end;
    if (end > 0 && is_sentence_end(words[end - 1])) return i;
    if (last_blank == 0) last_blank = i;
  }
  if (last_blank != 0) return last_blank;
  size_t at = limit;
  while (at > 1 && !starts_code_point(words[at])) --at;
  return at;
}

// The words of one line (no blank at either end), cut into pieces of at most `limit` bytes.
void add_words(std::vector<TextPiece>* pieces, std::string_view words, size_t limit) {
  while (words.size() > limit) {
    size_t cut = cut_point(words, limit);
    while (cut > 1 && is_blank(words[cut - 1])) --cut;
    add(pieces, words.substr(0, cut), true);
    size_t next = cut;
    while (next < words.size() && is_blank(words[next])) ++next;
    add(pieces, words.substr(cut, next - cut), false);
    words.remove_prefix(next);
  }
  add(pieces, words, true);
}

void add_line(std::vector<TextPiece>* pieces, std::string_view line, size_t limit) {
  size_t begin = 0;
  while (begin < line.size() && is_blank(line[begin])) ++begin;
  size_t end = line.size();
  while (end > begin && is_blank(line[end - 1])) --end;
  add(pieces, line.substr(0, begin), false);
  add_words(pieces, line.substr(begin, end - begin), limit);
  add(pieces, line.substr(end), false);
}

}  // namespace

std::vector<TextPiece> split_for_translation(std::string_view text, size_t max_piece_bytes) {
  const size_t limit = max_piece_bytes < 16 ? 16 : max_piece_bytes;
  std::vector<TextPiece> pieces;
  size_t at = 0;
  while (at < text.size()) {
    size_t line_end = text.find('\n', at);
    if (line_end == std::string_view::npos) line_end = text.size();
    add_line(&pieces, text.substr(at, line_end - at), limit);
    if (line_end < text.size()) add(&pieces, text.substr(line_end, 1), false);
    at = line_end + 1;
  }
  return pieces;
}

size_t count_apertium_words(std::string_view text) {
  size_t words = 0;
  bool in_word = false;
  for (const char c : text) {
    const bool word_byte = is_word_byte(c);
    if (word_byte && !in_word) ++words;
    in_word = word_byte;
  }
  return words;
}

}  // namespace opbase::ai
