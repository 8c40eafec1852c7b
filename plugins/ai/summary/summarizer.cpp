#include "summary/summarizer.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "summary/english_stemmer.hpp"
#include "summary/sentence_selection.hpp"
#include "summary/summary_text.hpp"
#include "summary/term_vectors.hpp"
#include "summary/text_rank.hpp"
#include "text/sentences.hpp"
#include "text/unicode_text.hpp"

namespace opbase::ai {

namespace {

constexpr double kLeadBonus = 0.3;     // the first sentence's extra weight, halved each sentence
constexpr size_t kShortSentence = 8;   // words; shorter sentences are scaled down
constexpr size_t kDefaultDivisor = 4;  // default target: a quarter of the words
constexpr size_t kDefaultMaxSentences = 8;

// The text's sentences that have at least one word, with their terms.
struct ContentSentences {
  std::vector<std::string_view> texts;
  std::vector<SentenceTerms> terms;
  size_t words = 0;
};

ContentSentences content_sentences(std::string_view text, const Stopwords& stopwords) {
  const std::vector<TextRange> ranges = split_sentences(text);
  std::vector<SentenceTerms> terms = sentence_terms(text, ranges, stopwords);
  ContentSentences content;
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (terms[i].words == 0) continue;
    content.texts.push_back(ranges[i].of(text));
    content.words += terms[i].words;
    content.terms.push_back(std::move(terms[i]));
  }
  return content;
}

// TextRank with the lead and length priors, the largest 1.
std::vector<double> relevance(const std::vector<SentenceTerms>& sentences) {
  std::vector<double> score = text_rank(sentences);
  for (size_t i = 0; i < score.size(); ++i) {
    const double lead = 1.0 + kLeadBonus * std::pow(0.5, static_cast<double>(i));
    const double length = std::min(
        1.0, static_cast<double>(sentences[i].words) / static_cast<double>(kShortSentence));
    // A sentence no other one resembles still deserves a chance through its position.
    score[i] = std::max(score[i], 0.05) * lead * length;
  }
  const double top = score.empty() ? 0.0 : *std::max_element(score.begin(), score.end());
  for (double& value : score) value = top > 0 ? value / top : 0.0;
  return score;
}

// The budget, and whether a sentence may be cut, from the request and the text's size.
struct Budget {
  SelectionBudget selection;
  bool explicit_target = false;
};

Budget budget_for(const std::optional<int64_t>& target_words, size_t words) {
  Budget budget;
  if (target_words.has_value() && *target_words > 0) {
    budget.selection.target_words = static_cast<size_t>(*target_words);
    budget.selection.max_sentences = SIZE_MAX;
    budget.explicit_target = true;
  } else {
    budget.selection.target_words =
        std::max<size_t>(1, (words + kDefaultDivisor - 1) / kDefaultDivisor);
    budget.selection.max_sentences = kDefaultMaxSentences;
  }
  return budget;
}

}  // namespace

Result<std::shared_ptr<const Summarizer>> Summarizer::load(const std::filesystem::path& data_dir) {
  if (!english_stemmer_available()) {
    return Status::internal("ai summary: libstemmer has no \"english\" stemmer (libstemmer0d)");
  }
  Result<Stopwords> stopwords = Stopwords::load(data_dir / kStopwordFile);
  if (!stopwords.is_ok()) return stopwords.status();
  return std::shared_ptr<const Summarizer>(new Summarizer(std::move(stopwords).value()));
}

SummaryAnswer Summarizer::summarize(const SummaryRequest& request) const {
  SummaryAnswer answer;
  const SummaryStyle style = summary_style(request.style);
  answer.style_applied = style_name(style);
  answer.instructions_ignored = !is_blank(request.custom_instructions);
  const ContentSentences content = content_sentences(request.text, stopwords_);
  answer.sentences_in = content.texts.size();
  if (content.texts.empty()) {  // no word at all: punctuation or emoji only
    answer.summary = clean_sentence(request.text);
    return answer;
  }
  const Budget budget = budget_for(request.target_words, content.words);
  Selection selection;
  if (!budget.explicit_target && content.texts.size() <= 2) {
    for (size_t i = 0; i < content.texts.size(); ++i) selection.chosen.push_back(i);
  } else {
    selection =
        select_sentences(content.terms, relevance(content.terms), content.texts, budget.selection);
  }
  std::vector<std::string> sentences;
  for (const size_t i : selection.chosen) {
    std::string sentence = clean_sentence(content.texts[i]);
    if (selection.cut && budget.explicit_target) {
      sentence = cut_sentence(sentence, budget.selection.target_words);
    }
    sentences.push_back(std::move(sentence));
  }
  answer.sentences_out = sentences.size();
  answer.summary = write_summary(sentences, style);
  return answer;
}

}  // namespace opbase::ai
