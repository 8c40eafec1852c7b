// Fuzzes the webhook target parser (plugins/webhooks/endpoints/webhook_target.hpp): any bytes must
// parse or fail with a VALIDATION_ERROR naming the field, never crash. Whatever is accepted must be
// sane and consistent: scheme http or https, a port from 1 to 65535, a host of the kind it says
// (a DNS name of [a-z0-9_.-], an address inet_pton takes), a path starting with '/' without
// spaces, control characters, non-ASCII bytes or '#', and text() must parse to the same parts.
// The input's first 16 bytes also drive the address judge: an IPv4 address must be judged the
// same bare, IPv4-mapped (::ffff:a.b.c.d) and behind NAT64 (64:ff9b::a.b.c.d).
// A failure aborts; add the input to tests/unit/webhooks/endpoints/webhook_target_test.cpp's tables
// once fixed.
#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "endpoints/webhook_target.hpp"

namespace {

using opbase::webhooks::HostKind;
using opbase::webhooks::TargetUrl;

bool plain_byte(char c) {
  const auto b = static_cast<unsigned char>(c);
  return b > 0x20 && b < 0x7f && c != '#';
}

bool host_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

bool ends_with(std::string_view text, std::string_view end) {
  return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

void check_host(const TargetUrl& url) {
  if (url.host.empty()) std::abort();
  unsigned char bytes[sizeof(in6_addr)];
  switch (url.host_kind) {
    case HostKind::kName:
      if (!std::all_of(url.host.begin(), url.host.end(), host_char)) std::abort();
      if (inet_pton(AF_INET, url.host.c_str(), bytes) == 1) std::abort();
      break;
    case HostKind::kIpv4:
      if (inet_pton(AF_INET, url.host.c_str(), bytes) != 1) std::abort();
      break;
    case HostKind::kIpv6:
      if (inet_pton(AF_INET6, url.host.c_str(), bytes) != 1) std::abort();
      break;
  }
}

void check_accepted(std::string_view input, const TargetUrl& url) {
  if (input.size() > opbase::webhooks::kMaxUrlBytes) std::abort();
  if (url.scheme != "http" && url.scheme != "https") std::abort();
  if (url.port == 0) std::abort();  // uint16_t: 65535 at most
  check_host(url);
  if (url.path.empty() || url.path.front() != '/') std::abort();
  if (!std::all_of(url.path.begin(), url.path.end(), plain_byte)) std::abort();
  // The path is kept as written: the input ends with it, or with it less the '/' put before a
  // bare query, or (path "/") the input has none.
  const std::string_view path = url.path;
  const bool bare_query = path.substr(0, 2) == "/?" && ends_with(input, path.substr(1));
  if (!ends_with(input, path) && !bare_query && path != "/") std::abort();
  auto again = opbase::webhooks::parse_target_url(url.text());
  if (!again || !(*again == url)) std::abort();
}

bool judged(const void* address) {
  return opbase::webhooks::is_private_address(static_cast<const sockaddr*>(address));
}

void check_addresses(const uint8_t* data, size_t size) {
  if (size < 16) return;
  sockaddr_in6 six{};
  six.sin6_family = AF_INET6;
  std::memcpy(six.sin6_addr.s6_addr, data, 16);
  (void)judged(&six);  // any 16 bytes: no crash

  sockaddr_in four{};
  four.sin_family = AF_INET;
  std::memcpy(&four.sin_addr, data, 4);
  const bool bare = judged(&four);
  static constexpr uint8_t kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  static constexpr uint8_t kNat64[12] = {0, 0x64, 0xff, 0x9b};
  for (const uint8_t* prefix : {kMapped, kNat64}) {
    std::memcpy(six.sin6_addr.s6_addr, prefix, 12);
    std::memcpy(six.sin6_addr.s6_addr + 12, data, 4);
    if (judged(&six) != bare) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto url = opbase::webhooks::parse_target_url(input);
  if (url) {
    check_accepted(input, *url);
  } else if (url.status().code() != "VALIDATION_ERROR" || url.status().message().empty() ||
             url.status().details() != nlohmann::json{{"field", "url"}}) {
    std::abort();
  }
  check_addresses(data, size);
  return 0;
}
