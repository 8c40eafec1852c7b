#include "sentiment/sentiment_label.hpp"

#include <algorithm>
#include <cmath>

namespace opbase::ai {

namespace {

constexpr double kStrongSide = 1.5;
constexpr double kBalanced = 0.5;

double evidence(const VaderScore& score) { return 1.0 - std::exp(-score.hits / 3.0); }

}  // namespace

std::string_view polarity_name(Polarity polarity) {
  switch (polarity) {
    case Polarity::kPositive:
      return "positive";
    case Polarity::kNegative:
      return "negative";
    case Polarity::kMixed:
      return "mixed";
    case Polarity::kNeutral:
      break;
  }
  return "neutral";
}

Polarity polarity_of_compound(double compound) {
  if (compound >= 0.05) return Polarity::kPositive;
  if (compound <= -0.05) return Polarity::kNegative;
  return Polarity::kNeutral;
}

Polarity overall_polarity(const VaderScore& score) {
  const double weaker = std::min(score.praise, score.criticism);
  const double stronger = std::max(score.praise, score.criticism);
  if (weaker >= kStrongSide && weaker >= kBalanced * stronger) return Polarity::kMixed;
  return polarity_of_compound(score.compound);
}

double label_confidence(const VaderScore& score, Polarity polarity) {
  const double e = evidence(score);
  const double total = score.praise + score.criticism;
  double confidence = 0;
  switch (polarity) {
    case Polarity::kPositive:
    case Polarity::kNegative: {
      const double side = polarity == Polarity::kPositive ? score.praise : score.criticism;
      const double agreement = total > 0 ? side / total : 0;
      confidence = 0.3 + 0.4 * std::fabs(score.compound) + 0.3 * e * agreement;
      break;
    }
    case Polarity::kMixed: {
      const double stronger = std::max(score.praise, score.criticism);
      const double balance = stronger > 0 ? std::min(score.praise, score.criticism) / stronger : 0;
      confidence = 0.3 + 0.4 * balance + 0.3 * e;
      break;
    }
    case Polarity::kNeutral:
      confidence = 0.9 - 0.4 * e;
      break;
  }
  return std::clamp(confidence, 0.0, 1.0);
}

}  // namespace opbase::ai
