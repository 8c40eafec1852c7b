// 3 bytes <-> 4 characters of 6 bits; a tail of 1 or 2 bytes becomes 2 or 3 characters, then
// "==" or "=" in the padded form.
#include "opbase/base64.hpp"

#include <array>
#include <cstdint>

namespace opbase {
namespace {

constexpr std::string_view kStandard =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view kUrl =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr int8_t kInvalid = -1;

using DecodeTable = std::array<int8_t, 256>;

constexpr DecodeTable decode_table(std::string_view alphabet) {
  DecodeTable table{};
  table.fill(kInvalid);
  for (size_t i = 0; i < alphabet.size(); ++i) {
    table[static_cast<unsigned char>(alphabet[i])] = static_cast<int8_t>(i);
  }
  return table;
}
constexpr DecodeTable kStandardDecode = decode_table(kStandard);
constexpr DecodeTable kUrlDecode = decode_table(kUrl);

uint32_t byte_at(std::string_view bytes, size_t i) {
  return i < bytes.size() ? static_cast<unsigned char>(bytes[i]) : 0;
}

std::string encode(std::string_view bytes, std::string_view alphabet, bool pad) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const uint32_t n = byte_at(bytes, i) << 16 | byte_at(bytes, i + 1) << 8 | byte_at(bytes, i + 2);
    const size_t present = bytes.size() - i;  // 1, 2, or 3 and more
    out += alphabet[n >> 18 & 63];
    out += alphabet[n >> 12 & 63];
    if (present > 1) {
      out += alphabet[n >> 6 & 63];
    } else if (pad) {
      out += '=';
    }
    if (present > 2) {
      out += alphabet[n & 63];
    } else if (pad) {
      out += '=';
    }
  }
  return out;
}

// Unpadded characters to bytes.
std::optional<std::string> decode_data(std::string_view data, const DecodeTable& table) {
  // One leftover character carries only 6 bits: no byte can end there.
  if (data.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(data.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  for (const char c : data) {
    const int8_t v = table[static_cast<unsigned char>(c)];
    if (v == kInvalid) return std::nullopt;  // '=' included: padding only at the end
    acc = (acc << 6 | static_cast<uint32_t>(v)) & 0xFFFFFF;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>(acc >> bits & 0xFF);
    }
  }
  // The 2 or 4 bits left over after the last byte must be zero (RFC 4648 section 3.5).
  if ((acc & ((1u << bits) - 1)) != 0) return std::nullopt;
  return out;
}

}  // namespace

std::string base64_encode(std::string_view bytes) { return encode(bytes, kStandard, true); }

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') {
    ++padding;
  }
  return decode_data(text.substr(0, text.size() - padding), kStandardDecode);
}

std::string base64url_encode(std::string_view bytes) { return encode(bytes, kUrl, false); }

std::optional<std::string> base64url_decode(std::string_view text) {
  return decode_data(text, kUrlDecode);
}

}  // namespace opbase
