#include "sentiment/sentiment_analyzer.hpp"

#include <cmath>

#include "sentiment/analysis_depth.hpp"
#include "sentiment/aspect_sentiment.hpp"
#include "sentiment/clauses.hpp"
#include "sentiment/key_phrases.hpp"
#include "sentiment/sentiment_label.hpp"
#include "sentiment/tone_description.hpp"
#include "sentiment/vader_scorer.hpp"
#include "sentiment/vader_text.hpp"

namespace opbase::ai {

namespace {

double rounded(double value, double scale) {
  const double result = std::round(value * scale) / scale;
  return result == 0 ? 0.0 : result;  // no "-0" in the output
}

nlohmann::json emotions_json(const EmotionScores& emotions) {
  nlohmann::json object = nlohmann::json::object();
  for (size_t e = 0; e < kEmotionCount; ++e) {
    object[std::string(kEmotionNames[e])] = rounded(emotions[e], 1e3);
  }
  return object;
}

nlohmann::json aspects_json(const std::vector<AspectSentiment>& aspects) {
  nlohmann::json object = nlohmann::json::object();
  for (const AspectSentiment& aspect : aspects) {
    object[aspect.aspect] = {{"sentiment", aspect.sentiment},
                             {"score", rounded(aspect.score, 1e4)}};
  }
  return object;
}

}  // namespace

Result<std::shared_ptr<const SentimentAnalyzer>> SentimentAnalyzer::load(
    const std::filesystem::path& data_dir) {
  auto vader = VaderLexicon::load(data_dir / "vader_lexicon.txt");
  if (!vader) return vader.status();
  auto emotions = EmotionLexicon::load(data_dir / "emotions.txt");
  if (!emotions) return emotions.status();
  return std::shared_ptr<const SentimentAnalyzer>(
      new SentimentAnalyzer(*std::move(vader), *std::move(emotions)));
}

SentimentAnswer SentimentAnalyzer::analyze(const SentimentRequest& request) const {
  const std::string_view text = request.text;
  const AnalysisDepth depth = analysis_depth(request.depth);
  const VaderText words = split_vader_text(text);
  const VaderScore score = vader_score(vader_, words, text);
  const Polarity polarity = overall_polarity(score);
  const EmotionScores emotions = emotions_.score(words);
  const std::vector<AspectSentiment> aspects = aspect_sentiments(
      vader_, text, words, split_clauses(text, words.raw, Granularity::kClauses), request.aspects);
  const std::vector<TokenSpan> fragments = split_clauses(text, words.raw, Granularity::kFragments);
  const ToneFacts facts{polarity, &score, &words, &emotions, &aspects, text};

  SentimentAnswer answer;
  answer.output = {
      {"overall_sentiment", polarity_name(polarity)},
      {"sentiment_score", rounded(score.compound, 1e4)},
      {"emotional_indicators", emotions_json(emotions)},
      {"aspect_sentiments", aspects_json(aspects)},
      {"key_phrases", key_phrases(text, words, score, fragments, key_phrase_limit(depth))},
      {"tone_analysis", describe_tone(facts, depth)},
  };
  answer.confidence = rounded(label_confidence(score, polarity), 1e3);
  return answer;
}

}  // namespace opbase::ai
