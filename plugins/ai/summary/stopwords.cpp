#include "summary/stopwords.hpp"

#include <fstream>
#include <iterator>

namespace opbase::ai {

namespace {

std::string_view trim(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

}  // namespace

Stopwords Stopwords::parse(std::string_view list) {
  Stopwords stopwords;
  while (!list.empty()) {
    const size_t newline = list.find('\n');
    std::string_view line = list.substr(0, newline);
    list.remove_prefix(newline == std::string_view::npos ? list.size() : newline + 1);
    line = trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    std::string word(line);
    for (char& c : word) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    stopwords.words_.insert(std::move(word));
  }
  return stopwords;
}

Result<Stopwords> Stopwords::load(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Status::internal("ai summary: cannot read the stopword list " + file.string());
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad())
    return Status::internal("ai summary: cannot read the stopword list " + file.string());
  Stopwords stopwords = parse(text);
  if (stopwords.size() == 0) {
    return Status::internal("ai summary: the stopword list " + file.string() + " lists no word");
  }
  return stopwords;
}

}  // namespace opbase::ai
