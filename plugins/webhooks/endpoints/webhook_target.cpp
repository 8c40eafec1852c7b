// The URL is cut as RFC 3986 does (scheme "://" authority, then path and query), but only the
// forms an endpoint URL needs are accepted: anything a second parser (curl, a proxy) could read
// differently is refused here rather than interpreted.
#include "endpoints/webhook_target.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>

#include "opbase/field_error.hpp"

namespace opbase::webhooks {
namespace {

constexpr size_t kMaxHostBytes = 253;  // a DNS name (RFC 1035 section 2.3.4)
constexpr size_t kMaxLabelBytes = 63;

Status invalid(std::string message) { return field_error("url", std::move(message)); }

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

uint16_t default_port(std::string_view scheme) { return scheme == "https" ? 443 : 80; }

// The first byte that may not appear anywhere in the URL: a space, a control character, DEL, or
// a byte outside ASCII (those must be percent-encoded; a host takes its punycode form).
std::optional<size_t> first_bad_byte(std::string_view url) {
  for (size_t i = 0; i < url.size(); ++i) {
    const auto c = static_cast<unsigned char>(url[i]);
    if (c <= 0x20 || c >= 0x7f) return i;
  }
  return std::nullopt;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '-' || c == '_';
}

// Dot-separated labels of letters, digits, '-' and '_', none empty (so no trailing dot).
bool valid_name(std::string_view host) {
  if (host.size() > kMaxHostBytes) return false;
  size_t start = 0;
  while (true) {
    const size_t dot = host.find('.', start);
    const std::string_view label = host.substr(start, dot - start);
    if (label.empty() || label.size() > kMaxLabelBytes) return false;
    if (!std::all_of(label.begin(), label.end(), name_char)) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// A name whose last label starts with a digit is a number to URL parsers (WHATWG) and to
// inet_aton ("127.1", "0x7f.1", "2130706433"): only the dotted quad may be written that way.
bool looks_numeric(std::string_view host) {
  const size_t dot = host.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? host : host.substr(dot + 1);
  return !last.empty() && is_digit(last.front());
}

Status parse_host(std::string_view text, TargetUrl* url) {
  if (text.empty()) return invalid("url host is empty");
  std::array<unsigned char, sizeof(in6_addr)> bytes{};
  if (text.front() == '[') {
    const std::string inner(text.substr(1, text.size() - 2));
    std::array<char, INET6_ADDRSTRLEN> canonical{};
    if (text.back() != ']' || inet_pton(AF_INET6, inner.c_str(), bytes.data()) != 1 ||
        inet_ntop(AF_INET6, bytes.data(), canonical.data(), canonical.size()) == nullptr) {
      return invalid("url host " + std::string(text) + " is not an IPv6 address in brackets");
    }
    url->host = canonical.data();
    url->host_kind = HostKind::kIpv6;
    return Status::ok();
  }
  const std::string host(text);
  if (inet_pton(AF_INET, host.c_str(), bytes.data()) == 1) {
    url->host = host;  // inet_pton takes only the canonical dotted quad
    url->host_kind = HostKind::kIpv4;
    return Status::ok();
  }
  if (!valid_name(host) || looks_numeric(host)) {
    return invalid("url host " + host + " is neither a DNS name nor a dotted IPv4 address");
  }
  url->host = lowercase(host);
  url->host_kind = HostKind::kName;
  return Status::ok();
}

Status parse_port(std::string_view text, TargetUrl* url) {
  // Five digits at most, so the number cannot overflow before the range check.
  uint32_t port = 0;
  const bool digits =
      !text.empty() && text.size() <= 5 && std::all_of(text.begin(), text.end(), is_digit);
  if (digits) {
    for (char c : text) port = port * 10 + static_cast<uint32_t>(c - '0');
  }
  if (!digits || port < 1 || port > 65535) {
    return invalid("url port must be a number from 1 to 65535, not '" + std::string(text) + "'");
  }
  url->port = static_cast<uint16_t>(port);
  return Status::ok();
}

// host, [host], host:port or [host]:port.
Status parse_authority(std::string_view authority, TargetUrl* url) {
  if (authority.find('@') != std::string_view::npos) {
    return invalid("url must not carry user information (user:password@)");
  }
  size_t colon = std::string_view::npos;
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return invalid("url host has a '[' without its ']'");
    if (close + 1 < authority.size() && authority[close + 1] != ':') {
      return invalid("url host has characters after its ']'");
    }
    if (close + 1 < authority.size()) colon = close + 1;
  } else {
    colon = authority.find(':');
  }
  if (Status s = parse_host(authority.substr(0, colon), url); !s) return s;
  if (colon == std::string_view::npos) {
    url->port = default_port(url->scheme);
    return Status::ok();
  }
  return parse_port(authority.substr(colon + 1), url);
}

// The numeric text of an address, without brackets.
std::string address_text(const sockaddr* address) {
  std::array<char, INET6_ADDRSTRLEN> text{};
  const void* bytes =
      address->sa_family == AF_INET6
          ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr)
          : &reinterpret_cast<const sockaddr_in*>(address)->sin_addr;
  if (inet_ntop(address->sa_family, bytes, text.data(), text.size()) == nullptr) return {};
  return text.data();
}

// --- private ranges ---

struct V4Range {
  uint32_t network;  // host byte order
  int bits;
};

// IANA's special-purpose IPv4 registry, less what is globally reachable.
constexpr V4Range kPrivateV4[] = {
    {0x00000000, 8},   // 0/8: "this network", 0.0.0.0 among it
    {0x0A000000, 8},   // 10/8: private
    {0x64400000, 10},  // 100.64/10: shared address space (CGNAT)
    {0x7F000000, 8},   // 127/8: loopback
    {0xA9FE0000, 16},  // 169.254/16: link-local, cloud metadata services among it
    {0xAC100000, 12},  // 172.16/12: private
    {0xC0000000, 24},  // 192.0.0/24: IETF protocol assignments
    {0xC0000200, 24},  // 192.0.2/24: documentation (TEST-NET-1)
    {0xC0A80000, 16},  // 192.168/16: private
    {0xC6120000, 15},  // 198.18/15: benchmarking
    {0xC6336400, 24},  // 198.51.100/24: documentation (TEST-NET-2)
    {0xCB007100, 24},  // 203.0.113/24: documentation (TEST-NET-3)
    {0xE0000000, 4},   // 224/4: multicast
    {0xF0000000, 4},   // 240/4: reserved, 255.255.255.255 (broadcast) among it
};

bool private_v4(uint32_t address) {
  return std::any_of(std::begin(kPrivateV4), std::end(kPrivateV4), [&](const V4Range& range) {
    const uint32_t mask = ~uint32_t{0} << (32 - range.bits);
    return (address & mask) == range.network;
  });
}

uint32_t v4_at(const unsigned char* bytes) {
  return uint32_t{bytes[0]} << 24 | uint32_t{bytes[1]} << 16 | uint32_t{bytes[2]} << 8 | bytes[3];
}

// An IPv6 prefix and what it means: private, or an IPv4 address embedded at `v4_offset`.
struct V6Range {
  std::array<unsigned char, 16> prefix;
  int bits;
  int v4_offset;  // -1: private as a whole
};

constexpr int kPrivate = -1;

constexpr V6Range kV6Ranges[] = {
    // ::ffff:0:0/96 mapped, ::ffff:0:0:0/96 translated (SIIT), 64:ff9b::/96 NAT64.
    {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}, 96, 12},
    {{0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0}, 96, 12},
    {{0, 0x64, 0xff, 0x9b}, 96, 12},
    // 2002::/16 6to4: the IPv4 address of the site follows the prefix.
    {{0x20, 0x02}, 16, 2},
    // ::/96: unspecified, loopback and the deprecated IPv4-compatible addresses.
    {{}, 96, kPrivate},
    {{0, 0x64, 0xff, 0x9b, 0, 1}, 48, kPrivate},  // 64:ff9b:1::/48 local-use NAT64
    {{0x01, 0x00}, 64, kPrivate},                 // 100::/64 discard-only
    {{0x20, 0x01, 0x0d, 0xb8}, 32, kPrivate},     // 2001:db8::/32 documentation
    {{0x3f, 0xff}, 20, kPrivate},                 // 3fff::/20 documentation
    {{0xfc}, 7, kPrivate},                        // fc00::/7 unique local
    {{0xfe, 0x80}, 10, kPrivate},                 // fe80::/10 link-local
    {{0xfe, 0xc0}, 10, kPrivate},                 // fec0::/10 site-local (deprecated)
    {{0xff}, 8, kPrivate},                        // ff00::/8 multicast
};

bool has_prefix(const unsigned char* bytes, const V6Range& range) {
  for (int bit = 0; bit < range.bits; bit += 8) {
    const int take = std::min(8, range.bits - bit);
    const auto mask = static_cast<unsigned char>(0xff << (8 - take));
    if ((bytes[bit / 8] & mask) != (range.prefix[bit / 8] & mask)) return false;
  }
  return true;
}

bool private_v6(const unsigned char* bytes) {
  for (const V6Range& range : kV6Ranges) {
    if (!has_prefix(bytes, range)) continue;
    return range.v4_offset == kPrivate || private_v4(v4_at(bytes + range.v4_offset));
  }
  return false;
}

struct AddrinfoFree {
  void operator()(addrinfo* list) const { freeaddrinfo(list); }
};

}  // namespace

