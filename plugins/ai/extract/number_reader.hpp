// Reading numbers as people write them in prose: "5", "1,234.56", "1.234,56", "2.5". Shared by
// the money and date scanners. A separator counts only between digits, so a sentence's closing
// full stop ("costs $5.") stays outside.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace opbase::ai::extract {

struct ReadNumber {
  double value = 0;
  size_t end = 0;  // bytes, exclusive
};

// The number starting at `text[at]` (a digit), or nullopt.
std::optional<ReadNumber> read_number(std::string_view text, size_t at);

// A run of 1..max_digits ASCII digits at `at` (no separators), its value and end.
std::optional<ReadNumber> read_digits(std::string_view text, size_t at, size_t max_digits);

// A JSON number: an integer when the value is whole, else a double.
nlohmann::json json_number(double value);

}  // namespace opbase::ai::extract
