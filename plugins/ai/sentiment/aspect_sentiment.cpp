#include "sentiment/aspect_sentiment.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "sentiment/vader_scorer.hpp"
#include "sentiment/word_forms.hpp"

namespace opbase::ai {

namespace {

using Terms = std::vector<std::vector<std::string>>;  // per aspect: its words, singular

// Each raw token's comparable form: bare, singular.
std::vector<std::string> token_forms(std::string_view text, const std::vector<RawToken>& raw) {
  std::vector<std::string> forms;
  forms.reserve(raw.size());
  for (const RawToken& token : raw) {
    forms.push_back(singular(bare_word(text.substr(token.begin, token.end - token.begin))));
  }
  return forms;
}

std::vector<std::string> term_words(std::string_view aspect) {
  std::vector<std::string> words;
  size_t at = 0;
  while (at < aspect.size()) {
    const size_t end = std::min(aspect.find_first_of(" \t\n\r", at), aspect.size());
    std::string word = singular(bare_word(aspect.substr(at, end - at)));
    if (!word.empty()) words.push_back(std::move(word));
    at = end + 1;
  }
  return words;
}

bool mentions_at(const std::vector<std::string>& forms, size_t at,
                 const std::vector<std::string>& term) {
  if (term.empty() || at + term.size() > forms.size()) return false;
  for (size_t k = 0; k < term.size(); ++k) {
    if (forms[at + k] != term[k]) return false;
  }
  return true;
}

bool mentions(const std::vector<std::string>& forms, TokenSpan span,
              const std::vector<std::string>& term) {
  for (size_t at = span.first; at < span.last; ++at) {
    if (at + term.size() <= span.last && mentions_at(forms, at, term)) return true;
  }
  return false;
}

bool mentions_other(const std::vector<std::string>& forms, TokenSpan span, const Terms& terms,
                    size_t aspect) {
  for (size_t other = 0; other < terms.size(); ++other) {
    if (terms[other] != terms[aspect] && mentions(forms, span, terms[other])) return true;
  }
  return false;
}

// Scores spans of the text, counting only those with sentiment words.
class WindowScores {
 public:
  WindowScores(const VaderLexicon& lexicon, std::string_view text, const VaderText& words)
      : lexicon_(lexicon), text_(text), words_(words) {}

  // The span's compound, or nothing when it holds no sentiment word.
  std::optional<double> score(TokenSpan span) const {
    const VaderScore scored = vader_score(lexicon_, span_text(text_, words_.raw, span));
    if (scored.hits == 0) return std::nullopt;
    return scored.compound;
  }

 private:
  const VaderLexicon& lexicon_;
  std::string_view text_;
  const VaderText& words_;
};

// The windows that speak of aspect `a` within clause `c` (see the header).
std::vector<TokenSpan> windows_in_clause(std::string_view text, const VaderText& words,
                                         const std::vector<std::string>& forms,
                                         const std::vector<TokenSpan>& clauses, size_t c,
                                         const Terms& terms, size_t a, const WindowScores& scores) {
  const TokenSpan clause = clauses[c];
  if (mentions_other(forms, clause, terms, a)) {
    std::vector<TokenSpan> parts;
    for (const TokenSpan part : split_coordination(text, words.raw, clause)) {
      if (mentions(forms, part, terms[a]) && scores.score(part)) parts.push_back(part);
    }
    if (!parts.empty()) return parts;
    return {clause};
  }
  const bool borrow = !scores.score(clause) && c + 1 < clauses.size() &&
                      !mentions_other(forms, clauses[c + 1], terms, a) &&
                      !mentions(forms, clauses[c + 1], terms[a]);
  if (borrow) return {{clause.first, clauses[c + 1].last}};
  return {clause};
}

AspectSentiment judge(std::string aspect, bool mentioned, double sum, int counted) {
  if (!mentioned) return {std::move(aspect), "not_mentioned", 0};
  const double score = counted == 0 ? 0 : sum / counted;
  const char* label = score >= 0.05 ? "positive" : score <= -0.05 ? "negative" : "neutral";
  return {std::move(aspect), label, score};
}

}  // namespace

std::vector<AspectSentiment> aspect_sentiments(const VaderLexicon& lexicon, std::string_view text,
                                               const VaderText& words,
                                               const std::vector<TokenSpan>& clauses,
                                               const std::vector<std::string>& aspects) {
  const std::vector<std::string> forms = token_forms(text, words.raw);
  Terms terms;
  for (const std::string& aspect : aspects) terms.push_back(term_words(aspect));
  const WindowScores scores(lexicon, text, words);
  std::vector<AspectSentiment> results;
  for (size_t a = 0; a < aspects.size(); ++a) {
    bool mentioned = false;
    std::set<std::pair<size_t, size_t>> seen;  // a window counts once however often it names it
    double sum = 0;
    int counted = 0;
    for (size_t c = 0; c < clauses.size(); ++c) {
      if (!mentions(forms, clauses[c], terms[a])) continue;
      mentioned = true;
      for (const TokenSpan window :
           windows_in_clause(text, words, forms, clauses, c, terms, a, scores)) {
        if (!seen.emplace(window.first, window.last).second) continue;
        if (const auto compound = scores.score(window)) {
          sum += *compound;
          ++counted;
        }
      }
    }
    results.push_back(judge(aspects[a], mentioned, sum, counted));
  }
  return results;
}

}  // namespace opbase::ai
