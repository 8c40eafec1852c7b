// The tone sentence of ai.sentiment (output.tone_analysis), built from the scores alone:
//   brief:    the label and its strength ("Strongly positive tone.");
//   standard: adds the leading emotion and any emphasis ("Strongly positive and enthusiastic
//             tone, with emphatic punctuation.");
//   detailed: adds the counts of positive and negative words with the compound, the strongest
//             emotions and each aspect's result.
// Strength from |compound|: >= 0.75 strongly, >= 0.45 clearly, >= 0.2 moderately, else slightly.
//
// Thread-safety: a pure function; safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sentiment/analysis_depth.hpp"
#include "sentiment/aspect_sentiment.hpp"
#include "sentiment/emotion_lexicon.hpp"
#include "sentiment/sentiment_label.hpp"
#include "sentiment/vader_scorer.hpp"
#include "sentiment/vader_text.hpp"

namespace opbase::ai {

struct ToneFacts {
  Polarity polarity = Polarity::kNeutral;
  const VaderScore* score = nullptr;
  const VaderText* words = nullptr;
  const EmotionScores* emotions = nullptr;
  const std::vector<AspectSentiment>* aspects = nullptr;
  std::string_view text;
};

std::string describe_tone(const ToneFacts& facts, AnalysisDepth depth);

}  // namespace opbase::ai
