#include "opbase/hex.hpp"

namespace opbase {

std::string hex_encode(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out += kDigits[b >> 4];
    out += kDigits[b & 0xF];
  }
  return out;
}

std::string time_hex(int64_t ms) {
  char bytes[6];
  for (int i = 0; i < 6; ++i) bytes[i] = static_cast<char>(ms >> (8 * (5 - i)));
  return hex_encode(std::string_view(bytes, sizeof bytes));
}

}  // namespace opbase
