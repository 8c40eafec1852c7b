#include "extract/email_scanner.hpp"

#include <string>

#include "extract/utf8.hpp"

namespace opbase::ai::extract {

namespace {

constexpr double kConfidence = 0.99;

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool is_local_char(char c) {
  return is_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
}

// The local part's first byte, reading left from the '@'; `at` when there is none. It may not
// start or end with a dot.
size_t local_begin(std::string_view text, size_t at) {
  size_t begin = at;
  while (begin > 0 && is_local_char(text[begin - 1])) --begin;
  while (begin < at && text[begin] == '.') ++begin;
  if (begin == at || text[at - 1] == '.') return at;
  return begin;
}

// The domain's end, reading right from the '@': labels of letters, digits and inner hyphens
// joined by dots, at least two labels, the last one (the TLD) two or more letters. `from` when
// there is none.
size_t domain_end(std::string_view text, size_t from) {
  size_t at = from;
  size_t end = from;
  int labels = 0;
  while (at < text.size()) {
    const size_t label_begin = at;
    while (at < text.size() && (is_alnum(text[at]) || text[at] == '-')) ++at;
    if (at == label_begin || text[label_begin] == '-' || text[at - 1] == '-') break;
    ++labels;
    bool letters_only = at - label_begin >= 2;
    for (size_t i = label_begin; i < at; ++i) letters_only = letters_only && !is_digit(text[i]);
    if (labels >= 2 && letters_only) end = at;
    if (at + 1 >= text.size() || text[at] != '.' || !is_alnum(text[at + 1])) break;
    ++at;
  }
  return end;
}

}  // namespace

std::vector<FoundEntity> scan_emails(std::string_view text) {
  std::vector<FoundEntity> found;
  size_t resume = 0;
  for (size_t at = text.find('@'); at != std::string_view::npos; at = text.find('@', at + 1)) {
    if (at < resume) continue;
    const size_t begin = local_begin(text, at);
    const size_t end = domain_end(text, at + 1);
    if (begin == at || end == at + 1 || begin < resume) continue;
    FoundEntity email;
    email.type = EntityType::kEmail;
    email.begin = begin;
    email.end = end;
    email.confidence = kConfidence;
    const std::string value = ascii_lower(text.substr(begin, end - begin));
    email.fields["value"] = value;
    email.fields["domain"] = value.substr(at - begin + 1);
    found.push_back(std::move(email));
    resume = end;
  }
  return found;
}

}  // namespace opbase::ai::extract
