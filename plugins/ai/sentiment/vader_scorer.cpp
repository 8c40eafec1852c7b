#include "sentiment/vader_scorer.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "sentiment/vader_rules.hpp"

namespace opbase::ai {

namespace {

using Words = std::vector<VaderWord>;

// What a booster or dampener before a word adds to its valence: against the valence's sign for
// a dampener, and more when the booster alone is in ALL CAPS.
double scalar_inc_dec(const VaderWord& word, double valence, bool cap_differential) {
  const auto booster = booster_value(word.lower);
  if (!booster) return 0;
  double scalar = valence < 0 ? -*booster : *booster;
  if (cap_differential && is_all_caps(word.text)) {
    scalar += valence > 0 ? kCapsIncrement : -kCapsIncrement;
  }
  return scalar;
}

bool is_so_or_this(const VaderWord& word) { return word.lower == "so" || word.lower == "this"; }

// Negation `start + 1` words before word i; "never so good" and "so ... good" raise instead.
double never_check(double valence, const Words& words, size_t start, size_t i) {
  if (start == 0) {
    if (is_negation(words[i - 1].lower)) valence *= kNegationScalar;
  } else if (start == 1) {
    if (words[i - 2].lower == "never" && is_so_or_this(words[i - 1])) {
      valence *= 1.5;
    } else if (is_negation(words[i - 2].lower)) {
      valence *= kNegationScalar;
    }
  } else if (start == 2) {
    if ((words[i - 3].lower == "never" && is_so_or_this(words[i - 2])) ||
        is_so_or_this(words[i - 1])) {
      valence *= 1.25;
    } else if (is_negation(words[i - 3].lower)) {
      valence *= kNegationScalar;
    }
  }
  return valence;
}

std::string joined(const Words& words, size_t first, size_t count) {
  std::string text = words[first].lower;
  for (size_t k = first + 1; k < first + count; ++k) text += " " + words[k].lower;
  return text;
}

// Idioms around word i (i >= 3) replace its valence; "kind of" / "sort of" before it dampen it.
double idioms_check(double valence, const Words& words, size_t i) {
  const std::string one_zero = joined(words, i - 1, 2);
  const std::string two_one_zero = joined(words, i - 2, 3);
  const std::string two_one = joined(words, i - 2, 2);
  const std::string three_two_one = joined(words, i - 3, 3);
  const std::string three_two = joined(words, i - 3, 2);
  for (const std::string* sequence :
       {&one_zero, &two_one_zero, &two_one, &three_two_one, &three_two}) {
    if (const auto idiom = idiom_value(*sequence)) {
      valence = *idiom;
      break;
    }
  }
  if (words.size() - 1 > i) {
    if (const auto idiom = idiom_value(joined(words, i, 2))) valence = *idiom;
  }
  if (words.size() - 1 > i + 1) {
    if (const auto idiom = idiom_value(joined(words, i, 3))) valence = *idiom;
  }
  if (booster_value(three_two) || booster_value(two_one)) valence += kBoosterDecrement;
  return valence;
}

// "least good" flips the valence; "at least" and "very least" do not.
double least_check(double valence, const VaderLexicon& lexicon, const Words& words, size_t i) {
  if (i == 0 || words[i - 1].lower != "least" || lexicon.contains("least")) return valence;
  if (i > 1 && (words[i - 2].lower == "at" || words[i - 2].lower == "very")) return valence;
  return valence * kNegationScalar;
}

double word_valence(const VaderLexicon& lexicon, const VaderText& text, size_t i) {
  const Words& words = text.words;
  const double* base = lexicon.find(words[i].lower);
  if (base == nullptr) return 0;
  double valence = *base;
  if (text.cap_differential && is_all_caps(words[i].text)) {
    valence += valence > 0 ? kCapsIncrement : -kCapsIncrement;
  }
  for (size_t start = 0; start < 3; ++start) {
    if (i <= start || lexicon.contains(words[i - (start + 1)].lower)) continue;
    double scalar = scalar_inc_dec(words[i - (start + 1)], valence, text.cap_differential);
    if (start == 1) scalar *= 0.95;
    if (start == 2) scalar *= 0.9;
    valence = never_check(valence + scalar, words, start, i);
    if (start == 2) valence = idioms_check(valence, words, i);
  }
  return least_check(valence, lexicon, words, i);
}

// The contrastive "but": what comes after it matters more than what comes before.
void but_check(const Words& words, std::vector<double>& valences) {
  const auto but = std::find_if(words.begin(), words.end(),
                                [](const VaderWord& word) { return word.lower == "but"; });
  if (but == words.end()) return;
  const auto at = static_cast<size_t>(but - words.begin());
  for (size_t k = 0; k < valences.size(); ++k) {
    if (k < at) valences[k] *= 0.5;
    if (k > at) valences[k] *= 1.5;
  }
}

// Up to four "!" add 0.292 each; two or three "?" add 0.18 each, more add 0.96.
double punctuation_emphasis(std::string_view text) {
  const auto exclamations = std::min<size_t>(std::count(text.begin(), text.end(), '!'), 4);
  const auto questions = static_cast<size_t>(std::count(text.begin(), text.end(), '?'));
  double questions_amplifier = 0;
  if (questions > 3) {
    questions_amplifier = 0.96;
  } else if (questions > 1) {
    questions_amplifier = static_cast<double>(questions) * 0.18;
  }
  return static_cast<double>(exclamations) * 0.292 + questions_amplifier;
}

void add_shares(VaderScore& score, double emphasis) {
  double positive_sum = 0;
  double negative_sum = 0;
  double neutral_count = 0;
  for (const double valence : score.valences) {
    // The +1 / -1 make up for neutral words being counted as 1 each.
    if (valence > 0) positive_sum += valence + 1;
    if (valence < 0) negative_sum += valence - 1;
    if (valence == 0) neutral_count += 1;
  }
  if (positive_sum > std::fabs(negative_sum)) {
    positive_sum += emphasis;
  } else if (positive_sum < std::fabs(negative_sum)) {
    negative_sum -= emphasis;
  }
  const double total = positive_sum + std::fabs(negative_sum) + neutral_count;
  score.positive = std::fabs(positive_sum / total);
  score.negative = std::fabs(negative_sum / total);
  score.neutral = std::fabs(neutral_count / total);
}

bool is_kind_of(const Words& words, size_t i) {
  return i + 1 < words.size() && words[i].lower == "kind" && words[i + 1].lower == "of";
}

}  // namespace

double vader_normalize(double sum) {
  return std::clamp(sum / std::sqrt(sum * sum + 15.0), -1.0, 1.0);
}

VaderScore vader_score(const VaderLexicon& lexicon, const VaderText& text, std::string_view raw) {
  VaderScore score;
  const Words& words = text.words;
  if (words.empty()) return score;
  score.valences.assign(words.size(), 0.0);
  for (size_t i = 0; i < words.size(); ++i) {
    // Boosters and "kind of" only modify the words after them.
    if (is_kind_of(words, i) || booster_value(words[i].lower)) continue;
    const double valence = word_valence(lexicon, text, i);
    score.valences[i] = valence;
    if (valence > 0) score.praise += valence;
    if (valence < 0) score.criticism -= valence;
    if (valence != 0) ++score.hits;
  }
  but_check(words, score.valences);
  double sum = 0;
  for (const double valence : score.valences) sum += valence;
  const double emphasis = punctuation_emphasis(raw);
  if (sum > 0) sum += emphasis;
  if (sum < 0) sum -= emphasis;
  score.compound = vader_normalize(sum);
  add_shares(score, emphasis);
  return score;
}

VaderScore vader_score(const VaderLexicon& lexicon, std::string_view text) {
  return vader_score(lexicon, split_vader_text(text), text);
}

}  // namespace opbase::ai
