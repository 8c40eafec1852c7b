// Stopwords: the words the summarizer leaves out of a sentence's terms ("the", "which",
// "said"), read once from a list file of the data folder (summary_stopwords_en.txt: one word a
// line, '#' comments, blank lines skipped).
//
// Thread-safety: immutable once loaded; contains() may be called from any thread.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>

#include "opbase/status.hpp"

namespace opbase::ai {

class Stopwords {
 public:
  // INTERNAL_ERROR naming the file when it cannot be read or lists no word.
  static Result<Stopwords> load(const std::filesystem::path& file);
  // The words of a list's text (lowercased ASCII, trimmed).
  static Stopwords parse(std::string_view list);

  // `word` as WordReader gives it (lowercase ASCII).
  bool contains(std::string_view word) const { return words_.find(word) != words_.end(); }
  size_t size() const { return words_.size(); }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view word) const { return std::hash<std::string_view>{}(word); }
  };
  std::unordered_set<std::string, Hash, std::equal_to<>> words_;
};

}  // namespace opbase::ai
