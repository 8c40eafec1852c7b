#include "sentiment/word_forms.hpp"

#include "sentiment/vader_text.hpp"

namespace opbase::ai {

namespace {

bool ends_with(std::string_view word, std::string_view end) {
  return word.size() >= end.size() && word.substr(word.size() - end.size()) == end;
}

}  // namespace

std::string bare_word(std::string_view token) {
  while (!token.empty() && is_ascii_punctuation(token.front())) token.remove_prefix(1);
  while (!token.empty() && is_ascii_punctuation(token.back())) token.remove_suffix(1);
  std::string word = ascii_lower(token);
  if (ends_with(word, "'s")) word.resize(word.size() - 2);
  return word;
}

std::string singular(std::string_view lowercase) {
  std::string word(lowercase);
  if (word.size() > 4 && ends_with(word, "ies")) return word.substr(0, word.size() - 3) + "y";
  for (const std::string_view sibilant : {"sses", "shes", "ches", "xes", "zes"}) {
    if (word.size() > sibilant.size() && ends_with(word, sibilant)) {
      return word.substr(0, word.size() - 2);
    }
  }
  const bool plural_s = word.size() > 3 && ends_with(word, "s") && !ends_with(word, "ss") &&
                        !ends_with(word, "us") && !ends_with(word, "is");
  if (plural_s) word.pop_back();
  return word;
}

}  // namespace opbase::ai
