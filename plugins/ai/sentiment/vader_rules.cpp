#include "sentiment/vader_rules.hpp"

#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace opbase::ai {

namespace {

using WordValues = std::unordered_map<std::string_view, double>;

const WordValues& boosters() {
  static const WordValues table = [] {
    WordValues values;
    for (std::string_view word : {"absolutely",   "amazingly",     "awfully",      "completely",
                                  "considerably", "decidedly",     "deeply",       "effing",
                                  "enormously",   "entirely",      "especially",   "exceptionally",
                                  "extremely",    "fabulously",    "flipping",     "flippin",
                                  "fricking",     "frickin",       "frigging",     "friggin",
                                  "fully",        "fucking",       "greatly",      "hella",
                                  "highly",       "hugely",        "incredibly",   "intensely",
                                  "majorly",      "more",          "most",         "particularly",
                                  "purely",       "quite",         "really",       "remarkably",
                                  "so",           "substantially", "thoroughly",   "totally",
                                  "tremendously", "uber",          "unbelievably", "unusually",
                                  "utterly",      "very"}) {
      values.emplace(word, kBoosterIncrement);
    }
    for (std::string_view word :
         {"almost",   "barely",   "hardly",  "just enough", "kind of",      "kinda",  "kindof",
          "kind-of",  "less",     "little",  "marginally",  "occasionally", "partly", "scarcely",
          "slightly", "somewhat", "sort of", "sorta",       "sortof",       "sort-of"}) {
      values.emplace(word, kBoosterDecrement);
    }
    return values;
  }();
  return table;
}

const std::unordered_set<std::string_view>& negations() {
  static const std::unordered_set<std::string_view> words = {
      "aint",   "arent",    "cannot",  "cant",     "couldnt",  "darent",   "didnt",   "doesnt",
      "ain't",  "aren't",   "can't",   "couldn't", "daren't",  "didn't",   "doesn't", "dont",
      "hadnt",  "hasnt",    "havent",  "isnt",     "mightnt",  "mustnt",   "neither", "don't",
      "hadn't", "hasn't",   "haven't", "isn't",    "mightn't", "mustn't",  "neednt",  "needn't",
      "never",  "none",     "nope",    "nor",      "not",      "nothing",  "nowhere", "oughtnt",
      "shant",  "shouldnt", "uhuh",    "wasnt",    "werent",   "oughtn't", "shan't",  "shouldn't",
      "uh-uh",  "wasn't",   "weren't", "without",  "wont",     "wouldnt",  "won't",   "wouldn't",
      "rarely", "seldom",   "despite"};
  return words;
}

const WordValues& idioms() {
  static const WordValues table = {
      {"the shit", 3},        {"the bomb", 3},         {"bad ass", 1.5},     {"yeah right", -2},
      {"cut the mustard", 2}, {"kiss of death", -1.5}, {"hand to mouth", -2}};
  return table;
}

std::optional<double> find(const WordValues& table, std::string_view key) {
  const auto found = table.find(key);
  if (found == table.end()) return std::nullopt;
  return found->second;
}

}  // namespace

std::optional<double> booster_value(std::string_view lowercase) {
  return find(boosters(), lowercase);
}

bool is_negation(std::string_view lowercase) {
  return negations().count(lowercase) > 0 || lowercase.find("n't") != std::string_view::npos;
}

std::optional<double> idiom_value(std::string_view lowercase_words) {
  return find(idioms(), lowercase_words);
}

}  // namespace opbase::ai
