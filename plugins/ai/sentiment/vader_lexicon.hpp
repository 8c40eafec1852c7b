// VaderLexicon: the VADER sentiment lexicon, 7,500 words, emoticons and slang terms, each with
// its mean valence from -4 (most negative) to +4 (most positive). Read once from
// vader_lexicon.txt (npm vader-sentiment 1.1.3: word, mean, standard deviation and the ten
// raters' scores, tab-separated) into a hash map. When a word is listed twice the later line
// wins, as in the reference implementations.
//
// Thread-safety: immutable after load(); find() is safe from any thread.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "opbase/status.hpp"

namespace opbase::ai {

class VaderLexicon {
 public:
  // INTERNAL_ERROR naming the file when it cannot be read, holds a malformed line, or is empty.
  static Result<VaderLexicon> load(const std::filesystem::path& file);

  // The valence of a lowercase word, or nullptr when the lexicon does not hold it.
  const double* find(std::string_view lowercase) const;
  bool contains(std::string_view lowercase) const { return find(lowercase) != nullptr; }
  size_t size() const { return valences_.size(); }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view key) const { return std::hash<std::string_view>{}(key); }
  };
  std::unordered_map<std::string, double, Hash, std::equal_to<>> valences_;
};

}  // namespace opbase::ai
