#include "extract/money_scanner.hpp"

#include <array>
#include <optional>
#include <string>
#include <utility>

#include "extract/number_reader.hpp"
#include "extract/utf8.hpp"

namespace opbase::ai::extract {

namespace {

constexpr double kSignConfidence = 0.95;  // a symbol or a code
constexpr double kWordConfidence = 0.85;  // "dollars", "euros"

using Pair = std::pair<std::string_view, std::string_view>;

// Symbols, longest first so "US$" wins over "$".
constexpr std::array<Pair, 18> kSymbols = {{
    {"US$", "USD"},
    {"CA$", "CAD"},
    {"AU$", "AUD"},
    {"HK$", "HKD"},
    {"NZ$", "NZD"},
    {"C$", "CAD"},
    {"A$", "AUD"},
    {"S$", "SGD"},
    {"R$", "BRL"},
    {"$", "USD"},
    {"€", "EUR"},
    {"£", "GBP"},
    {"¥", "JPY"},
    {"₹", "INR"},
    {"₩", "KRW"},
    {"₽", "RUB"},
    {"₺", "TRY"},
    {"₪", "ILS"},
}};

// Codes common in business text. Codes that are also everyday capitalised words or acronyms
// ("ALL", "TOP", "PHP", "CUP") are left out.
constexpr std::array<std::string_view, 40> kCodes = {
    "USD", "EUR", "GBP", "JPY", "CNY", "RMB", "CHF", "CAD", "AUD", "NZD",
    "INR", "KRW", "BRL", "MXN", "RUB", "SEK", "NOK", "DKK", "PLN", "CZK",
    "HUF", "TRY", "ZAR", "SGD", "HKD", "AED", "SAR", "ILS", "THB", "IDR",
    "MYR", "VND", "EGP", "NGN", "KES", "ARS", "CLP", "COP", "TWD", "BTC"};

constexpr std::array<Pair, 12> kWords = {{
    {"dollars", "USD"},
    {"dollar", "USD"},
    {"euros", "EUR"},
    {"euro", "EUR"},
    {"yen", "JPY"},
    {"yuan", "CNY"},
    {"rupees", "INR"},
    {"rupee", "INR"},
    {"francs", "CHF"},
    {"pesos", "MXN"},
    {"renminbi", "CNY"},
    {"won", "KRW"},
}};

constexpr std::array<std::pair<std::string_view, double>, 15> kMultipliers = {{
    {"thousand", 1e3},
    {"million", 1e6},
    {"billion", 1e9},
    {"trillion", 1e12},
    {"mln", 1e6},
    {"bln", 1e9},
    {"mn", 1e6},
    {"bn", 1e9},
    {"tn", 1e12},
    {"k", 1e3},
    {"K", 1e3},
    {"m", 1e6},
    {"M", 1e6},
    {"b", 1e9},
    {"B", 1e9},
}};

bool word_char_at(std::string_view text, size_t at) {
  return at < text.size() && (is_letter(decode_at(text, at).point) || is_digit(text[at]));
}

bool boundary_before(std::string_view text, size_t at) {
  return at == 0 || !(is_letter(decode_before(text, at).point) || is_digit(text[at - 1]));
}

size_t skip_one_blank(std::string_view text, size_t at) {
  if (at < text.size() && text[at] == ' ') return at + 1;
  if (at + 1 < text.size() && text.substr(at, 2) == "\xC2\xA0") return at + 2;  // no-break space
  return at;
}

std::optional<Pair> symbol_at(std::string_view text, size_t at) {
  for (const auto& pair : kSymbols) {
    if (text.substr(at, pair.first.size()) == pair.first) return pair;
  }
  return std::nullopt;
}

std::optional<std::string_view> code_at(std::string_view text, size_t at) {
  if (text.size() - at < 3 || word_char_at(text, at + 3)) return std::nullopt;
  for (const auto code : kCodes) {
    if (text.substr(at, 3) == code) return code == "RMB" ? "CNY" : code;
  }
  return std::nullopt;
}

// A number and its multiplier from `at`: "5", "2.5 million", "40k".
std::optional<ReadNumber> amount_at(std::string_view text, size_t at) {
  auto number = read_number(text, at);
  if (!number) return std::nullopt;
  for (const auto& [word, factor] : kMultipliers) {
    const bool short_form = word.size() <= 3;
    for (const size_t from : {number->end, skip_one_blank(text, number->end)}) {
      if (from == number->end && !short_form) continue;
      const std::string_view here = text.substr(from, word.size());
      const bool matches = short_form ? here == word : ascii_lower(here) == word;
      if (matches && !word_char_at(text, from + word.size())) {
        return ReadNumber{number->value * factor, from + word.size()};
      }
    }
  }
  return number;
}

FoundEntity money(size_t begin, size_t end, double amount, std::string_view currency,
                  double confidence) {
  FoundEntity entity;
  entity.type = EntityType::kMoney;
  entity.begin = begin;
  entity.end = end;
  entity.confidence = confidence;
  entity.fields["amount"] = json_number(amount);
  entity.fields["currency"] = std::string(currency);
  return entity;
}

// "$5", "US$ 5 million", "USD 5".
std::optional<FoundEntity> sign_first(std::string_view text, size_t at) {
  std::string_view currency;
  size_t after = at;
  if (const auto symbol = symbol_at(text, at)) {
    currency = symbol->second;
    after = at + symbol->first.size();
  } else if (const auto code = code_at(text, at)) {
    currency = *code;
    after = at + 3;
  } else {
    return std::nullopt;
  }
  const auto amount = amount_at(text, skip_one_blank(text, after));
  if (!amount) return std::nullopt;
  return money(at, amount->end, amount->value, currency, kSignConfidence);
}

// "10 €", "5 EUR", "20 dollars".
std::optional<FoundEntity> number_first(std::string_view text, size_t at) {
  const auto amount = amount_at(text, at);
  if (!amount) return std::nullopt;
  const size_t after = skip_one_blank(text, amount->end);
  if (const auto symbol = symbol_at(text, after); symbol && symbol->first.size() > 1) {
    // A multi-byte symbol (€, £...) may follow; "5$" and "5 US$" are not written.
    if (symbol->first != "US$" && symbol->first.find('$') == std::string_view::npos) {
      return money(at, after + symbol->first.size(), amount->value, symbol->second,
                   kSignConfidence);
    }
  }
  if (const auto code = code_at(text, after)) {
    return money(at, after + 3, amount->value, *code, kSignConfidence);
  }
  for (const auto& [word, currency] : kWords) {
    if (ascii_lower(text.substr(after, word.size())) == word &&
        !word_char_at(text, after + word.size())) {
      return money(at, after + word.size(), amount->value, currency, kWordConfidence);
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<FoundEntity> scan_money(std::string_view text, const Claims& claims) {
  std::vector<FoundEntity> found;
  size_t at = 0;
  while (at < text.size()) {
    // Signs and numbers start at a word's start; a symbol such as '$' may follow anything.
    std::optional<FoundEntity> entity;
    const bool word_start = boundary_before(text, at);
    if (word_start || !word_char_at(text, at)) entity = sign_first(text, at);
    if (!entity && word_start && is_digit(text[at])) entity = number_first(text, at);
    if (entity && !claims.any(entity->begin, entity->end)) {
      at = entity->end;
      found.push_back(std::move(*entity));
      continue;
    }
    at += decode_at(text, at).size;
  }
  return found;
}

}  // namespace opbase::ai::extract
