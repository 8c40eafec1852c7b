// EmotionLexicon: the hand-written emotion word lists (data/emotions.txt, installed into the AI
// data folder) for Plutchik's eight basic emotions, and the scores a text gets from them.
// A word counts for every emotion it is listed under, unless one of the three words before it
// negates it ("not afraid"), by VADER's negation rule; plurals match their singular. An emotion's
// score is the share of the text's emotion words that signal it: in [0, 1]; all 0 when no word
// matches.
//
// Thread-safety: immutable after load(); score() is safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "opbase/status.hpp"
#include "sentiment/vader_text.hpp"

namespace opbase::ai {

inline constexpr size_t kEmotionCount = 8;

// The emotions, in Plutchik's order; the names are the output's keys.
inline constexpr std::array<std::string_view, kEmotionCount> kEmotionNames = {
    "joy", "trust", "fear", "surprise", "sadness", "disgust", "anger", "anticipation"};

using EmotionScores = std::array<double, kEmotionCount>;

class EmotionLexicon {
 public:
  // INTERNAL_ERROR naming the file when it cannot be read, names an unknown emotion, or leaves an
  // emotion without words.
  static Result<EmotionLexicon> load(const std::filesystem::path& file);

  EmotionScores score(const VaderText& text) const;

  // The emotions a lowercase word signals, one bit per kEmotionNames entry; 0 when none.
  uint8_t emotions_of(std::string_view lowercase) const;
  size_t size() const { return emotions_.size(); }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view key) const { return std::hash<std::string_view>{}(key); }
  };
  std::unordered_map<std::string, uint8_t, Hash, std::equal_to<>> emotions_;
};

}  // namespace opbase::ai
