// The sentence rules of sentences.hpp, in one left-to-right pass. Most of the work is deciding
// whether a period ends a sentence; the word lists below carry that knowledge for English.
#include "text/sentences.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include "text/words.hpp"

namespace opbase::ai {

namespace {

// Abbreviations after which a period never ends a sentence: titles before a name, and the
// Latin and reference abbreviations that always go on ("see fig. 3", "France vs. Spain").
constexpr std::string_view kNeverEnds[] = {
    "adm", "approx", "art",  "ca", "capt", "cf",  "ch",  "cmdr", "col",  "dr",   "e.g",
    "eq",  "fig",    "figs", "fr", "ft",   "gen", "gov", "hon",  "i.e",  "insp", "lt",
    "maj", "mr",     "mrs",  "ms", "mt",   "mx",  "nos", "pp",   "prof", "rep",  "rev",
    "sec", "sen",    "sgt",  "st", "supt", "viz", "vol", "vols", "vs"};

// Abbreviations that end a sentence only when a capitalised word follows: "on Jan. 5" goes on,
// "in Jan. Prices" ends; "pens, etc. The" ends.
constexpr std::string_view kEndBeforeCapital[] = {"apr", "aug", "dec", "etc", "feb", "jan", "jul",
                                                  "jun", "mar", "nov", "oct", "sep", "sept"};

// Suffixes often followed by a capitalised word in the same sentence ("Acme Inc. Chief"), so they
// end one only before a common sentence opener.
constexpr std::string_view kEndBeforeOpener[] = {"al",   "assn", "bros", "co",  "corp",
                                                 "dept", "esq",  "est",  "inc", "jr",
                                                 "llc",  "ltd",  "plc",  "sr"};

// Words that commonly open an English sentence (lowercase).
constexpr std::string_view kOpeners[] = {
    "a",       "according", "after",   "all",       "also",   "although", "an",     "and",
    "another", "as",        "at",      "because",   "before", "both",     "but",    "by",
    "during",  "each",      "earlier", "every",     "for",    "from",     "he",     "her",
    "his",     "how",       "however", "i",         "if",     "in",       "it",     "its",
    "last",    "later",     "many",    "meanwhile", "most",   "my",       "next",   "no",
    "not",     "now",       "on",      "one",       "or",     "other",    "our",    "she",
    "since",   "so",        "some",    "still",     "such",   "that",     "the",    "their",
    "then",    "there",     "these",   "they",      "this",   "those",    "though", "to",
    "today",   "we",        "what",    "when",      "where",  "while",    "who",    "why",
    "yet",     "you"};

template <size_t N>
bool listed(const std::string_view (&list)[N], std::string_view word) {
  return std::find(std::begin(list), std::end(list), word) != std::end(list);
}

bool is_cjk_terminator(char32_t point) {
  return point == 0x3002 || point == 0xFF01 || point == 0xFF1F || point == 0xFF61;
}

// . ! ? … and the full stops of other scripts that are followed by a space.
bool is_terminator(char32_t point) {
  switch (point) {
    case '.':
    case '!':
    case '?':
    case 0x2026:  // …
    case 0x0589:  // Armenian
    case 0x061F:  // Arabic question mark
    case 0x06D4:  // Arabic
    case 0x0964:  // Devanagari
    case 0x0965:
      return true;
    default:
      return is_cjk_terminator(point);
  }
}

bool is_closing(char32_t point) {
  switch (point) {
    case '"':
    case '\'':
    case ')':
    case ']':
    case '}':
    case 0x2019:  // ’
    case 0x201D:  // ”
    case 0x00BB:  // »
    case 0x203A:  // ›
    case 0x3009:  // 〉
    case 0x300B:  // 》
    case 0x300D:  // 」
    case 0x300F:  // 』
    case 0x3011:  // 】
    case 0xFF09:  // ）
      return true;
    default:
      return false;
  }
}

bool is_opening(char32_t point) {
  switch (point) {
    case '"':
    case '\'':
    case '(':
    case '[':
    case '{':
    case '*':
    case '_':
    case 0x2018:  // ‘
    case 0x201C:  // “
    case 0x00AB:  // «
    case 0x00A1:  // ¡
    case 0x00BF:  // ¿
    case 0x2039:  // ‹
    case 0x300C:  // 「
    case 0x300E:  // 『
    case 0x3010:  // 【
    case 0xFF08:  // （
      return true;
    default:
      return false;
  }
}

bool is_line_break(char32_t point) {
  return point == '\n' || point == '\r' || point == 0x85 || point == 0x2028 || point == 0x2029;
}

// Punctuation at the end of a line that says the sentence goes on below.
bool continues_line(char32_t point) {
  switch (point) {
    case ',':
    case ';':
    case '(':
    case '-':
    case '&':
    case '/':
    case 0x2013:  // –
    case 0x2014:  // —
      return true;
    default:
      return false;
  }
}

bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// "U.S", "p.m", "ph.d": short runs of letters joined by periods (the last period is the one
// being judged, so it is not part of the token).
bool is_dotted_acronym(std::string_view token) {
  if (token.find('.') == std::string_view::npos) return false;
  size_t run = 0;
  for (const char c : token) {
    if (c == '.') {
      if (run == 0) return false;
      run = 0;
    } else if (is_ascii_letter(c) && run < 3) {
      ++run;
    } else {
      return false;
    }
  }
  return run > 0;
}

// The first code point of the next word after `at` (past white space and opening quotes and
// brackets; 0 at the end of the text), and that word's ASCII letters lowercased.
struct NextWord {
  char32_t first = 0;
  std::string lower;
};

NextWord next_word(std::string_view text, size_t at) {
  NextWord next;
  size_t length = 1;
  while (at < text.size()) {
    const char32_t point = decode_utf8(text, at, &length);
    if (!is_space(point) && !is_opening(point)) {
      next.first = point;
      break;
    }
    at += length;
  }
  for (; at < text.size() && next.lower.size() < 16 && is_ascii_letter(text[at]); ++at) {
    next.lower.push_back(static_cast<char>(text[at] | 0x20));
  }
  return next;
}

// Is the text at `at` a list item's marker: "- ", "* ", "• ", "– ", "1. ", "12) "?
bool starts_list_item(std::string_view text, size_t at) {
  size_t length = 1;
  const char32_t point = decode_utf8(text, at, &length);
  size_t after = at + length;
  if (point == '-' || point == '*' || point == '+' || point == 0x2022 || point == 0x2013) {
    return after < text.size() && (text[after] == ' ' || text[after] == '\t');
  }
  size_t digits = 0;
  while (at + digits < text.size() && digits < 4 && is_ascii_digit(text[at + digits])) ++digits;
  after = at + digits;
  return digits > 0 && digits < 4 && after + 1 < text.size() &&
         (text[after] == '.' || text[after] == ')') && text[after + 1] == ' ';
}

// Cuts the text into sentences in one pass; `start_` is where the current sentence began.
class Splitter {
 public:
  explicit Splitter(std::string_view text) : text_(text) {}

