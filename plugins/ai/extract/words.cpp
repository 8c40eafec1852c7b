#include "extract/words.hpp"

#include <array>

#include "extract/utf8.hpp"

namespace opbase::ai::extract {

namespace {

constexpr std::array<std::string_view, 52> kAbbreviations = {
    "mr",   "mrs",  "ms",   "dr",   "prof", "st",   "mt",     "jr",  "sr",  "inc", "corp",
    "ltd",  "co",   "vs",   "etc",  "no",   "gen",  "sen",    "rep", "gov", "lt",  "col",
    "capt", "sgt",  "rev",  "pres", "jan",  "feb",  "mar",    "apr", "jun", "jul", "aug",
    "sep",  "sept", "oct",  "nov",  "dec",  "mon",  "tue",    "wed", "thu", "fri", "sat",
    "sun",  "ave",  "blvd", "rd",   "dept", "univ", "approx", "est"};

bool is_word_point(char32_t point) { return is_letter(point) || is_digit(point); }

bool is_joiner(char32_t point) {
  return point == '-' || point == '\'' || point == 0x2019 || point == '&';
}

bool is_apostrophe(char32_t point) { return point == '\'' || point == 0x2019; }

// Where the word starting at `begin` ends. Joiners count only between word characters, and an
// apostrophe followed by a lone "s" is a possessive, left outside.
size_t word_end(std::string_view text, size_t begin) {
  size_t at = begin;
  while (at < text.size()) {
    const Decoded here = decode_at(text, at);
    if (is_word_point(here.point)) {
      at += here.size;
      continue;
    }
    if (!is_joiner(here.point) || at + here.size >= text.size()) break;
    const size_t next_at = at + here.size;
    const Decoded next = decode_at(text, next_at);
    if (!is_word_point(next.point)) break;
    if (is_apostrophe(here.point) && (next.point == 's' || next.point == 'S')) {
      const size_t after = next_at + 1;
      if (after >= text.size() || !is_word_point(decode_at(text, after).point)) break;
    }
    at = next_at;
  }
  return at;
}

// "U.S.", "U.S.A.", "e.g.": two or more single ASCII letters, each followed by a dot.
size_t dotted_end(std::string_view text, size_t begin) {
  size_t at = begin;
  int letters = 0;
  while (at + 1 < text.size() && static_cast<unsigned char>(text[at]) < 0x80 &&
         is_letter(static_cast<unsigned char>(text[at])) && text[at + 1] == '.') {
    at += 2;
    ++letters;
  }
  if (letters < 2) return begin;
  if (at < text.size() && is_word_point(decode_at(text, at).point)) return begin;
  return at;
}

void describe_case(std::string_view text, Word* word) {
  int letters = 0;
  bool any_lower = false;
  for (size_t at = word->begin; at < word->end;) {
    const Decoded decoded = decode_at(text, at);
    at += decoded.size;
    if (is_digit(decoded.point)) word->has_digit = true;
    if (!is_letter(decoded.point)) continue;
    if (letters == 0) word->capitalized = is_upper(decoded.point);
    ++letters;
    if (!is_upper(decoded.point)) any_lower = true;
  }
  word->all_caps = letters >= 2 && !any_lower;
}

bool is_opening(char32_t point) {
  return point == '"' || point == '\'' || point == '(' || point == '[' || point == 0x201C ||
         point == 0x2018 || point == 0x00AB || point == '*' || point == '-' || point == 0x2022;
}

// A sentence starts at the text's start, after a line break, and after '!', '?', ':' or a '.'
// that does not close an abbreviation.
bool starts_sentence(std::string_view text, size_t begin, const Word* previous) {
  size_t at = begin;
  while (at > 0) {
    const Decoded before = decode_before(text, at);
    if (before.point == '\n') return true;
    if (is_space(before.point) || is_opening(before.point)) {
      at -= before.size;
      continue;
    }
    if (before.point == '!' || before.point == '?' || before.point == ':') return true;
    if (before.point != '.') return false;
    if (previous == nullptr || previous->end + 1 != at) return true;
    const bool initial = previous->end - previous->begin == 1 && previous->capitalized;
    return !(initial || previous->dotted || is_abbreviation(previous->key));
  }
  return true;
}

bool joins_previous(std::string_view text, const Word& previous, size_t begin) {
  size_t at = previous.end + (previous.period_after ? 1 : 0);
  if (at >= begin) return false;
  for (; at < begin; ++at) {
    if (text[at] != ' ' && text[at] != '\t') return false;
  }
  return true;
}

}  // namespace

bool is_abbreviation(std::string_view key) {
  for (const auto abbreviation : kAbbreviations) {
    if (abbreviation == key) return true;
  }
  return false;
}

std::vector<Word> split_words(std::string_view text) {
  std::vector<Word> words;
  size_t at = 0;
  while (at < text.size()) {
    const Decoded here = decode_at(text, at);
    const bool boundary = at == 0 || !is_word_point(decode_before(text, at).point);
    if (!is_word_point(here.point) || !boundary) {
      at += here.size;
      continue;
    }
    Word word;
    word.begin = at;
    const size_t dotted = dotted_end(text, at);
    if (dotted > at) {
      word.end = dotted;
      word.dotted = true;
      for (size_t i = at; i < dotted; i += 2) word.key += ascii_lower(text.substr(i, 1));
    } else {
      word.end = word_end(text, at);
      word.key = fold_key(text.substr(at, word.end - at));
      word.period_after = word.end < text.size() && text[word.end] == '.';
    }
    describe_case(text, &word);
    const Word* previous = words.empty() ? nullptr : &words.back();
    word.sentence_start = starts_sentence(text, word.begin, previous);
    word.joined =
        previous != nullptr && !word.sentence_start && joins_previous(text, *previous, word.begin);
    words.push_back(std::move(word));
    at = words.back().end;
  }
  return words;
}

}  // namespace opbase::ai::extract
