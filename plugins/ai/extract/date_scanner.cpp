#include "extract/date_scanner.hpp"

#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include "extract/number_reader.hpp"
#include "extract/utf8.hpp"

namespace opbase::ai::extract {

namespace {

constexpr double kIsoConfidence = 0.97;
constexpr double kWrittenConfidence = 0.95;
constexpr double kNumericConfidence = 0.85;  // the day/month order may be a guess
constexpr double kPartialConfidence = 0.8;
constexpr double kRelativeConfidence = 0.85;
constexpr double kWeekdayConfidence = 0.75;

using Named = std::pair<std::string_view, int>;

constexpr std::array<Named, 24> kMonths = {{
    {"January", 1},   {"February", 2},  {"March", 3},  {"April", 4},     {"May", 5},
    {"June", 6},      {"July", 7},      {"August", 8}, {"September", 9}, {"October", 10},
    {"November", 11}, {"December", 12}, {"Jan", 1},    {"Feb", 2},       {"Mar", 3},
    {"Apr", 4},       {"Jun", 6},       {"Jul", 7},    {"Aug", 8},       {"Sep", 9},
    {"Sept", 9},      {"Oct", 10},      {"Nov", 11},   {"Dec", 12},
}};

constexpr std::array<std::string_view, 7> kWeekdays = {
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};

constexpr std::array<std::string_view, 4> kRelativeWords = {"today", "tomorrow", "yesterday",
                                                            "tonight"};
constexpr std::array<std::string_view, 4> kModifiers = {"next", "last", "this", "coming"};
constexpr std::array<std::string_view, 4> kPeriods = {"week", "month", "year", "weekend"};

struct Span {
  size_t end = 0;
  std::optional<std::string> value;  // "YYYY-MM-DD"
  std::string_view kind;
  double confidence = 0;
};

bool ascii_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool digit(char c) { return c >= '0' && c <= '9'; }

bool word_char_at(std::string_view text, size_t at) {
  return at < text.size() && (is_letter(decode_at(text, at).point) || digit(text[at]));
}

// The ASCII letters from `at`, if they make a whole word.
std::string_view alpha_word(std::string_view text, size_t at) {
  size_t end = at;
  while (end < text.size() && ascii_alpha(text[end])) ++end;
  if (word_char_at(text, end)) return {};
  return text.substr(at, end - at);
}

size_t skip_blanks(std::string_view text, size_t at) {
  while (at < text.size() && text[at] == ' ') ++at;
  return at;
}

bool leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

bool valid(int year, int month, int day) {
  static constexpr std::array<int, 12> kDays = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1 || day > kDays[month - 1]) return false;
  return !(month == 2 && day == 29 && !leap(year));
}

std::string iso(int year, int month, int day) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02d", year, month, day);
  return buffer;
}

// A month name at `at`, capitalised, with an optional '.' after an abbreviation.
std::optional<std::pair<int, size_t>> month_at(std::string_view text, size_t at) {
  const std::string_view word = alpha_word(text, at);
  if (word.empty()) return std::nullopt;
  for (const auto& [name, number] : kMonths) {
    if (word != name) continue;
    size_t end = at + word.size();
    if (word.size() <= 4 && name != "June" && name != "July" && end < text.size() &&
        text[end] == '.') {
      ++end;
    }
    return std::make_pair(number, end);
  }
  return std::nullopt;
}

// A day of the month: 1-31, optionally "st", "nd", "rd" or "th".
std::optional<std::pair<int, size_t>> day_at(std::string_view text, size_t at) {
  const auto number = read_digits(text, at, 2);
  if (!number || number->value < 1 || number->value > 31) return std::nullopt;
  size_t end = number->end;
  const std::string_view suffix = text.substr(end, 2);
  if (suffix == "st" || suffix == "nd" || suffix == "rd" || suffix == "th") end += 2;
  if (word_char_at(text, end) || (end < text.size() && text[end] == ':')) return std::nullopt;
  return std::make_pair(static_cast<int>(number->value), end);
}