std::string TargetUrl::url_host() const {
  return host_kind == HostKind::kIpv6 ? "[" + host + "]" : host;
}

std::string TargetUrl::text() const {
  std::string out = scheme + "://" + url_host();
  if (port != default_port(scheme)) out += ":" + std::to_string(port);
  return out + path;
}

Result<TargetUrl> parse_target_url(std::string_view url) {
  if (url.size() > kMaxUrlBytes) {
    return invalid("url is longer than " + std::to_string(kMaxUrlBytes) + " bytes");
  }
  if (const auto at = first_bad_byte(url)) {
    return invalid("url holds a space, control character or non-ASCII byte at offset " +
                   std::to_string(*at));
  }
  if (url.find('#') != std::string_view::npos) return invalid("url must not carry a fragment (#)");
  const size_t separator = url.find("://");
  TargetUrl target;
  target.scheme = lowercase(url.substr(0, separator));
  if (separator == std::string_view::npos ||
      (target.scheme != "http" && target.scheme != "https")) {
    return invalid("url must start with http:// or https://");
  }
  const std::string_view rest = url.substr(separator + 3);
  const size_t authority_end = rest.find_first_of("/?");
  if (Status s = parse_authority(rest.substr(0, authority_end), &target); !s) return s;
  const std::string_view path =
      authority_end == std::string_view::npos ? "" : rest.substr(authority_end);
  target.path = path.empty() || path.front() == '?' ? "/" + std::string(path) : std::string(path);
  return target;
}

