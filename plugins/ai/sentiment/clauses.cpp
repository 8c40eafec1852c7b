#include "sentiment/clauses.hpp"

#include <unordered_set>
#include <utility>

#include "sentiment/word_forms.hpp"

namespace opbase::ai {

namespace {

std::string_view token_text(std::string_view text, const RawToken& token) {
  return text.substr(token.begin, token.end - token.begin);
}

// The token's last character that is not a closing quote or bracket.
char closing_mark(std::string_view token) {
  while (!token.empty() && (token.back() == '"' || token.back() == '\'' || token.back() == ')' ||
                            token.back() == ']')) {
    token.remove_suffix(1);
  }
  return token.empty() ? '\0' : token.back();
}

bool is_contrast(const std::string& word) {
  static const std::unordered_set<std::string> words = {"but", "however", "although", "though",
                                                        "yet", "whereas", "while",    "except"};
  return words.count(word) > 0;
}

bool is_coordination(const std::string& word) {
  return word == "and" || word == "or" || word == "plus" || word == "with";
}

bool is_dash(std::string_view token) {
  return token == "-" || token == "--" || token == "\xE2\x80\x94" || token == "\xE2\x80\x93";
}

bool line_break_between(std::string_view text, const RawToken& before, const RawToken& after) {
  return text.substr(before.end, after.begin - before.end).find('\n') != std::string_view::npos;
}

// Collects spans, skipping separators: a span is closed before a token that starts a new one.
class SpanBuilder {
 public:
  void add(size_t token) {
    if (!open_) first_ = token;
    open_ = true;
    last_ = token + 1;
  }
  void close() {
    if (open_) spans_.push_back({first_, last_});
    open_ = false;
  }
  std::vector<TokenSpan> finish() {
    close();
    return std::move(spans_);
  }

 private:
  std::vector<TokenSpan> spans_;
  bool open_ = false;
  size_t first_ = 0;
  size_t last_ = 0;
};

}  // namespace

std::vector<TokenSpan> split_clauses(std::string_view text, const std::vector<RawToken>& raw,
                                     Granularity granularity) {
  const bool fragments = granularity == Granularity::kFragments;
  SpanBuilder spans;
  for (size_t i = 0; i < raw.size(); ++i) {
    const std::string_view token = token_text(text, raw[i]);
    if (i > 0 && line_break_between(text, raw[i - 1], raw[i])) spans.close();
    if (is_contrast(bare_word(token)) || (fragments && is_dash(token))) {
      spans.close();
      continue;
    }
    spans.add(i);
    const char mark = closing_mark(token);
    const bool ends = mark == '.' || mark == '!' || mark == '?' || mark == ';' || mark == ':';
    if (ends || (fragments && mark == ',')) spans.close();
  }
  return spans.finish();
}

std::vector<TokenSpan> split_coordination(std::string_view text, const std::vector<RawToken>& raw,
                                          TokenSpan clause) {
  SpanBuilder spans;
  for (size_t i = clause.first; i < clause.last; ++i) {
    const std::string_view token = token_text(text, raw[i]);
    if (is_coordination(bare_word(token))) {
      spans.close();
      continue;
    }
    spans.add(i);
    if (closing_mark(token) == ',') spans.close();
  }
  return spans.finish();
}

std::string_view span_text(std::string_view text, const std::vector<RawToken>& raw,
                           TokenSpan span) {
  return text.substr(raw[span.first].begin, raw[span.last - 1].end - raw[span.first].begin);
}

}  // namespace opbase::ai
