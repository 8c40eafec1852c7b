// VADER's sentiment score of a text (Hutto & Gilbert, "VADER: A Parsimonious Rule-based Model for
// Sentiment Analysis of Social Media Text", ICWSM 2014), ported from npm vader-sentiment 1.1.3.
// Each word in the lexicon gets its valence, then the rules adjust it: ALL-CAPS emphasis in mixed
// case text, boosters and dampeners among the three words before it, negation among those three
// words (including "n't"), "never so/this", "kind of" and the idioms, "least"; after the whole
// text, "but" halves what comes before it and raises what follows by half; "!" (up to four) and
// "?" (two or more) push the sum away from zero; compound = sum / sqrt(sum^2 + 15).
//
// Where this port differs from vader-sentiment 1.1.3, on purpose: negation words, "never so/this",
// "but" and idioms are compared lowercase, as VADER 3.3 (the Python reference) does — the
// JavaScript package misses "Not good" and "But" at the start of a sentence.
//
// Thread-safety: pure functions over an immutable lexicon; safe from any thread.
#pragma once

#include <string_view>
#include <vector>

#include "sentiment/vader_lexicon.hpp"
#include "sentiment/vader_text.hpp"

namespace opbase::ai {

struct VaderScore {
  double compound = 0;  // the normalised sum, in [-1, 1]
  // VADER's shares of positive, negative and neutral words (with punctuation emphasis); they
  // add up to 1 unless the text has no words.
  double positive = 0;
  double negative = 0;
  double neutral = 0;
  // Each word's valence after every rule, one per VaderText::words entry; 0 for the neutral.
  std::vector<double> valences;
  // The summed positive valence and the summed size of the negative valence, before the "but"
  // re-weighting: how much praise and how much criticism the text holds wherever it stands.
  double praise = 0;
  double criticism = 0;
  int hits = 0;  // words with a valence other than 0
};

VaderScore vader_score(const VaderLexicon& lexicon, const VaderText& words, std::string_view text);
VaderScore vader_score(const VaderLexicon& lexicon, std::string_view text);

// x / sqrt(x^2 + 15), within [-1, 1].
double vader_normalize(double sum);

}  // namespace opbase::ai