// A four-digit year 1000-2999, optionally after a comma and blanks.
std::optional<std::pair<int, size_t>> year_after(std::string_view text, size_t at) {
  if (at < text.size() && text[at] == ',') ++at;
  at = skip_blanks(text, at);
  const auto number = read_digits(text, at, 4);
  if (!number || number->end - at != 4 || number->value < 1000 || number->value > 2999 ||
      word_char_at(text, number->end)) {
    return std::nullopt;
  }
  return std::make_pair(static_cast<int>(number->value), number->end);
}

std::optional<Span> full_or_partial(std::string_view text, int month, int day, size_t end) {
  if (const auto year = year_after(text, end)) {
    if (!valid(year->first, month, day)) return std::nullopt;
    return Span{year->second, iso(year->first, month, day), "absolute", kWrittenConfidence};
  }
  if (!valid(2000, month, day)) return std::nullopt;
  return Span{end, std::nullopt, "partial", kPartialConfidence};
}

// "March 15, 2024", "Mar. 15", "March 2024".
std::optional<Span> month_first(std::string_view text, size_t at) {
  const auto month = month_at(text, at);
  if (!month) return std::nullopt;
  const size_t after = skip_blanks(text, month->second);
  if (after == month->second) return std::nullopt;
  if (const auto day = day_at(text, after)) {
    return full_or_partial(text, month->first, day->first, day->second);
  }
  if (const auto year = year_after(text, month->second)) {
    return Span{year->second, std::nullopt, "partial", kPartialConfidence};
  }
  return std::nullopt;
}

// "15 March 2024", "15th of March".
std::optional<Span> day_first(std::string_view text, size_t at) {
  const auto day = day_at(text, at);
  if (!day) return std::nullopt;
  size_t after = skip_blanks(text, day->second);
  if (after == day->second) return std::nullopt;
  if (text.substr(after, 3) == "of ") after = skip_blanks(text, after + 3);
  const auto month = month_at(text, after);
  if (!month) return std::nullopt;
  return full_or_partial(text, month->first, day->first, month->second);
}

// "2024-03-15", "2024/03/15".
std::optional<Span> iso_date(std::string_view text, size_t at) {
  const auto year = read_digits(text, at, 4);
  if (!year || year->end - at != 4 || year->end + 6 > text.size()) return std::nullopt;
  const char sep = text[year->end];
  if (sep != '-' && sep != '/') return std::nullopt;
  const auto month = read_digits(text, year->end + 1, 2);
  if (!month || month->end >= text.size() || text[month->end] != sep) return std::nullopt;
  const auto day = read_digits(text, month->end + 1, 2);
  if (!day || word_char_at(text, day->end)) return std::nullopt;
  const int y = static_cast<int>(year->value);
  const int m = static_cast<int>(month->value);
  const int d = static_cast<int>(day->value);
  if (y < 1000 || !valid(y, m, d)) return std::nullopt;
  return Span{day->end, iso(y, m, d), "absolute", kIsoConfidence};
}

