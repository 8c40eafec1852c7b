// SentimentAnalyzer: the offline provider's ai.sentiment (docs/api.md#ai-answers). VADER
// (vader_scorer.hpp) over its lexicon gives the score and the label (sentiment_label.hpp); a
// hand-written emotion lexicon the emotional indicators (emotion_lexicon.hpp); VADER over the
// clauses around each mention the aspect sentiments (aspect_sentiment.hpp); the strongest sentiment
// words the key phrases (key_phrases.hpp); the scores the tone sentence (tone_description.hpp).
//
// output, exactly the spec's fields:
//   overall_sentiment     "positive", "negative", "neutral" or "mixed" (sentiment_label.hpp)
//   sentiment_score       VADER's compound, in [-1, 1], 4 decimals
//   emotional_indicators  {joy, trust, fear, surprise, sadness, disgust, anger, anticipation}
//                         each in [0, 1], 3 decimals; all 0 when no emotion word matches
//   aspect_sentiments     {aspect: {sentiment, score}} for each requested aspect; an aspect the
//                         text never names is {"sentiment": "not_mentioned", "score": 0}
//   key_phrases           at most 3 (brief), 5 (standard) or 10 (detailed), strongest first
//   tone_analysis         one sentence (brief, standard) or a few (detailed)
// confidence: how sure the label is (sentiment_label.hpp), 3 decimals.
// The depth changes only the amount of detail, never a score or a label.
//
// Thread-safety: load() once; the analyzer is immutable and analyze() is safe from any thread.
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"
#include "sentiment/emotion_lexicon.hpp"
#include "sentiment/vader_lexicon.hpp"

namespace opbase::ai {

struct SentimentRequest {
  std::string_view text;
  std::string depth = "standard";    // brief, standard or detailed
  std::vector<std::string> aspects;  // trimmed, non-empty
};

struct SentimentAnswer {
  nlohmann::json output;
  double confidence = 0;  // in [0, 1]; becomes meta.analysis_confidence
};

class SentimentAnalyzer {
 public:
  // Reads vader_lexicon.txt and emotions.txt from the AI data folder; INTERNAL_ERROR naming the
  // file when either is missing or malformed.
  static Result<std::shared_ptr<const SentimentAnalyzer>> load(
      const std::filesystem::path& data_dir);

  SentimentAnswer analyze(const SentimentRequest& request) const;

 private:
  SentimentAnalyzer(VaderLexicon vader, EmotionLexicon emotions)
      : vader_(std::move(vader)), emotions_(std::move(emotions)) {}

  const VaderLexicon vader_;
  const EmotionLexicon emotions_;
};

}  // namespace opbase::ai
