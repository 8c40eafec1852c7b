#include "extract/word_lists.hpp"

#include <fstream>

#include "extract/utf8.hpp"

namespace opbase::ai::extract {

namespace {

// Each line, folded, into `out`; false when the file cannot be read.
bool read_first_fields(const std::filesystem::path& path, std::unordered_set<std::string>* out) {
  std::ifstream in(path);
  if (!in) return false;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out->insert(fold_key(line));
  }
  return true;
}

}  // namespace

Result<WordLists> WordLists::load(const std::filesystem::path& first_names_txt,
                                  const std::filesystem::path& common_words_txt) {
  WordLists lists;
  for (const auto& [path, set] : {std::pair{&first_names_txt, &lists.first_names_},
                                  std::pair{&common_words_txt, &lists.common_words_}}) {
    if (!read_first_fields(*path, set) || set->size() < 1000) {
      return Status::internal("ai.extract: cannot read enough words from " + path->string());
    }
  }
  return lists;
}

}  // namespace opbase::ai::extract
