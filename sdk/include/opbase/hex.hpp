// Lowercase hexadecimal of bytes: two digits a byte, the high nibble first. Ids, keys and digests
// print this way everywhere. Pure; safe from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace opbase {

std::string hex_encode(std::string_view bytes);

// The value of one hexadecimal digit, either case; -1 for any other character.
constexpr int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A time in milliseconds (its low 48 bits: until the year 10889) as 12 hex digits. Ids that
// start with it sort by time, so a store appends them to the end of its key index rather than
// writing each on a random page of it.
std::string time_hex(int64_t ms);

}  // namespace opbase
