#include "sentiment/key_phrases.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "sentiment/word_forms.hpp"

namespace opbase::ai {

namespace {

bool is_function_word(const std::string& word) {
  static const std::unordered_set<std::string> words = {
      "a",    "an",   "the",  "and",   "or",    "to",    "of",      "in",     "on",    "at",
      "for",  "by",   "from", "is",    "are",   "was",   "were",    "be",     "been",  "being",
      "am",   "it",   "its",  "it's",  "this",  "that",  "these",   "those",  "i",     "i'm",
      "we",   "you",  "he",   "she",   "they",  "my",    "our",     "your",   "their", "his",
      "her",  "me",   "us",   "them",  "have",  "has",   "had",     "do",     "does",  "did",
      "as",   "if",   "then", "than",  "which", "who",   "what",    "there",  "here",  "with",
      "also", "when", "will", "would", "'s",    "we're", "they're", "you're", ""};
  return words.count(word) > 0;
}

// Words that never end a phrase well; pronouns may ("love it", "recommend this").
bool is_dangling_word(const std::string& word) {
  static const std::unordered_set<std::string> words = {
      "a",   "an",   "the",   "and", "or",   "to",    "of",    "in",  "on",   "at",   "for",
      "by",  "from", "with",  "as",  "than", "is",    "are",   "was", "were", "be",   "been",
      "but", "so",   "my",    "our", "your", "their", "his",   "her", "its",  "very", "really",
      "not", "what", "which", "who", "that", "when",  "where", "how", "if",   "i",    "we",
      "he",  "she",  "they",  "i'm", "i've", "we've", "have",  "has", "had",  ""};
  return words.count(word) > 0;
}

std::string_view token_text(std::string_view text, const RawToken& token) {
  return text.substr(token.begin, token.end - token.begin);
}

bool has_letter_or_digit(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           static_cast<unsigned char>(c) >= 0x80;
  });
}

// Edge punctuation goes, unless nothing readable would be left (an emoticon such as ":)").
std::string strip_edges(std::string phrase) {
  std::string_view view = phrase;
  while (!view.empty() && is_ascii_punctuation(view.front())) view.remove_prefix(1);
  while (!view.empty() && is_ascii_punctuation(view.back())) view.remove_suffix(1);
  if (!has_letter_or_digit(view)) return phrase;
  return std::string(view);
}

struct Hit {
  size_t raw = 0;  // the sentiment word's raw token
  double strength = 0;
};

std::vector<Hit> strongest_first(const VaderText& words, const VaderScore& score) {
  std::vector<Hit> hits;
  for (size_t i = 0; i < score.valences.size(); ++i) {
    if (score.valences[i] != 0) hits.push_back({words.words[i].raw, std::fabs(score.valences[i])});
  }
  std::stable_sort(hits.begin(), hits.end(),
                   [](const Hit& a, const Hit& b) { return a.strength > b.strength; });
  return hits;
}

const TokenSpan* fragment_of(const std::vector<TokenSpan>& fragments, size_t raw) {
  const auto found = std::upper_bound(fragments.begin(), fragments.end(), raw,
                                      [](size_t at, const TokenSpan& f) { return at < f.first; });
  if (found == fragments.begin()) return nullptr;
  const TokenSpan& fragment = *(found - 1);
  return raw < fragment.last ? &fragment : nullptr;
}

// The phrase's tokens around the hit (three before, two after), trimmed at both edges.
TokenSpan phrase_span(std::string_view text, const RawToken* raw, TokenSpan fragment, size_t hit) {
  TokenSpan span{std::max(fragment.first, hit >= 3 ? hit - 3 : 0),
                 std::min(fragment.last, hit + 3)};
  const auto word = [&](size_t i) { return bare_word(token_text(text, raw[i])); };
  while (span.first < hit && is_function_word(word(span.first))) ++span.first;
  while (span.last > hit + 1 && is_dangling_word(word(span.last - 1))) --span.last;
  return span;
}

std::string join_tokens(std::string_view text, const std::vector<RawToken>& raw, TokenSpan span) {
  std::string phrase;
  for (size_t i = span.first; i < span.last; ++i) {
    if (!phrase.empty()) phrase += ' ';
    phrase += token_text(text, raw[i]);
  }
  return strip_edges(std::move(phrase));
}

bool inside_any(const std::vector<TokenSpan>& spans, size_t raw) {
  return std::any_of(spans.begin(), spans.end(),
                     [raw](const TokenSpan& s) { return raw >= s.first && raw < s.last; });
}

// The fragment around the hit, less what earlier phrases already took, so phrases never overlap.
TokenSpan free_part(TokenSpan fragment, const std::vector<TokenSpan>& taken, size_t hit) {
  for (const TokenSpan& span : taken) {
    if (span.last <= hit) fragment.first = std::max(fragment.first, span.last);
    if (span.first > hit) fragment.last = std::min(fragment.last, span.first);
  }
  return fragment;
}

}  // namespace

std::vector<std::string> key_phrases(std::string_view text, const VaderText& words,
                                     const VaderScore& score,
                                     const std::vector<TokenSpan>& fragments, size_t limit) {
  std::vector<std::string> phrases;
  std::vector<TokenSpan> taken;
  std::unordered_set<std::string> seen;
  for (const Hit& hit : strongest_first(words, score)) {
    if (phrases.size() >= limit) break;
    const TokenSpan* fragment = fragment_of(fragments, hit.raw);
    if (fragment == nullptr || inside_any(taken, hit.raw)) continue;
    const TokenSpan span =
        phrase_span(text, words.raw.data(), free_part(*fragment, taken, hit.raw), hit.raw);
    std::string phrase = join_tokens(text, words.raw, span);
    if (phrase.empty() || !seen.insert(ascii_lower(phrase)).second) continue;
    taken.push_back(span);
    phrases.push_back(std::move(phrase));
  }
  return phrases;
}

}  // namespace opbase::ai
