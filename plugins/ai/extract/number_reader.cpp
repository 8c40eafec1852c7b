#include "extract/number_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace opbase::ai::extract {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// The digits of `raw` (digits and separators) read with `decimal` as the decimal separator
// and the other one ignored as a thousands separator.
double value_of(std::string_view raw, char decimal) {
  std::string plain;
  for (const char c : raw) {
    if (digit(c)) plain.push_back(c);
    if (c == decimal) plain.push_back('.');
  }
  return std::strtod(plain.c_str(), nullptr);
}

// True when every group after the first separator `sep` holds exactly three digits.
bool thousands_groups(std::string_view raw, char sep) {
  size_t at = raw.find(sep);
  if (at == std::string_view::npos || at == 0 || at > 3) return false;
  while (at != std::string_view::npos) {
    const size_t next = raw.find(sep, at + 1);
    const size_t group_end = next == std::string_view::npos ? raw.size() : next;
    if (group_end - at - 1 != 3) return false;
    at = next;
  }
  return true;
}

}  // namespace

std::optional<ReadNumber> read_digits(std::string_view text, size_t at, size_t max_digits) {
  size_t end = at;
  while (end < text.size() && digit(text[end]) && end - at < max_digits) ++end;
  if (end == at || (end < text.size() && digit(text[end]))) return std::nullopt;
  return ReadNumber{std::strtod(std::string(text.substr(at, end - at)).c_str(), nullptr), end};
}

std::optional<ReadNumber> read_number(std::string_view text, size_t at) {
  if (at >= text.size() || !digit(text[at])) return std::nullopt;
  size_t end = at;
  while (end < text.size()) {
    if (digit(text[end])) {
      ++end;
    } else if ((text[end] == ',' || text[end] == '.') && end + 1 < text.size() &&
               digit(text[end + 1])) {
      ++end;
    } else {
      break;
    }
  }
  const std::string_view raw = text.substr(at, end - at);
  const size_t commas = std::count(raw.begin(), raw.end(), ',');
  const size_t dots = std::count(raw.begin(), raw.end(), '.');
  if (commas > 0 && dots > 0) {
    const char decimal = raw.rfind(',') > raw.rfind('.') ? ',' : '.';
    return ReadNumber{value_of(raw, decimal), end};
  }
  if (commas > 0) {
    if (thousands_groups(raw, ',')) return ReadNumber{value_of(raw, '.'), end};
    if (commas == 1 && raw.size() - raw.find(',') <= 3) return ReadNumber{value_of(raw, ','), end};
    return read_digits(text, at, raw.find(','));
  }
  if (dots > 1) {
    if (thousands_groups(raw, '.')) return ReadNumber{value_of(raw, ','), end};
    return read_digits(text, at, raw.find('.'));
  }
  return ReadNumber{value_of(raw, '.'), end};
}

nlohmann::json json_number(double value) {
  const double cents = std::round(value * 100.0) / 100.0;
  if (std::fabs(cents) < 9e15 && cents == std::floor(cents)) {
    return static_cast<int64_t>(cents);
  }
  return cents;
}

}  // namespace opbase::ai::extract
