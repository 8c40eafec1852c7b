#include "sentiment/tone_description.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sentiment/vader_rules.hpp"

namespace opbase::ai {

namespace {

std::string strength(double compound) {
  const double size = std::fabs(compound);
  if (size >= 0.75) return "Strongly";
  if (size >= 0.45) return "Clearly";
  if (size >= 0.2) return "Moderately";
  return "Slightly";
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

// The emotions with a score, strongest first (Plutchik's order among equals).
std::vector<size_t> ranked_emotions(const EmotionScores& emotions) {
  std::vector<size_t> ranked;
  for (size_t e = 0; e < kEmotionCount; ++e) {
    if (emotions[e] > 0) ranked.push_back(e);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](size_t a, size_t b) { return emotions[a] > emotions[b]; });
  return ranked;
}

std::string emotion_adjective(size_t emotion, double compound) {
  static constexpr std::string_view kAdjectives[kEmotionCount] = {
      "cheerful", "appreciative", "anxious", "surprised", "sad", "disgusted", "angry", "expectant"};
  if (emotion == 0 && std::fabs(compound) >= 0.75) return "enthusiastic";
  return std::string(kAdjectives[emotion]);
}

// ", with emphatic punctuation and ALL-CAPS emphasis", or nothing.
std::string emphasis(const ToneFacts& facts) {
  const bool exclaims = facts.text.find('!') != std::string_view::npos;
  bool shouts = false;
  if (facts.words->cap_differential) {
    for (size_t i = 0; i < facts.words->words.size() && !shouts; ++i) {
      const VaderWord& word = facts.words->words[i];
      const bool charged = facts.score->valences[i] != 0 || booster_value(word.lower);
      shouts = charged && is_all_caps(word.text);
    }
  }
  if (exclaims && shouts) return ", with emphatic punctuation and ALL-CAPS emphasis";
  if (exclaims) return ", with emphatic punctuation";
  if (shouts) return ", with ALL-CAPS emphasis";
  return "";
}

std::string core_sentence(const ToneFacts& facts, bool with_detail) {
  const double compound = facts.score->compound;
  const std::vector<size_t> emotions = ranked_emotions(*facts.emotions);
  switch (facts.polarity) {
    case Polarity::kPositive:
    case Polarity::kNegative: {
      std::string sentence = strength(compound) + " " + std::string(polarity_name(facts.polarity));
      if (with_detail && !emotions.empty()) {
        sentence += " and " + emotion_adjective(emotions.front(), compound);
      }
      return sentence + " tone" + (with_detail ? emphasis(facts) : "") + ".";
    }
    case Polarity::kMixed: {
      std::string sentence =
          with_detail ? "Mixed tone that both praises and criticises" : "Mixed tone";
      if (compound >= 0.05) sentence += ", leaning positive";
      if (compound <= -0.05) sentence += ", leaning negative";
      return sentence + (with_detail ? emphasis(facts) : "") + ".";
    }
    case Polarity::kNeutral:
      break;
  }
  if (!with_detail) return facts.score->hits == 0 ? "Neutral, factual tone." : "Neutral tone.";
  if (facts.score->hits == 0) return "Neutral, factual tone with no emotionally charged wording.";
  return "Neutral tone: its positive and negative wording roughly cancel out.";
}

std::string word_counts(const VaderScore& score) {
  int positive = 0;
  int negative = 0;
  for (const double valence : score.valences) {
    if (valence > 0) ++positive;
    if (valence < 0) ++negative;
  }
  return " It uses " + std::to_string(positive) + " positive and " + std::to_string(negative) +
         " negative sentiment word" + (positive + negative == 1 ? "" : "s") + " (compound score " +
         number(score.compound) + ").";
}

std::string emotion_summary(const EmotionScores& emotions) {
  const std::vector<size_t> ranked = ranked_emotions(emotions);
  if (ranked.empty()) return " No emotion words stand out.";
  std::string summary = " Strongest emotions: ";
  for (size_t k = 0; k < ranked.size() && k < 3; ++k) {
    if (k > 0) summary += ", ";
    summary += std::string(kEmotionNames[ranked[k]]) + " (" + number(emotions[ranked[k]]) + ")";
  }
  return summary + ".";
}

std::string aspect_summary(const std::vector<AspectSentiment>& aspects) {
  if (aspects.empty()) return "";
  std::string summary = " Aspects: ";
  for (size_t k = 0; k < aspects.size(); ++k) {
    if (k > 0) summary += ", ";
    const AspectSentiment& aspect = aspects[k];
    summary += aspect.aspect + " ";
    if (aspect.sentiment == "not_mentioned") {
      summary += "not mentioned";
    } else {
      summary += aspect.sentiment + " (" + number(aspect.score) + ")";
    }
  }
  return summary + ".";
}

}  // namespace

std::string describe_tone(const ToneFacts& facts, AnalysisDepth depth) {
  if (depth == AnalysisDepth::kBrief) return core_sentence(facts, false);
  std::string tone = core_sentence(facts, true);
  if (depth == AnalysisDepth::kStandard) return tone;
  return tone + word_counts(*facts.score) + emotion_summary(*facts.emotions) +
         aspect_summary(*facts.aspects);
}

}  // namespace opbase::ai
