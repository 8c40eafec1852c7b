#include "translate/languages.hpp"

namespace opbase::ai {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool same_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

}  // namespace

const std::vector<Language>& supported_languages() {
  static const std::vector<Language> kLanguages = {
      {"Spanish", "es"}, {"French", "fr"},     {"German", "de"},  {"Japanese", "ja"},
      {"Chinese", "zh"}, {"Portuguese", "pt"}, {"Italian", "it"}, {"Russian", "ru"},
  };
  return kLanguages;
}

std::vector<std::string> supported_language_names() {
  std::vector<std::string> names;
  for (const Language& language : supported_languages()) names.push_back(language.name);
  return names;
}

std::optional<Language> language_from(std::string_view name_or_code) {
  const std::string_view wanted = trimmed(name_or_code);
  for (const Language& language : supported_languages()) {
    if (same_ignoring_case(wanted, language.name) || same_ignoring_case(wanted, language.code)) {
      return language;
    }
  }
  return std::nullopt;
}

}  // namespace opbase::ai
