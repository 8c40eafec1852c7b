#include "sentiment/emotion_lexicon.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "sentiment/vader_rules.hpp"
#include "sentiment/word_forms.hpp"

namespace opbase::ai {

namespace {

std::optional<size_t> emotion_index(std::string_view name) {
  const auto found = std::find(kEmotionNames.begin(), kEmotionNames.end(), name);
  if (found == kEmotionNames.end()) return std::nullopt;
  return static_cast<size_t>(found - kEmotionNames.begin());
}

std::string_view trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

// One of the three words before word i negates it.
bool negated(const std::vector<VaderWord>& words, size_t i) {
  for (size_t back = 1; back <= 3 && back <= i; ++back) {
    if (is_negation(words[i - back].lower)) return true;
  }
  return false;
}

}  // namespace

Result<EmotionLexicon> EmotionLexicon::load(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Status::internal("cannot read the emotion lexicon " + file.string());
  EmotionLexicon lexicon;
  std::array<size_t, kEmotionCount> words_per_emotion{};
  std::string line;
  size_t line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    const std::string_view content = trim(line);
    if (content.empty() || content.front() == '#') continue;
    const size_t colon = content.find(':');
    const auto emotion = emotion_index(trim(content.substr(0, std::min(colon, content.size()))));
    if (colon == std::string_view::npos || !emotion) {
      return Status::internal("emotion lexicon " + file.string() + " line " +
                              std::to_string(line_number) +
                              ": expected \"<emotion>: words\" with one of joy, trust, fear, "
                              "surprise, sadness, disgust, anger, anticipation");
    }
    std::istringstream words{std::string(content.substr(colon + 1))};
    std::string word;
    while (words >> word) {
      lexicon.emotions_[word] |= static_cast<uint8_t>(1u << *emotion);
      ++words_per_emotion[*emotion];
    }
  }
  if (in.bad()) return Status::internal("error reading the emotion lexicon " + file.string());
  for (size_t e = 0; e < kEmotionCount; ++e) {
    if (words_per_emotion[e] == 0) {
      return Status::internal("emotion lexicon " + file.string() + " has no words for " +
                              std::string(kEmotionNames[e]));
    }
  }
  return lexicon;
}

uint8_t EmotionLexicon::emotions_of(std::string_view lowercase) const {
  const auto found = emotions_.find(lowercase);
  if (found != emotions_.end()) return found->second;
  const std::string single = singular(lowercase);
  if (single == lowercase) return 0;
  const auto singular_found = emotions_.find(single);
  return singular_found == emotions_.end() ? 0 : singular_found->second;
}

EmotionScores EmotionLexicon::score(const VaderText& text) const {
  std::array<int, kEmotionCount> counts{};
  int matched = 0;
  for (size_t i = 0; i < text.words.size(); ++i) {
    const uint8_t emotions = emotions_of(bare_word(text.words[i].lower));
    if (emotions == 0 || negated(text.words, i)) continue;
    ++matched;
    for (size_t e = 0; e < kEmotionCount; ++e) {
      if (emotions & (1u << e)) ++counts[e];
    }
  }
  EmotionScores scores{};
  if (matched == 0) return scores;
  for (size_t e = 0; e < kEmotionCount; ++e) {
    scores[e] = static_cast<double>(counts[e]) / matched;
  }
  return scores;
}

}  // namespace opbase::ai
