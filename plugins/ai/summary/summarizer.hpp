// Summarizer: the offline provider's ai.summarize, an extractive summary. It picks the text's
// most central sentences and writes them out in their original order; it never rewrites one.
//
// How: the text is cut into sentences (text/sentences.hpp); each becomes a TF-IDF vector of its
// stemmed, stopword-free terms (term_vectors.hpp); TextRank scores how central each is
// (text_rank.hpp); a mild lead prior (x1.3 for the first sentence, x1.15 the second, fading by
// half each sentence) favours news-style openings, and sentences under 8 words are scaled down
// (a 4-word heading counts half); MMR picks sentences within the word budget without repeating
// one another (sentence_selection.hpp).
//
// Length (content_length, in words as text/words.hpp counts them):
// - Given (> 0): sentences are added until the summary reaches it; the summary passes it by at
//   most its last sentence. Only when every sentence is longer than twice the target is one cut,
//   at a word boundary after `target` words, and "…" appended.
// - Absent (or not positive): a quarter of the text's words (rounded up), at most 8 sentences,
//   at least 1 whole sentence; a text of 1 or 2 sentences is returned whole.
// Style: "bullet points" (any style naming bullets) writes "- " lines, anything else a
// paragraph (summary_text.hpp). Custom instructions cannot be followed offline: they are
// ignored, and the answer says so.
//
// Thread-safety: load once, then summarize() from any number of threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "opbase/status.hpp"
#include "summary/stopwords.hpp"

namespace opbase::ai {

struct SummaryRequest {
  std::string_view text;
  std::optional<int64_t> target_words;  // content_length
  std::string style;                    // content_style
  std::string custom_instructions;
};

struct SummaryAnswer {
  std::string summary;
  std::string style_applied;          // "paragraph" or "bullet_points"
  bool instructions_ignored = false;  // custom_instructions was not blank
  size_t sentences_in = 0;            // sentences with at least one word
  size_t sentences_out = 0;
};

class Summarizer {
 public:
  // The data file this part reads from the data folder.
  static constexpr std::string_view kStopwordFile = "summary_stopwords_en.txt";

  // INTERNAL_ERROR naming the file when the stopword list cannot be read, or when libstemmer
  // has no English stemmer.
  static Result<std::shared_ptr<const Summarizer>> load(const std::filesystem::path& data_dir);

  SummaryAnswer summarize(const SummaryRequest& request) const;

 private:
  explicit Summarizer(Stopwords stopwords) : stopwords_(std::move(stopwords)) {}
  Stopwords stopwords_;
};

}  // namespace opbase::ai