  std::vector<TextRange> run() {
    size_t at = 0;
    while (at < text_.size()) {
      size_t length = 1;
      const char32_t point = decode_utf8(text_, at, &length);
      if (is_terminator(point)) {
        at = after_terminator(at);
      } else if (is_line_break(point)) {
        at = after_line_break(at);
      } else {
        at += length;
      }
    }
    end_sentence(text_.size());
    return std::move(sentences_);
  }

 private:
  // The characters before a period, for the abbreviation rules.
  struct Token {
    std::string lower;
    bool first_in_sentence = false;
  };

  // Judges the terminator run starting at `at`; returns where scanning goes on.
  size_t after_terminator(size_t at) {
    size_t end = at;
    size_t length = 1;
    size_t periods = 0;
    bool strong = false;  // ! ? … or a CJK stop
    bool cjk = false;
    while (end < text_.size()) {
      const char32_t point = decode_utf8(text_, end, &length);
      if (!is_terminator(point)) break;
      periods += point == '.' ? 1 : 0;
      strong = strong || point != '.';
      cjk = cjk || is_cjk_terminator(point);
      end += length;
    }
    while (end < text_.size()) {
      const char32_t point = decode_utf8(text_, end, &length);
      if (!is_closing(point)) break;
      end += length;
    }
    const bool at_end = end == text_.size();
    if (!at_end && !cjk && !is_space(decode_utf8(text_, end, &length))) return end;  // "3.5"
    if (at_end || cjk) {
      end_sentence(end);
      return end;
    }
    const NextWord next = next_word(text_, end);
    bool ends = true;  // nothing but white space follows
    if (next.first != 0 && (strong || periods > 1)) {
      ends = !is_lower(next.first);
    } else if (next.first != 0) {
      ends = period_ends(previous_token(at), next);
    }
    if (ends) end_sentence(end);
    return end;
  }

