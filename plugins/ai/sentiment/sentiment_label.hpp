// The overall label of a text and how sure it is.
//
// Label: "mixed" when praise and criticism are both strong — each side's summed VADER valence
// (before the "but" re-weighting) is at least 1.5, about one clearly emotional word ("good" is
// 1.9, "bad" -2.5), and the weaker side has at least half the weight of the stronger. Otherwise
// VADER's own thresholds on the compound: "positive" at >= 0.05, "negative" at <= -0.05, else
// "neutral".
//
// Confidence, in [0, 1], with evidence e = 1 - exp(-hits / 3) (hits: words carrying sentiment;
// 1 hit gives 0.28, 3 give 0.63, 9 give 0.95):
//   positive, negative: 0.3 + 0.4 * |compound| + 0.3 * e * agreement, where agreement is the
//                       winning side's share of praise + criticism;
//   mixed:              0.3 + 0.4 * balance + 0.3 * e, balance = weaker side / stronger side;
//   neutral:            0.9 - 0.4 * e (a text with no sentiment words at all is surely neutral;
//                       one whose sentiment words cancel out much less so).
//
// Thread-safety: pure functions; safe from any thread.
#pragma once

#include <string_view>

#include "sentiment/vader_scorer.hpp"

namespace opbase::ai {

enum class Polarity { kPositive, kNegative, kNeutral, kMixed };

// "positive", "negative", "neutral" or "mixed".
std::string_view polarity_name(Polarity polarity);

// VADER's thresholds: positive at >= 0.05, negative at <= -0.05.
Polarity polarity_of_compound(double compound);

Polarity overall_polarity(const VaderScore& score);

double label_confidence(const VaderScore& score, Polarity polarity);

}  // namespace opbase::ai
