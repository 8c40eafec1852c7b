#include "summary/english_stemmer.hpp"

#include <libstemmer.h>

#include <memory>

namespace opbase::ai {

namespace {

struct StemmerDeleter {
  void operator()(sb_stemmer* stemmer) const { sb_stemmer_delete(stemmer); }
};
using StemmerPtr = std::unique_ptr<sb_stemmer, StemmerDeleter>;

StemmerPtr new_english_stemmer() { return StemmerPtr(sb_stemmer_new("english", "UTF_8")); }

sb_stemmer* this_threads_stemmer() {
  thread_local const StemmerPtr stemmer = new_english_stemmer();
  return stemmer.get();
}

}  // namespace

bool english_stemmer_available() { return new_english_stemmer() != nullptr; }

std::string_view stem_english(std::string_view word) {
  sb_stemmer* stemmer = this_threads_stemmer();
  if (stemmer == nullptr || word.empty()) return word;
  const auto* input = reinterpret_cast<const sb_symbol*>(word.data());
  const sb_symbol* stem = sb_stemmer_stem(stemmer, input, static_cast<int>(word.size()));
  if (stem == nullptr) return word;  // out of memory
  return {reinterpret_cast<const char*>(stem), static_cast<size_t>(sb_stemmer_length(stemmer))};
}

}  // namespace opbase::ai
