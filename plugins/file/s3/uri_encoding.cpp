// S3's percent-encoding and canonical query string (uri_encoding.hpp).
#include "s3/uri_encoding.hpp"

#include <algorithm>

namespace opbase::file {
namespace {

bool is_unreserved(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == '~';
}

}  // namespace

std::string uri_encode(std::string_view bytes, Slash slash) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(bytes.size() * 3);
  for (const char c : bytes) {
    if (is_unreserved(c) || (c == '/' && slash == Slash::kKeep)) {
      out += c;
      continue;
    }
    const auto b = static_cast<unsigned char>(c);
    out += '%';
    out += kDigits[b >> 4];
    out += kDigits[b & 0xF];
  }
  return out;
}

std::string canonical_query(const NameValues& params) {
  NameValues encoded;
  encoded.reserve(params.size());
  for (const auto& [name, value] : params) {
    encoded.emplace_back(uri_encode(name, Slash::kEncode), uri_encode(value, Slash::kEncode));
  }
  // Pairs compare by name, then by value: the order the signature specifies.
  std::sort(encoded.begin(), encoded.end());
  std::string query;
  for (const auto& [name, value] : encoded) {
    if (!query.empty()) query += '&';
    query += name;
    query += '=';
    query += value;
  }
  return query;
}

}  // namespace opbase::file