// "03/15/2024", "15.03.2024", "3-15-24": see the header for the order rule.
std::optional<Span> numeric_date(std::string_view text, size_t at) {
  const auto first = read_digits(text, at, 2);
  if (!first || first->end >= text.size()) return std::nullopt;
  const char sep = text[first->end];
  if (sep != '/' && sep != '-' && sep != '.') return std::nullopt;
  const auto second = read_digits(text, first->end + 1, 2);
  if (!second || second->end >= text.size() || text[second->end] != sep) return std::nullopt;
  const auto year = read_digits(text, second->end + 1, 4);
  if (!year || word_char_at(text, year->end)) return std::nullopt;
  const size_t year_digits = year->end - second->end - 1;
  if (year_digits != 2 && year_digits != 4) return std::nullopt;
  // "1.2.2024." ends a sentence, but "1.2.3.4" is no date.
  if (year->end + 1 < text.size() && text[year->end] == sep && digit(text[year->end + 1])) {
    return std::nullopt;
  }
  int y = static_cast<int>(year->value);
  if (year_digits == 2) y += y < 70 ? 2000 : 1900;
  const int a = static_cast<int>(first->value);
  const int b = static_cast<int>(second->value);
  const bool day_first = sep == '.' || a > 12;
  const int month = day_first ? b : a;
  const int day = day_first ? a : b;
  if (!valid(y, month, day)) return std::nullopt;
  return Span{year->end, iso(y, month, day), "absolute", kNumericConfidence};
}

bool is_weekday(std::string_view word) {
  for (const auto weekday : kWeekdays) {
    if (word == weekday) return true;
  }
  return false;
}

// "Friday", "Friday, March 15, 2024" (then absolute), "Friday 15 March".
std::optional<Span> weekday_date(std::string_view text, size_t at) {
  const std::string_view word = alpha_word(text, at);
  if (!is_weekday(word)) return std::nullopt;
  size_t after = at + word.size();
  if (after < text.size() && text[after] == ',') ++after;
  const size_t next = skip_blanks(text, after);
  if (next > after) {
    if (auto date = month_first(text, next)) return date;
    if (auto date = day_first(text, next)) return date;
  }
  return Span{at + word.size(), std::nullopt, "relative", kWeekdayConfidence};
}

template <size_t N>
bool one_of(std::string_view lower, const std::array<std::string_view, N>& words) {
  for (const auto word : words) {
    if (lower == word) return true;
  }
  return false;
}

// "today", "tomorrow", "next Friday", "last week".
std::optional<Span> relative_date(std::string_view text, size_t at) {
  const std::string_view word = alpha_word(text, at);
  const std::string lower = ascii_lower(word);
  if (one_of(lower, kRelativeWords)) {
    return Span{at + word.size(), std::nullopt, "relative", kRelativeConfidence};
  }
  if (!one_of(lower, kModifiers)) return std::nullopt;
  const size_t next = skip_blanks(text, at + word.size());
  if (next == at + word.size()) return std::nullopt;
  const std::string_view second = alpha_word(text, next);
  if (is_weekday(second) || one_of(ascii_lower(second), kPeriods)) {
    return Span{next + second.size(), std::nullopt, "relative", kRelativeConfidence};
  }
  return std::nullopt;
}

std::optional<Span> date_at(std::string_view text, size_t at) {
  if (digit(text[at])) {
    if (auto span = iso_date(text, at)) return span;
    if (auto span = numeric_date(text, at)) return span;
    return day_first(text, at);
  }
  if (auto span = weekday_date(text, at)) return span;
  if (auto span = month_first(text, at)) return span;
  return relative_date(text, at);
}

}  // namespace

std::vector<FoundEntity> scan_dates(std::string_view text, const Claims& claims) {
  std::vector<FoundEntity> found;
  size_t at = 0;
  while (at < text.size()) {
    const bool start = (ascii_alpha(text[at]) || digit(text[at])) &&
                       (at == 0 || !word_char_at(text, at - decode_before(text, at).size));
    std::optional<Span> span = start ? date_at(text, at) : std::nullopt;
    if (span && !claims.any(at, span->end)) {
      FoundEntity date;
      date.type = EntityType::kDate;
      date.begin = at;
      date.end = span->end;
      date.confidence = span->confidence;
      date.fields["value"] = span->value ? nlohmann::json(*span->value) : nlohmann::json(nullptr);
      date.fields["kind"] = std::string(span->kind);
      found.push_back(std::move(date));
      at = span->end;
      continue;
    }
    at += decode_at(text, at).size;
  }
  return found;
}

}  // namespace opbase::ai::extract