  // Does a single period after `token` (lowercased) end the sentence, given the next word?
  bool period_ends(const Token& token, const NextWord& next) const {
    const std::string_view word = token.lower;
    if (word == "no") return !(next.first < 0x80 && is_ascii_digit(static_cast<char>(next.first)));
    if (listed(kNeverEnds, word)) return false;
    if (token.first_in_sentence && !word.empty() &&
        std::all_of(word.begin(), word.end(), is_ascii_digit)) {
      return false;  // "1. First point"
    }
    if (listed(kEndBeforeCapital, word)) return is_upper(next.first);
    const bool initial = word.size() == 1 && is_ascii_letter(word[0]);
    if (initial || is_dotted_acronym(word) || listed(kEndBeforeOpener, word)) {
      return is_upper(next.first) && listed(kOpeners, next.lower);
    }
    return !is_lower(next.first);
  }

  // The non-space characters just before byte `at`, without opening quotes and brackets,
  // ASCII-lowercased.
  Token previous_token(size_t at) const {
    size_t begin = at;
    while (begin > start_ && static_cast<unsigned char>(text_[begin - 1]) > ' ') --begin;
    Token token;
    token.first_in_sentence = first_non_space(start_) == begin;
    std::string_view raw = text_.substr(begin, at - begin);
    while (!raw.empty()) {
      size_t length = 1;
      if (!is_opening(decode_utf8(raw, 0, &length))) break;
      raw.remove_prefix(length);
    }
    token.lower.reserve(raw.size());
    for (const char c : raw)
      token.lower.push_back(is_ascii_letter(c) ? static_cast<char>(c | 0x20) : c);
    return token;
  }

  // Judges the line break starting at `at`; returns where scanning goes on.
  size_t after_line_break(size_t at) {
    size_t end = at;
    size_t length = 1;
    size_t breaks = 0;
    bool paragraph = false;
    while (end < text_.size()) {
      const char32_t point = decode_utf8(text_, end, &length);
      if (point == 0x2029) {
        paragraph = true;
      } else if (point == '\r') {
        const bool crlf = end + 1 < text_.size() && text_[end + 1] == '\n';
        breaks += crlf ? 0 : 1;
      } else if (is_line_break(point)) {
        ++breaks;
      } else if (!is_space(point)) {
        break;
      }
      end += length;
    }
    if (end == text_.size()) return end;
    if (paragraph || breaks >= 2 || line_ends_sentence(at, end)) {
      end_sentence(at);
      start_ = end;
    }
    return end;
  }

  // A single line break between [start_, at) and the line starting at `next`.
  bool line_ends_sentence(size_t at, size_t next) const {
    if (starts_list_item(text_, next)) return true;
    size_t length = 1;
    if (is_lower(decode_utf8(text_, next, &length))) return false;
    const size_t end = trimmed_end(at);
    if (end == start_) return true;
    // A period the terminator rules kept inside the sentence ("Mr.") keeps it across the break.
    const char32_t last = decode_utf8(text_, previous_start(end), &length);
    return !continues_line(last) && !is_terminator(last) && !is_closing(last);
  }

  size_t first_non_space(size_t at) const {
    size_t length = 1;
    while (at < text_.size() && is_space(decode_utf8(text_, at, &length))) at += length;
    return at;
  }

  // The start of the code point that ends at `end` (a lone byte when the UTF-8 there is bad).
  size_t previous_start(size_t end) const {
    size_t begin = end - 1;
    while (begin > start_ && end - begin < 4 &&
           (static_cast<unsigned char>(text_[begin]) & 0xC0) == 0x80) {
      --begin;
    }
    size_t length = 1;
    decode_utf8(text_, begin, &length);
    return begin + length == end ? begin : end - 1;
  }

  // Where [start_, end) ends once trailing white space is cut off (start_ when all of it is).
  size_t trimmed_end(size_t end) const {
    while (end > start_) {
      const size_t begin = previous_start(end);
      size_t length = 1;
      if (!is_space(decode_utf8(text_, begin, &length))) return end;
      end = begin;
    }
    return end;
  }

  // Closes the sentence [start_, end), trimmed; the next one starts at `end`.
  void end_sentence(size_t end) {
    const size_t begin = first_non_space(std::min(start_, end));
    const size_t stop = trimmed_end(end);
    if (begin < stop) sentences_.push_back({begin, stop});
    start_ = end;
  }

  std::string_view text_;
  size_t start_ = 0;
  std::vector<TextRange> sentences_;
};

}  // namespace

std::vector<TextRange> split_sentences(std::string_view text) { return Splitter(text).run(); }

}  // namespace opbase::ai
