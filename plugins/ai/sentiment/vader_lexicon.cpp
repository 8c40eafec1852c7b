#include "sentiment/vader_lexicon.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <string>
#include <system_error>

namespace opbase::ai {

namespace {

Status malformed(const std::filesystem::path& file, size_t line_number, std::string_view why) {
  return Status::internal("sentiment lexicon " + file.string() + " line " +
                          std::to_string(line_number) + ": " + std::string(why));
}

}  // namespace

Result<VaderLexicon> VaderLexicon::load(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Status::internal("cannot read the sentiment lexicon " + file.string());
  VaderLexicon lexicon;
  lexicon.valences_.reserve(8192);
  std::string line;
  size_t line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const size_t word_end = line.find('\t');
    if (word_end == 0 || word_end == std::string::npos) {
      return malformed(file, line_number, "expected a word, a tab and its valence");
    }
    const size_t value_end = std::min(line.find('\t', word_end + 1), line.size());
    double valence = 0;
    const char* first = line.data() + word_end + 1;
    const char* last = line.data() + value_end;
    const auto [end, error] = std::from_chars(first, last, valence);
    if (error != std::errc() || end != last || valence < -4 || valence > 4) {
      return malformed(file, line_number, "the valence is not a number from -4 to 4");
    }
    lexicon.valences_.insert_or_assign(line.substr(0, word_end), valence);
  }
  if (in.bad()) return Status::internal("error reading the sentiment lexicon " + file.string());
  if (lexicon.valences_.empty()) {
    return Status::internal("the sentiment lexicon " + file.string() + " holds no words");
  }
  return lexicon;
}

const double* VaderLexicon::find(std::string_view lowercase) const {
  const auto found = valences_.find(lowercase);
  return found == valences_.end() ? nullptr : &found->second;
}

}  // namespace opbase::ai
