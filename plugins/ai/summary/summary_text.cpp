#include "summary/summary_text.hpp"

#include "text/words.hpp"

namespace opbase::ai {

namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";

bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }

// The length of a list marker at the start of `sentence` (with its space), or 0.
size_t list_marker_length(std::string_view sentence) {
  for (const std::string_view bullet : {"- ", "* ", "+ ", "\xE2\x80\xA2 ", "\xE2\x80\x93 "}) {
    if (sentence.substr(0, bullet.size()) == bullet) return bullet.size();
  }
  size_t digits = 0;
  while (digits < sentence.size() && digits < 3 && is_ascii_digit(sentence[digits])) ++digits;
  const bool numbered = digits > 0 && digits + 1 < sentence.size() &&
                        (sentence[digits] == '.' || sentence[digits] == ')') &&
                        sentence[digits + 1] == ' ';
  return numbered ? digits + 2 : 0;
}

// Does the sentence end as a sentence should (. ! ? … : possibly inside quotes or brackets)?
bool has_final_punctuation(std::string_view sentence) {
  size_t at = 0;
  char32_t before_closing = 0;
  while (at < sentence.size()) {
    size_t length = 1;
    const char32_t point = decode_utf8(sentence, at, &length);
    const bool closing = point == '"' || point == '\'' || point == ')' || point == ']' ||
                         point == 0x201D || point == 0x2019 || point == 0xBB;
    if (!closing) before_closing = point;
    at += length;
  }
  switch (before_closing) {
    case '.':
    case '!':
    case '?':
    case ':':
    case ';':
    case 0x2026:  // …
    case 0x3002:  // 。
    case 0xFF01:  // ！
    case 0xFF1F:  // ？
      return true;
    default:
      return !is_word_char(before_closing);  // a symbol or emoji: leave it as it is
  }
}

}  // namespace

SummaryStyle summary_style(std::string_view requested) {
  std::string lower(requested);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower.find("bullet") != std::string::npos ? SummaryStyle::kBulletPoints
                                                   : SummaryStyle::kParagraph;
}

std::string_view style_name(SummaryStyle style) {
  return style == SummaryStyle::kBulletPoints ? "bullet_points" : "paragraph";
}

std::string clean_sentence(std::string_view sentence) {
  std::string out;
  out.reserve(sentence.size());
  bool pending_space = false;
  size_t at = 0;
  while (at < sentence.size()) {
    size_t length = 1;
    const char32_t point = decode_utf8(sentence, at, &length);
    if (is_space(point)) {
      pending_space = !out.empty();
    } else {
      if (pending_space) out.push_back(' ');
      pending_space = false;
      out.append(sentence.substr(at, length));
    }
    at += length;
  }
  return out.substr(list_marker_length(out));
}

std::string cut_sentence(std::string_view sentence, size_t words) {
  WordReader reader(sentence);
  Word word;
  size_t end = 0;
  for (size_t taken = 0; taken < words && reader.next(&word); ++taken) end = word.end;
  if (end == 0) end = sentence.size();
  std::string out(sentence.substr(0, end));
  if (end < sentence.size()) out.append(kEllipsis);
  return out;
}

std::string write_summary(const std::vector<std::string>& sentences, SummaryStyle style) {
  std::string out;
  for (const std::string& sentence : sentences) {
    if (style == SummaryStyle::kBulletPoints) {
      if (!out.empty()) out.push_back('\n');
      out.append("- ").append(sentence);
    } else {
      if (!out.empty()) out.push_back(' ');
      out.append(sentence);
      if (!has_final_punctuation(sentence)) out.push_back('.');
    }
  }
  return out;
}

}  // namespace opbase::ai