bool is_private_address(const sockaddr* address) {
  if (address == nullptr) return true;
  if (address->sa_family == AF_INET) {
    return private_v4(ntohl(reinterpret_cast<const sockaddr_in*>(address)->sin_addr.s_addr));
  }
  if (address->sa_family == AF_INET6) {
    return private_v6(reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr.s6_addr);
  }
  return true;
}

std::string ResolvedTarget::curl_resolve_entry() const {
  if (host_kind != HostKind::kName) return {};
  const std::string bracketed = family == AF_INET6 ? "[" + address + "]" : address;
  return host + ":" + std::to_string(port) + ":" + bracketed;
}

Result<ResolvedTarget> resolve_target(const TargetUrl& target, bool allow_private) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;  // one entry per address, not one per socket type
  // A literal never reaches DNS.
  hints.ai_flags = target.host_kind == HostKind::kName ? 0 : AI_NUMERICHOST;
  addrinfo* found = nullptr;
  const int error = getaddrinfo(target.host.c_str(), nullptr, &hints, &found);
  const std::unique_ptr<addrinfo, AddrinfoFree> list(found);
  if (error != 0 || list == nullptr) {
    return field_error("url",
                       "url host " + target.host + " could not be resolved (" +
                           (error != 0 ? gai_strerror(error) : "no address") + ")",
                       {}, kTargetUnresolved);
  }
  // Every address is checked, not only the one returned: a name with a public and a private
  // address is refused whichever of them the resolver lists first.
  for (const addrinfo* entry = list.get(); entry != nullptr; entry = entry->ai_next) {
    if (!allow_private && is_private_address(entry->ai_addr)) {
      return field_error("url",
                         "url host " + target.host +
                             " is on a private, loopback or reserved address; such targets need "
                             "webhooks.allow_private_targets",
                         {}, kTargetRefused);
    }
  }
  ResolvedTarget resolved;
  resolved.host = target.host;
  resolved.host_kind = target.host_kind;
  resolved.port = target.port;
  resolved.family = list->ai_family;
  resolved.address = address_text(list->ai_addr);
  return resolved;
}

}  // namespace opbase::webhooks
